import type { SealingKey } from './envelope.js';

/**
 * The key-encryption keys this process knows: the current one seals, every one opens what it
 * sealed. Today it holds one key (WEBHOOK_KEY_ENCRYPTION_KEY, see key-encryption-key.ts); a ring
 * of several (a rotation) only changes how `loadKeyRing` fills it.
 */
export class KeyRing {
  readonly keys: readonly SealingKey[];

  /** `keys[0]` is the current key. */
  constructor(keys: readonly SealingKey[]) {
    if (keys.length === 0) throw new Error('a key ring needs at least one key');
    const ids = keys.map((k) => k.id);
    if (new Set(ids).size !== ids.length) throw new Error(`key ids must differ (got ${ids.join(', ')})`);
    this.keys = [...keys];
  }

  /** The key new values are sealed with. */
  get current(): SealingKey {
    return this.keys[0];
  }
}
