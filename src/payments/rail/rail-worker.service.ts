import { Injectable, Logger } from '@nestjs/common';
import { PollingWorker } from '../../common/polling-worker.js';
import { type BusinessTime, RealClock } from '../../common/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { Runtime } from '../../config/config.module.js';
import { TransactionService } from '../../database/transaction.service.js';
import { platformTimeSql } from '../../sandbox-clock/platform-time-sql.js';
import { OutgoingTransactionEntity } from '../transactions/outgoing-transaction.entity.js';
import { QuoteEntity } from '../quotes/quote.entity.js';
import { QuoteExecutionService } from '../quotes/quote-execution.service.js';
import { Rail } from './rail.js';

/** How often the worker looks for payments whose next rail step is due. */
export const RAIL_POLL_MS = 500;
const BATCH = 50;

/**
 * Drives the rail's lifecycle on worker processes (ROLE `worker` or `all`): claims outgoing
 * payments whose next step is due with FOR UPDATE SKIP LOCKED (any number of workers share the
 * work, none takes a step twice) and applies the rail's status through QuoteExecutionService.railUpdate.
 * Two kinds of due time (src/common/schedules.ts): `rail_due_real_at` is infrastructure time
 * (RealClock: a plain sandbox payment completes within seconds), `rail_settles_business_at` is the
 * platform's business time (set from its Clock; claimed with `platformTimeSql`, real time plus the
 * platform's test-clock offset read from `sandbox_clocks` in the same statement, so a worker process
 * that holds no offsets claims it too, and only the rows that are due are locked: a slow payment
 * not yet due is never claimed, so it cannot crowd due ones out of the batch).
 */
@Injectable()
export class RailWorker extends PollingWorker {
  private readonly logger = new Logger('RailWorker');

  constructor(
    private readonly tx: TransactionService,
    private readonly payments: QuoteExecutionService,
    private readonly rail: Rail,
    private readonly realClock: RealClock,
    private readonly runtime: Runtime,
    private readonly config: AppConfig,
  ) {
    super({ runtime, intervalMs: RAIL_POLL_MS, logger: new Logger('RailWorker'), failure: 'rail run failed' });
  }

  /**
   * One pass: takes the next step of every due payment (up to a batch) in one transaction; answers
   * how many steps it took. `platformId` limits it to one platform (tests drive it this way).
   */
  async runOnce(options: { platformId?: string } = {}): Promise<number> {
    return (await this.railSteps(options)) + (await this.expireAwaiting(options));
  }

  /**
   * Transactions left PENDING_AUTHORIZATION (an execution asked for before the quote's SCA
   * authorization) whose quote expired on the platform's clock (`quotes.expires_at`, business time,
   * claimed with `platformTimeSql`): EXPIRED with their event (QuoteExecutionService.expireAwaiting).
   */
  private async expireAwaiting(options: { platformId?: string }): Promise<number> {
    return this.tx.run(async (m) => {
      // The quote is locked first, as execute and authorize lock it before its transaction.
      const business = platformTimeSql(this.config.SANDBOX, 'q.platform_id', ':real');
      const due = await m
        .createQueryBuilder(QuoteEntity, 'q')
        .select('q.transaction_id', 'transaction_id')
        .addSelect(`${business}`, 'business_now')
        .innerJoin(OutgoingTransactionEntity, 't', 't.id = q.transaction_id')
        .setLock('pessimistic_write', undefined, ['q'])
        .setOnLocked('skip_locked')
        .where(`t.status = 'PENDING_AUTHORIZATION' AND q.expires_at <= ${business}`, { real: this.realClock.now() })
        .andWhere(options.platformId ? 'q.platform_id = :platformId' : 'true', { platformId: options.platformId })
        .orderBy('q.id')
        .limit(BATCH)
        .getRawMany<{ transaction_id: string; business_now: Date | string }>();
      let expired = 0;
      for (const { transaction_id: id, business_now: now } of due) {
        const row = await m.findOne(OutgoingTransactionEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
        if (row && (await this.payments.expireAwaiting(m, row, asBusinessTime(now)))) expired += 1;
      }
      return expired;
    });
  }

  private async railSteps(options: { platformId?: string }): Promise<number> {
    return this.tx.run(async (m) => {
      const business = platformTimeSql(this.config.SANDBOX, 't.platform_id', ':real');
      const { entities, raw } = await m
        .createQueryBuilder(OutgoingTransactionEntity, 't')
        .addSelect(`${business}`, 'business_now')
        .addSelect(`(t.rail_settles_business_at IS NOT NULL AND t.rail_settles_business_at <= ${business})`, 'settled')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where(
          `(t.rail_due_real_at <= :real OR (t.status = 'PROCESSING' AND t.rail_settles_business_at <= ${business}))`,
          { real: this.realClock.now() },
        )
        .andWhere(options.platformId ? 't.platform_id = :platformId' : 'true', { platformId: options.platformId })
        .orderBy('t.id')
        .limit(BATCH)
        .getRawAndEntities<{ t_id: string; business_now: Date | string; settled: boolean }>();
      let steps = 0;
      for (const [i, row] of entities.entries()) {
        const now = asBusinessTime(raw[i].business_now);
        const settled = raw[i].settled;
        const realDue = row.railDueRealAt !== null && row.railDueRealAt <= this.realClock.now();
        if (!realDue && !settled) continue;
        const next = this.rail.nextStatus(row.status, row.railOutcome ?? 'COMPLETE', settled);
        if (next === null) {
          row.railDueRealAt = null;
          await m.update(OutgoingTransactionEntity, { id: row.id }, { railDueRealAt: null });
          continue;
        }
        await this.payments.railUpdate(m, row, next, now);
        steps += 1;
      }
      return steps;
    });
  }
}

/** The platform's time as the statement computed it (`platformTimeSql`): business time. */
function asBusinessTime(value: Date | string): BusinessTime {
  return new Date(value) as BusinessTime;
}
