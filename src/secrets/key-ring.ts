import { deriveKeyId, type SealingKey } from './envelope.js';

/**
 * The key-encryption keys this process knows (KEY_ENCRYPTION_KEYS, or the one key of
 * WEBHOOK_KEY_ENCRYPTION_KEY / the embedded key file; see key-encryption-key.ts): the first one
 * seals, every one opens what it sealed. A key given an explicit id also opens values sealed under
 * its derived id (what the same key wrote when it was the single WEBHOOK_KEY_ENCRYPTION_KEY).
 */
export class KeyRing {
  readonly keys: readonly SealingKey[];
  /** Every key under every id it opens: its own, then its derived id when that names no other key. */
  readonly openers: readonly SealingKey[];
  /** The configured id of the key behind each id a value may record. */
  private readonly owners = new Map<string, string>();

  /** `keys[0]` is the current key. */
  constructor(keys: readonly SealingKey[]) {
    if (keys.length === 0) throw new Error('a key ring needs at least one key');
    const ids = keys.map((k) => k.id);
    if (new Set(ids).size !== ids.length) throw new Error(`key ids must differ (got ${ids.join(', ')})`);
    this.keys = [...keys];
    for (const key of keys) this.owners.set(key.id, key.id);
    const aliases: SealingKey[] = [];
    for (const key of keys) {
      const derived = deriveKeyId(key.key);
      if (!this.owners.has(derived)) {
        this.owners.set(derived, key.id);
        aliases.push({ id: derived, key: key.key });
      }
    }
    this.openers = [...keys, ...aliases];
  }

  /** The key new values are sealed with. */
  get current(): SealingKey {
    return this.keys[0];
  }

  /** The configured id of the key that opens values recording `kid`; null when no key of the ring does. */
  ownerOf(kid: string): string | null {
    return this.owners.get(kid) ?? null;
  }
}
