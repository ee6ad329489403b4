import { Injectable, Logger } from '@nestjs/common';
import { RealClock } from '../common/clock.js';
import { DUE_PLATFORMS, duePlatformIds, perDuePlatform, PollingWorker } from '../common/polling-worker.js';
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

  /**
   * One pass (up to a batch); answers how many validations ended. `platformId` limits it (tests).
   * Which platforms have due accounts is one unlocked read across platforms (cross-shard:
   * bank-validation-due-platforms); each platform's are then claimed pinned to it.
   */
  async runOnce(options: { platformId?: string } = {}): Promise<number> {
    let ended = 0;
    const real = this.realClock.now();
    const due = () => {
      const business = platformTimeSql(this.config.SANDBOX, 'a.platform_id', '$1');
      return duePlatformIds(
        this.tx.manager,
        `/* cross-shard: bank-validation-due-platforms */
         SELECT a.platform_id FROM external_accounts a
         WHERE a.status = 'PENDING' AND a.deleted_at IS NULL AND a.bank_validation_due_at IS NOT NULL
           AND a.bank_validation_due_at <= ${business}
         GROUP BY a.platform_id ORDER BY min(a.bank_validation_due_at), a.platform_id LIMIT ${DUE_PLATFORMS}`,
        [real],
      );
    };
    await perDuePlatform(options.platformId, due, BATCH, (platformId, limit) =>
      this.tx.run(async (m) => {
        const business = platformTimeSql(this.config.SANDBOX, ':platformId', ':real');
        const { entities, raw } = await m
          .createQueryBuilder(ExternalAccountEntity, 'a')
          .addSelect(business, 'business_now')
          .setLock('pessimistic_write')
          .setOnLocked('skip_locked')
          .where('a.platform_id = :platformId', { platformId })
          .andWhere(
            `a.status = 'PENDING' AND a.deleted_at IS NULL AND a.bank_validation_due_at IS NOT NULL AND a.bank_validation_due_at <= ${business}`,
            { real },
          )
          .orderBy('a.bank_validation_due_at')
          .limit(limit)
          .getRawAndEntities<{ business_now: Date | string }>();
        for (const [i, row] of entities.entries()) {
          await this.accounts.completeBankValidation(m, row, new Date(raw[i].business_now));
        }
        ended += entities.length;
        return entities.length;
      }),
    );
    return ended;
  }
}
