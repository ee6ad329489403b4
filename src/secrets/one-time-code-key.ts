import { randomBytes } from 'node:crypto';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { TransactionService } from '../database/transaction.service.js';
import { SealedColumns } from './sealed-columns.js';
import { SecretBox } from './secret-box.js';

/** The id of the one-time-code MAC key in `server_keys`. */
const MAC_KEY_ID = 'one-time-code-mac';

/**
 * The deployment's one-time-code MAC key (docs/security-operations.md, "One-time codes"): 32
 * random bytes made on the deployment's first start, kept in `server_keys` sealed by SecretBox
 * (a registered sealed column: `key-rotation` re-seals it under the current key-encryption key),
 * loaded at boot. Every one-time code (wallet OTPs, contact verification codes, SCA SMS codes) is
 * stored as HMAC-SHA256 under it (src/secrets/one-time-code.ts), so a read of the database alone
 * gives nothing a guess can be checked against.
 */
@Injectable()
export class OneTimeCodeKey implements OnApplicationBootstrap {
  private key: Buffer | null = null;
  private loading: Promise<Buffer> | null = null;

  constructor(
    private readonly tx: TransactionService,
    private readonly box: SecretBox,
    sealed: SealedColumns,
  ) {
    sealed.register({
      name: 'server_keys.key_enc',
      table: 'server_keys',
      keys: ['id'],
      value: 'key_enc',
      assign: (param) => `key_enc = ${param}`,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.load();
  }

  /** The key (loaded at boot; a call before then loads it). */
  async current(): Promise<Buffer> {
    return this.key ?? (await this.load());
  }

  private load(): Promise<Buffer> {
    this.loading ??= this.loadOrCreate().then(
      (key) => (this.key = key),
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    );
    return this.loading;
  }

  /** The stored key, or a new one (ON CONFLICT: two replicas starting together keep one). */
  private async loadOrCreate(): Promise<Buffer> {
    const select = () =>
      this.tx.query<Array<{ key_enc: string }>>(`SELECT key_enc FROM server_keys WHERE id = $1`, [MAC_KEY_ID]);
    let [row] = await select();
    if (!row) {
      await this.tx.query(
        `INSERT INTO server_keys (id, key_enc, created_at) VALUES ($1, $2, now()) ON CONFLICT (id) DO NOTHING`,
        [MAC_KEY_ID, this.box.seal(randomBytes(32).toString('base64'))],
      );
      [row] = await select();
    }
    if (!row) throw new Error('the one-time-code MAC key could not be stored');
    return Buffer.from(this.box.open(row.key_enc), 'base64');
  }
}
