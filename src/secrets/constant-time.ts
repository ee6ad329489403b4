import { createHash, timingSafeEqual } from 'node:crypto';

/** Constant-time equality of two strings (compared as SHA-256 digests, so lengths leak nothing). */
export function sameSecret(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}
