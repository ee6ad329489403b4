import { Injectable, Logger } from '@nestjs/common';
import { RealClock } from '../common/clock.js';
import { PollingWorker } from '../common/polling-worker.js';
import { AppConfig } from '../config/app-config.js';
import { Runtime } from '../config/config.module.js';
import { TransactionService } from '../database/transaction.service.js';
import { platformTimeSql } from '../sandbox-clock/platform-time-sql.js';
import { ExternalAccountEntity } from './external-account.entity.js';
import { ExternalAccountsService } from './external-accounts.service.js';

/** How often the worker looks for US bank accounts whose return window closed. */
export const BANK_VALIDATION_POLL_MS = 1000;
const BATCH = 50;

/**
 * Ends US bank account validation on worker processes (ROLE `worker` or `all`): claims, FOR UPDATE
 * SKIP LOCKED, the PENDING accounts whose micro-entry return window closed
 * (`bank_validation_due_at`, set from the platform's Clock and compared here with
 * `platformTimeSql`: real time plus the platform's test-clock offset) and moves each to ACTIVE or,
 * returned, INACTIVE (ExternalAccountsService.completeBankValidation), with its webhook.
 */
@Injectable()
export class BankValidationWorker extends PollingWorker {
  constructor(
    private readonly tx: TransactionService,
    private readonly accounts: ExternalAccountsService,
    private readonly realClock: RealClock,
    runtime: Runtime,
    private readonly config: AppConfig,
  ) {
    super({
      runtime,
      intervalMs: BANK_VALIDATION_POLL_MS,
      logger: new Logger('BankValidationWorker'),
      failure: 'bank validation run failed',
    });
  }

  /** One pass (up to a batch); answers how many validations ended. `platformId` limits it (tests). */
  async runOnce(options: { platformId?: string } = {}): Promise<number> {
    return this.tx.run(async (m) => {
      const real = this.realClock.now();
      const business = platformTimeSql(this.config.SANDBOX, 'a.platform_id', ':real');
      const { entities, raw } = await m
        .createQueryBuilder(ExternalAccountEntity, 'a')
        .addSelect(business, 'business_now')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where(
          `a.status = 'PENDING' AND a.deleted_at IS NULL AND a.bank_validation_due_at IS NOT NULL AND a.bank_validation_due_at <= ${business}`,
          {
            real,
          },
        )
        .andWhere(options.platformId ? 'a.platform_id = :platformId' : 'true', { platformId: options.platformId })
        .orderBy('a.bank_validation_due_at')
        .limit(BATCH)
        .getRawAndEntities<{ business_now: Date | string }>();
      for (const [i, row] of entities.entries()) {
        await this.accounts.completeBankValidation(m, row, new Date(raw[i].business_now));
      }
      return entities.length;
    });
  }
}
