import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { TransactionService } from '../database/transaction.service.js';
import { SealedColumns } from '../secrets/sealed-columns.js';
import { SecretBox } from '../secrets/secret-box.js';
import { US_TAX_ID_PATTERN } from './customer.dto.js';

/** Rows written before identifiers were sealed hold the number itself (`###-##-####`). */
const LEGACY_PLAINTEXT = `identifier ~ '^[0-9]{3}-[0-9]{2}-[0-9]{4}$'`;
const RESEAL_BATCH = 500;

/**
 * A customer's SSN / ITIN (`identifier`, write-only) at rest: sealed by `SecretBox` (src/secrets/,
 * as webhook secrets and idempotent replays),
 * opened only to check rules across fields on an update; never returned. Rows stored in plain
 * text by an earlier version are sealed when the application starts (every replica tries; each
 * row is rewritten only while it still holds the plain number), and read as they are until then.
 */
@Injectable()
export class IdentifierSeal implements OnApplicationBootstrap {
  private readonly logger = new Logger(IdentifierSeal.name);

  constructor(
    private readonly box: SecretBox,
    private readonly tx: TransactionService,
    sealed: SealedColumns,
  ) {
    sealed.register({
      name: 'customers.identifier',
      table: 'customers',
      keys: ['platform_id', 'id'],
      value: 'identifier',
      assign: (param) => `identifier = ${param}`,
      where: `NOT (${LEGACY_PLAINTEXT})`,
    });
  }

  seal(identifier: string | null): string | null {
    return identifier === null ? null : this.box.seal(identifier);
  }

  open(stored: string | null): string | null {
    if (stored === null) return null;
    return US_TAX_ID_PATTERN.test(stored) ? stored : this.box.open(stored);
  }

  /** Never stops the start: until a later start seals them, plain rows are read as they are. */
  async onApplicationBootstrap(): Promise<void> {
    await this.resealLegacy().catch((err: unknown) =>
      this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'identifiers not resealed'),
    );
  }

  private async resealLegacy(): Promise<void> {
    let sealed = 0;
    for (;;) {
      // Every platform's rows (unlocked); each is then rewritten on its own platform's shard.
      const rows = await this.tx.manager.query<Array<{ id: string; platform_id: string; identifier: string }>>(
        `SELECT /* cross-shard: customers-legacy-identifiers */ id, platform_id, identifier FROM customers
          WHERE ${LEGACY_PLAINTEXT} LIMIT ${RESEAL_BATCH}`,
      );
      for (const row of rows) {
        await this.tx.manager.query(
          'UPDATE customers SET identifier = $2 WHERE id = $1 AND platform_id = $4 AND identifier = $3',
          [row.id, this.seal(row.identifier), row.identifier, row.platform_id],
        );
      }
      sealed += rows.length;
      if (rows.length < RESEAL_BATCH) break;
    }
    if (sealed) this.logger.log({ sealed }, 'sealed identifiers stored in plain text by an earlier version');
  }
}
