import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The sealed form of a secret at rest: AES-256-GCM under a key-encryption key, as one ASCII string
 * (it fits a `text` column or a JSON string).
 *
 * - `v2.<kid>.<iv>.<tag>.<ciphertext>` (written since key ids): `kid` names the key that sealed
 *   it, so a key ring can pick that key to open it; `v2.<kid>` is authenticated (GCM additional
 *   data), so a value cannot be made to claim another key.
 * - `v1.<iv>.<tag>.<ciphertext>` (written by earlier versions): no key id; opened by trying the
 *   ring's keys in turn (GCM rejects a wrong key).
 *
 * iv (12 bytes, random per value), tag (16 bytes) and ciphertext are base64.
 */

/** A key-encryption key and the id its sealed values record. */
export interface SealingKey {
  readonly id: string;
  /** 32 bytes. */
  readonly key: Buffer;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Key ids are short and need no escaping in the envelope (no `.`). */
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The id a key gets when none is given: the first 8 hex digits of the SHA-256 of its 32 bytes
 * (`printf %s "$KEY" | base64 -d | sha256sum | cut -c1-8` for a base64 key). Not secret.
 */
export function deriveKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function sealingKey(key: Buffer, id: string = deriveKeyId(key)): SealingKey {
  if (key.length !== 32) throw new Error('a key-encryption key must be 32 bytes');
  if (!KEY_ID.test(id)) throw new Error(`a key id is 1 to 64 letters, digits, "_" or "-" (got "${id}")`);
  return { id, key };
}

/** Seals `plaintext` under `key`: `v2.<kid>.<iv>.<tag>.<ciphertext>`, with a fresh random IV each call. */
export function seal(plaintext: string, key: SealingKey): string {
  const header = `v2.${key.id}`;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(header, 'ascii'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [header, b64(iv), b64(cipher.getAuthTag()), b64(ct)].join('.');
}

/**
 * The id of the key that sealed `sealed` (`v2`), or null for a `v1` value (sealed before key ids).
 * Throws on what is not an envelope.
 */
export function sealedBy(sealed: string): string | null {
  return parse(sealed).keyId;
}

/**
 * Opens `sealed` with `keys` (a `v2` value with the key of its id; a `v1` value with each key in
 * turn). Throws on a malformed, tampered or unknown-key value: never answers a wrong plaintext.
 */
export function open(sealed: string, keys: readonly SealingKey[]): string {
  const envelope = parse(sealed);
  if (envelope.keyId === null) {
    for (const key of keys) {
      const plain = tryDecrypt(envelope, key.key);
      if (plain !== null) return plain;
    }
    throw new Error('sealed value does not open with any key-encryption key (tampered, or sealed by another key)');
  }
  const key = keys.find((k) => k.id === envelope.keyId);
  if (!key) throw new Error(`sealed value names key ${envelope.keyId}, which is not configured`);
  const plain = tryDecrypt(envelope, key.key);
  if (plain === null) throw new Error(`sealed value does not open with key ${envelope.keyId} (tampered)`);
  return plain;
}

interface Envelope {
  keyId: string | null;
  /** Authenticated with the ciphertext; empty for v1. */
  aad: Buffer | null;
  iv: Buffer;
  tag: Buffer;
  ct: Buffer;
}

function parse(sealed: string): Envelope {
  const parts = sealed.split('.');
  let keyId: string | null;
  let rest: string[];
  if (parts[0] === 'v2' && parts.length === 5 && KEY_ID.test(parts[1])) {
    keyId = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'v1' && parts.length === 4) {
    keyId = null;
    rest = parts.slice(1);
  } else {
    throw new Error('unsupported sealed value format');
  }
  const [iv, tag, ct] = rest.map((p) => Buffer.from(p, 'base64'));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('malformed sealed value');
  return { keyId, aad: keyId === null ? null : Buffer.from(`v2.${keyId}`, 'ascii'), iv, tag, ct };
}

function tryDecrypt(envelope: Envelope, key: Buffer): string | null {
  const decipher = createDecipheriv('aes-256-gcm', key, envelope.iv, { authTagLength: TAG_BYTES });
  if (envelope.aad) decipher.setAAD(envelope.aad);
  decipher.setAuthTag(envelope.tag);
  try {
    return Buffer.concat([decipher.update(envelope.ct), decipher.final()]).toString('utf8');
  } catch {
    return null; // final() throws when the tag does not match: tampered, or another key
  }
}

const b64 = (bytes: Buffer) => bytes.toString('base64');
