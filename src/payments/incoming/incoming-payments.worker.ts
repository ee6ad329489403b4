import { Injectable, Logger } from '@nestjs/common';
import { DUE_PLATFORMS, duePlatformIds, perDuePlatform, PollingWorker } from '../../common/polling-worker.js';
import { type BusinessTime, RealClock } from '../../common/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { Runtime } from '../../config/config.module.js';
import { TransactionService } from '../../database/transaction.service.js';
import { platformTimeSql } from '../../sandbox-clock/platform-time-sql.js';
import { IncomingTransactionEntity } from '../transactions/incoming-transaction.entity.js';
import { IncomingPaymentsService } from './incoming-payments.service.js';

/** How often the worker looks for incoming payments whose window closed or whose settlement is due. */
export const INCOMING_POLL_MS = 500;
const BATCH = 50;

/**
 * On worker processes (ROLE `worker` or `all`): fails incoming payments whose approval window
 * (`decide_by`) closed without a decision (PAYMENT_APPROVAL_TIMED_OUT) and completes the sandbox's
 * slow settlements (`settles_business_at`). Both are the platform's business time
 * (src/common/schedules.ts), set from its Clock and claimed here with `platformTimeSql` (real time
 * plus the platform's test-clock offset, in the statement), FOR UPDATE SKIP LOCKED: a row being
 * decided by approve/reject waits for nobody and is decided once.
 */
@Injectable()
export class IncomingPaymentsWorker extends PollingWorker {
  private readonly logger = new Logger('IncomingPaymentsWorker');

  constructor(
    private readonly tx: TransactionService,
    private readonly incoming: IncomingPaymentsService,
    private readonly realClock: RealClock,
    private readonly runtime: Runtime,
    private readonly config: AppConfig,
  ) {
    super({
      runtime,
      intervalMs: INCOMING_POLL_MS,
      logger: new Logger('IncomingPaymentsWorker'),
      failure: 'incoming payments run failed',
    });
  }

  /**
   * One pass over the due payments (up to a batch); answers how many it decided. `platformId`
   * limits it (tests). Which platforms have due payments is one unlocked read across platforms
   * (cross-shard: incoming-payments-due-platforms); each platform's are then claimed pinned to it.
   */
  async runOnce(options: { platformId?: string } = {}): Promise<number> {
    let decided = 0;
    const real = this.realClock.now();
    const due = () => {
      const business = platformTimeSql(this.config.SANDBOX, 't.platform_id', '$1');
      return duePlatformIds(
        this.tx.manager,
        `/* cross-shard: incoming-payments-due-platforms */
         SELECT t.platform_id FROM incoming_transactions t
         WHERE (t.status = 'PENDING' AND t.decide_by <= ${business})
            OR (t.status = 'PROCESSING' AND t.settles_business_at <= ${business})
         GROUP BY t.platform_id ORDER BY min(t.created_at), t.platform_id LIMIT ${DUE_PLATFORMS}`,
        [real],
      );
    };
    await perDuePlatform(options.platformId, due, BATCH, (platformId, limit) =>
      this.tx.run(async (m) => {
        const business = platformTimeSql(this.config.SANDBOX, ':platformId', ':real');
        const { entities, raw } = await m
          .createQueryBuilder(IncomingTransactionEntity, 't')
          .addSelect(business, 'business_now')
          .setLock('pessimistic_write')
          .setOnLocked('skip_locked')
          .where('t.platform_id = :platformId', { platformId })
          .andWhere(
            `((t.status = 'PENDING' AND t.decide_by <= ${business})
              OR (t.status = 'PROCESSING' AND t.settles_business_at <= ${business}))`,
            { real },
          )
          .orderBy('t.id')
          .limit(limit)
          .getRawAndEntities<{ business_now: Date | string }>();
        for (const [i, row] of entities.entries()) {
          const now = new Date(raw[i].business_now) as BusinessTime;
          // One payment's failure (e.g. a sender's settlement hook throwing) undoes only its own step.
          await m.query('SAVEPOINT incoming_payment');
          try {
            if (await this.incoming.runDue(m, row, now)) decided += 1;
            await m.query('RELEASE SAVEPOINT incoming_payment');
          } catch (error) {
            await m.query('ROLLBACK TO SAVEPOINT incoming_payment');
            this.logger.error({ err: error, transaction: `Transaction:${row.id}` }, 'incoming payment step failed');
          }
        }
        return entities.length;
      }),
    );
    return decided;
  }
}
