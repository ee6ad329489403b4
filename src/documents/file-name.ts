/**
 * A client's file name kept as metadata only: the last path segment (either separator), without
 * control or shell-special characters, no leading dots, at most 200 characters; `document` when
 * nothing is left. It never names a path: bytes live in the document store under the document id.
 */
export function sanitizeFileName(name: string | null | undefined): string {
  const last = (name ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = last
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._ ()-]/gu, '_')
    .replace(/_+/g, '_')
    .replace(/^[.\s_]+/, '')
    .trim()
    .slice(0, 200);
  return cleaned.length > 0 ? cleaned : 'document';
}
