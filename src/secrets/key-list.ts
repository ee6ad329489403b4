import { deriveKeyId, sealingKey, type SealingKey } from './envelope.js';

/**
 * Parses `KEY_ENCRYPTION_KEYS`: `id1:key1,id2:key2` (each key 32 bytes, base64 or hex; `id:` may be
 * left out, the key then goes by its derived id). The first key seals; every key opens. Throws one
 * error naming every bad entry (bad length, bad encoding, bad or duplicate id); never echoes a key.
 */
export function parseKeyList(value: string): SealingKey[] {
  const problems: string[] = [];
  const keys: SealingKey[] = [];
  const ids: string[] = [];
  const entries = value.split(',').map((e) => e.trim());
  entries.forEach((entry, index) => {
    const at = `entry ${index + 1}`;
    const colon = entry.indexOf(':');
    const id = colon >= 0 ? entry.slice(0, colon).trim() : null;
    const text = (colon >= 0 ? entry.slice(colon + 1) : entry).trim();
    const label = id ? `${at} ("${id}")` : at;
    if (id) ids.push(id);
    if (!text) return void problems.push(`${label}: no key`);
    const key = decodeKey(text);
    if (key === null) return void problems.push(`${label}: not base64 or hex`);
    if (key.length !== 32) return void problems.push(`${label}: ${key.length} bytes, a key is 32 bytes`);
    try {
      keys.push(sealingKey(key, id ?? deriveKeyId(key)));
      if (!id) ids.push(deriveKeyId(key));
    } catch (error) {
      problems.push(`${label}: ${(error as Error).message}`);
    }
  });
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) problems.push(`duplicate key id "${id}"`);
    seen.add(id);
  }
  if (problems.length) throw new Error(problems.join('; '));
  return keys;
}

/** 64 hex digits, or base64 (standard or URL-safe, padding optional); null when neither. */
export function decodeKey(text: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}
