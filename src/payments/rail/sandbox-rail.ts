import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { later, RealClock } from '../../common/clock.js';
import { newUuid } from '../../common/ids.js';
import { AppConfig } from '../../config/app-config.js';
import { TransactionService } from '../../database/transaction.service.js';
import { platformTimeSql } from '../../sandbox-clock/platform-time-sql.js';
import { RailAdapter, type RailNews, type RailPayment, type RailStatus, RailWebhookRejected } from './rail.js';
import { type SandboxRailOutcome, SandboxRailPaymentEntity } from './sandbox-rail-payment.entity.js';
import { railUuid } from './rail-ids.js';
import { hydrate } from '../../database/statement.js';

/** Real-time seconds between a sandbox payment's steps (PROCESSING -> final; COMPLETED -> RETURNED). */
export const SANDBOX_RAIL_STEP_MS = 1000;
/** Business days a slow sandbox rail takes to settle (on the platform's clock). */
export const SANDBOX_SLOW_RAIL_DAYS = 3;
/** Beyond the rail's own steps, how long before a PROCESSING payment counts as overdue. */
export const SANDBOX_RAIL_GRACE_MS = 10 * 60_000;
const BATCH = 50;

/**
 * The sandbox's magic values (docs/payments.md): the last three digits of the quote's sending
 * amount in minor units pick the outcome, as the card simulator's descriptor suffixes do.
 * `...002` fails after PROCESSING (the source is refunded exactly), `...003` completes and is then
 * returned (refunded), `...004` is a slow rail that settles SANDBOX_SLOW_RAIL_DAYS later on the
 * platform's clock (a test clock reaches it); anything else completes within seconds.
 */
export function sandboxOutcome(sendingAmount: bigint): SandboxRailOutcome {
  switch (Number(sendingAmount % 1000n)) {
    case 2:
      return 'FAIL';
    case 3:
      return 'RETURN';
    case 4:
      return 'SLOW';
    default:
      return 'COMPLETE';
  }
}

/**
 * The sandbox payout rail (PAYOUT_RAIL=sandbox; never bound with SANDBOX=false): one adapter of
 * the rail port, playing the provider. `send` accepts the payment (its own record in
 * `sandbox_rail_payments`, idempotent on our transaction id) and answers PROCESSING; its later
 * news (COMPLETED a second later, FAILED for ...002, COMPLETED then RETURNED for ...003, COMPLETED
 * SANDBOX_SLOW_RAIL_DAYS later on the platform's clock for ...004) is taken by the RailWorker
 * (`takeDue`) and applied through the same RailNewsApplier as a provider's verified webhooks.
 */
@Injectable()
export class SandboxRailAdapter extends RailAdapter {
  readonly name = 'sandbox';

  constructor(
    private readonly tx: TransactionService,
    private readonly realClock: RealClock,
    private readonly config: AppConfig,
  ) {
    super();
  }

  /** A payment settles within seconds (a slow one says when it expects to); then some grace. */
  expectedSettlementMs(_paymentRail: string | null): number {
    return SANDBOX_RAIL_STEP_MS + SANDBOX_RAIL_GRACE_MS;
  }

  async send(payment: RailPayment): Promise<{ providerRef: string; news: RailNews[] }> {
    const outcome = sandboxOutcome(payment.sendingAmount);
    const transactionId = railUuid(payment.transactionId)!;
    const platformId = railUuid(payment.platformId)!;
    const real = this.realClock.now();
    const slow = outcome === 'SLOW';
    // A slow payment settles on the platform's business time (its Clock: platformTimeSql).
    const business = platformTimeSql(this.config.SANDBOX, '$3', '$8');
    const row = await this.tx.runDetached(async (m) => {
      await m.query(
        `INSERT INTO sandbox_rail_payments
           (id, transaction_id, platform_id, outcome, reported, next_status, due_real_at, settles_business_at, created_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7,
                 CASE WHEN $4 = 'SLOW' THEN ${business} + interval '${SANDBOX_SLOW_RAIL_DAYS} days' END, $8)
         ON CONFLICT (platform_id, transaction_id) DO NOTHING`,
        [
          newUuid(),
          transactionId,
          platformId,
          outcome,
          JSON.stringify([{ status: 'PROCESSING', at: real.toISOString() }]),
          outcome === 'FAIL' ? 'FAILED' : 'COMPLETED',
          slow ? null : later(real, SANDBOX_RAIL_STEP_MS),
          real,
        ],
      );
      return m.findOneByOrFail(SandboxRailPaymentEntity, { transactionId, platformId });
    });
    return { providerRef: row.id, news: this.reportedNews(row) };
  }

  async fetch(providerRef: string, _transactionId?: string, platformId?: string): Promise<RailNews[]> {
    const row = await this.tx.runDetached(async (m) => {
      if (platformId) return m.findOneBy(SandboxRailPaymentEntity, { id: providerRef, platformId });
      // Asked without the platform (only the worker's poll asks, with it): one read across platforms.
      const [found] = await m.query<Array<{ row: Record<string, unknown> }>>(
        '/* cross-shard: sandbox-rail-fetch */ SELECT to_jsonb(s) AS row FROM sandbox_rail_payments s WHERE s.id = $1',
        [providerRef],
      );
      return found ? hydrate(m, SandboxRailPaymentEntity, found.row) : null;
    });
    return row ? this.reportedNews(row) : [];
  }

  /** The sandbox reports its news itself (`takeDue`): it takes no webhooks. */
  parseWebhook(): RailNews[] {
    throw new RailWebhookRejected('The sandbox rail delivers its news itself; it takes no webhooks');
  }

  /**
   * The platforms with sandbox news due (up to `limit`): an unlocked read across platforms
   * (cross-shard: sandbox-rail-due-platforms), for the RailWorker to take each one's with `takeDue`.
   */
  async duePlatforms(m: EntityManager, limit: number): Promise<string[]> {
    const business = platformTimeSql(this.config.SANDBOX, 's.platform_id', '$1');
    const rows = await m.query<Array<{ platform_id: string }>>(
      `/* cross-shard: sandbox-rail-due-platforms */
       SELECT s.platform_id FROM sandbox_rail_payments s
       WHERE s.next_status IS NOT NULL AND (s.due_real_at <= $1 OR s.settles_business_at <= ${business})
       GROUP BY s.platform_id ORDER BY min(s.created_at), s.platform_id LIMIT ${Math.max(1, Math.floor(limit))}`,
      [this.realClock.now()],
    );
    return rows.map((r) => r.platform_id);
  }

  /**
   * The sandbox's news now due for one platform (up to `limit` payments), in the caller's
   * transaction (the RailWorker applies it there): claims its due payments, pinned to the platform,
   * with FOR UPDATE SKIP LOCKED (a fast step on real time, a slow settlement on the platform's
   * business time with `platformTimeSql`), reports each one's next status and schedules the one
   * after (a return a second after completion). Answers the news and how many payments it took.
   */
  async takeDue(m: EntityManager, platformId: string, limit = BATCH): Promise<{ news: RailNews[]; taken: number }> {
    const real = this.realClock.now();
    const business = platformTimeSql(this.config.SANDBOX, ':platformId', ':real');
    const due = await m
      .createQueryBuilder(SandboxRailPaymentEntity, 's')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where('s.platform_id = :platformId', { platformId })
      .andWhere(`s.next_status IS NOT NULL AND (s.due_real_at <= :real OR s.settles_business_at <= ${business})`, {
        real,
      })
      .orderBy('s.id')
      .limit(limit)
      .getMany();
    const news: RailNews[] = [];
    for (const row of due) {
      const status = row.nextStatus!;
      row.reported = [...row.reported, { status, at: real.toISOString() }];
      const returns = status === 'COMPLETED' && row.outcome === 'RETURN';
      row.nextStatus = returns ? 'RETURNED' : null;
      row.dueRealAt = returns ? later(real, SANDBOX_RAIL_STEP_MS) : null;
      row.settlesBusinessAt = null;
      await m.update(
        SandboxRailPaymentEntity,
        { id: row.id, platformId: row.platformId },
        {
          reported: row.reported,
          nextStatus: row.nextStatus,
          dueRealAt: row.dueRealAt,
          settlesBusinessAt: row.settlesBusinessAt,
        },
      );
      news.push({ ...this.newsOf(row, status, real), platformId: row.platformId });
    }
    return { news, taken: due.length };
  }

  private reportedNews(row: SandboxRailPaymentEntity): RailNews[] {
    return row.reported.map((r) => this.newsOf(row, r.status, new Date(r.at)));
  }

  private newsOf(row: SandboxRailPaymentEntity, status: RailStatus, at: Date): RailNews {
    return {
      provider: this.name,
      eventId: `${row.id}:${status}`,
      providerRef: row.id,
      transactionId: row.transactionId,
      platformId: row.platformId,
      status,
      occurredAt: at,
      ...(status === 'FAILED' ? { failureReason: 'sandbox: ...002 cannot receive' } : {}),
      ...(status === 'RETURNED' ? { failureReason: 'sandbox: ...003 returned' } : {}),
      ...(status === 'PROCESSING' && row.settlesBusinessAt ? { expectedSettlementAt: row.settlesBusinessAt } : {}),
    };
  }
}
