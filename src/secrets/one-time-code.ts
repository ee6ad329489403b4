import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * One-time codes sent to a person (wallet OTPs, email / SMS verification codes, SCA SMS codes):
 * drawn here, stored only as HMAC-SHA256 under the deployment's sealed one-time-code key
 * (`OneTimeCodeKey`, src/secrets/one-time-code-key.ts) over the code's purpose, its challenge's id
 * and the code, and compared in constant time. A stored row never holds a usable code, and without
 * the key (sealed by the key-encryption key, outside the database) a digest cannot be tested
 * against guesses. What limits guessing is `OneTimeCodeLimits` (src/common/one-time-code-limits.ts).
 */

/** A fresh numeric code of `digits` digits (crypto.randomInt, uniformly distributed). */
export function newOneTimeCode(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0');
}

/** The stored form of `code` for the challenge `salt` (HMAC-SHA256 under `key`, hex). */
export function oneTimeCodeDigest(key: Buffer, code: string, salt: string): string {
  return createHmac('sha256', key).update(`${salt}\u0000${code}`, 'utf8').digest('hex');
}

/** Whether `code` is the one `digest` was made from under `key`, compared in constant time. */
export function oneTimeCodeMatches(key: Buffer, code: string, salt: string, digest: string): boolean {
  const candidate = Buffer.from(oneTimeCodeDigest(key, code, salt), 'hex');
  const stored = Buffer.from(digest, 'hex');
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}
