import { createCipheriv, randomBytes } from 'node:crypto';

/**
 * Seals `plaintext` as versions before key ids did (`v1.<iv>.<tag>.<ciphertext>`, AES-256-GCM, no
 * key id): lets a test plant a value an earlier version stored and check it still opens.
 */
export function sealAsV1(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), ct.toString('base64')].join('.');
}
