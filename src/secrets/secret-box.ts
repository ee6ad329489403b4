import { Injectable } from '@nestjs/common';
import { open, seal, sealedBy } from './envelope.js';
import { KeyRing } from './key-ring.js';

/**
 * Seals and opens secrets at rest (webhook private keys and `whsec_` secrets, stored idempotent
 * replays, customers' SSN / ITIN): AES-256-GCM under the key-encryption key, in an envelope that
 * names the key that sealed it (envelope.ts). The only place in the application that encrypts.
 */
@Injectable()
export class SecretBox {
  constructor(private readonly ring: KeyRing) {}

  /** The sealed form of `plaintext`, under the current key (a fresh IV each call: never the same twice). */
  seal(plaintext: string): string {
    return seal(plaintext, this.ring.current);
  }

  /** The plaintext of a value `seal` returned, whichever configured key sealed it; throws if tampered. */
  open(sealed: string): string {
    return open(sealed, this.ring.openers);
  }

  /** The id of the key that sealed `sealed`; null for a value sealed before key ids were recorded. */
  sealedBy(sealed: string): string | null {
    return sealedBy(sealed);
  }

  /** The ring's configured id of the key that opens values recording `kid` (null: none does). */
  ownerOf(kid: string): string | null {
    return this.ring.ownerOf(kid);
  }

  /** The configured key ids, the current one first. */
  get keyIds(): string[] {
    return this.ring.keys.map((k) => k.id);
  }

  /** The id recorded in what `seal` writes now. */
  get currentKeyId(): string {
    return this.ring.current.id;
  }
}
