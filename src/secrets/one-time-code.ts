import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * One-time codes sent to a person (email / SMS verification codes): drawn here, stored only as a
 * digest salted with the challenge's id (a stored row never holds a usable code), and compared in
 * constant time. What limits guessing (attempts, re-sends, expiry) is the caller's.
 */

/** A fresh numeric code of `digits` digits (crypto.randomInt, uniformly distributed). */
export function newOneTimeCode(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

/** The stored form of `code` for the challenge `salt` (SHA-256 of salt and code, hex). */
export function oneTimeCodeDigest(code: string, salt: string): string {
  return createHash('sha256').update(`${salt}\u0000${code}`, 'utf8').digest('hex');
}

/** Whether `code` is the one `digest` was made from, compared in constant time. */
export function oneTimeCodeMatches(code: string, salt: string, digest: string): boolean {
  const candidate = Buffer.from(oneTimeCodeDigest(code, salt), 'hex');
  const stored = Buffer.from(digest, 'hex');
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}
