import { StreamableFile } from '@nestjs/common';
import type { Response } from 'express';

/** RFC 6266 attachment disposition: an ASCII fallback and the UTF-8 name. */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * A stored file, always as a download: `application/octet-stream`, `Content-Disposition: attachment`,
 * `nosniff`, a sandboxing CSP and `no-store`, so a browser never renders it (a PDF with HTML inside
 * stays inert). Every document route that serves bytes answers through this.
 */
export function documentDownload(res: Response, file: { bytes: Buffer; fileName: string }): StreamableFile {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'");
  res.setHeader('Cache-Control', 'no-store');
  return new StreamableFile(file.bytes, {
    type: 'application/octet-stream',
    disposition: attachment(file.fileName),
    length: file.bytes.length,
  });
}
