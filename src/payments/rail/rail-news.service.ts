import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type BusinessTime, later, RealClock } from '../../common/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { hydrate } from '../../database/statement.js';
import { platformTimeSql } from '../../sandbox-clock/platform-time-sql.js';
import { QuoteExecutionService } from '../quotes/quote-execution.service.js';
import { OutgoingTransactionEntity } from '../transactions/outgoing-transaction.entity.js';
import { RAIL_STATUS_RANK, RailAdapter, type RailNews, type RailStatus } from './rail.js';
import { railUuid } from './rail-ids.js';

/** The steps from a transaction's status up to a piece of news (status order; FAILED is terminal). */
function stepsTo(current: string, target: RailStatus): RailStatus[] {
  switch (target) {
    case 'PROCESSING':
      return current === 'PENDING' ? ['PROCESSING'] : [];
    case 'COMPLETED':
      if (current === 'PENDING') return ['PROCESSING', 'COMPLETED'];
      return current === 'PROCESSING' ? ['COMPLETED'] : [];
    case 'FAILED':
      return current === 'PENDING' || current === 'PROCESSING' ? ['FAILED'] : [];
    case 'RETURNED':
      if (current === 'PENDING') return ['PROCESSING', 'COMPLETED', 'RETURNED'];
      if (current === 'PROCESSING') return ['COMPLETED', 'RETURNED'];
      return current === 'COMPLETED' ? ['RETURNED'] : [];
  }
}

/**
 * The one path a payout rail's news takes into this service, whatever brought it (a verified
 * webhook, `send`'s answer, the reconciliation poll, the sandbox's own schedule), in the caller's
 * transaction: each piece is recorded in `rail_events` with INSERT ... ON CONFLICT DO NOTHING on
 * (provider, event_id) (a redelivered or replayed event changes nothing), under a lock on its
 * transaction (FOR UPDATE), and applied in status order (PENDING < PROCESSING < COMPLETED <
 * RETURNED; FAILED terminal): a COMPLETED arriving before its PROCESSING takes both steps once, a
 * late PROCESSING is recorded and changes nothing. FAILED and RETURNED refund the source through
 * QuoteExecutionService (ACCOUNT_CANNOT_RECEIVE, PAYOUT_RETURNED). News for a payment this
 * service does not know (another system's on the same provider account) is ignored, unrecorded.
 */
@Injectable()
export class RailNewsApplier {
  private readonly logger = new Logger('RailNewsApplier');

  constructor(
    private readonly payments: QuoteExecutionService,
    private readonly rail: RailAdapter,
    private readonly realClock: RealClock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Applies news in `m`'s transaction; answers how many status steps it took. Each step is dated
   * on the platform's business time (its Clock, read with `platformTimeSql` as a worker reads it),
   * and so is the next reconciliation poll (`rail_settles_business_at`).
   */
  async apply(m: EntityManager, news: RailNews[]): Promise<number> {
    const ordered = [...news].sort(
      (a, b) =>
        RAIL_STATUS_RANK[a.status] - RAIL_STATUS_RANK[b.status] || a.occurredAt.getTime() - b.occurredAt.getTime(),
    );
    let steps = 0;
    for (const piece of ordered) steps += await this.applyOne(m, piece);
    return steps;
  }

  private async applyOne(m: EntityManager, news: RailNews): Promise<number> {
    const locked = await this.lock(m, news);
    if (!locked) {
      this.logger.warn({ provider: news.provider, providerRef: news.providerRef }, 'rail news for no payment of ours');
      return 0;
    }
    let { row } = locked;
    const { now } = locked;
    const fresh: Array<{ provider: string }> = await m.query(
      `INSERT INTO rail_events (provider, event_id, transaction_id, provider_ref, status, failure_reason, occurred_at, received_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (provider, event_id) DO NOTHING RETURNING provider`,
      [
        news.provider,
        news.eventId,
        row.id,
        news.providerRef,
        news.status,
        news.failureReason ?? null,
        news.occurredAt,
        this.realClock.now(),
      ],
    );
    if (fresh.length === 0) return 0; // seen before: a redelivery or a replay
    if (row.railProviderRef === null) {
      // The news came before the hand-off's answer was recorded (a crash in between, or a fast provider).
      row.railProvider = news.provider;
      row.railProviderRef = news.providerRef;
      row.railDueRealAt = null;
      await m.update(
        OutgoingTransactionEntity,
        { id: row.id, platformId: row.platformId },
        { railProvider: news.provider, railProviderRef: news.providerRef, railDueRealAt: null },
      );
    }
    const pollAt = later<BusinessTime>(
      (news.expectedSettlementAt ?? now) as BusinessTime,
      this.rail.expectedSettlementMs(row.paymentRail),
    );
    let steps = 0;
    for (const status of stepsTo(row.status, news.status)) {
      const before = row.status;
      row = await this.payments.railUpdate(m, row, status, now, {
        reason: news.failureReason,
        expectedSettlementAt: news.expectedSettlementAt,
        pollAt,
      });
      if (row.status !== before) steps += 1;
    }
    return steps;
  }

  /**
   * The news's transaction locked FOR UPDATE, with its platform's business time: by our id when
   * the provider echoes it, else by the provider's payment id. Null when it is not a payout of
   * ours on this provider.
   */
  private async lock(
    m: EntityManager,
    news: RailNews,
  ): Promise<{ row: OutgoingTransactionEntity; now: BusinessTime } | null> {
    const id = railUuid(news.transactionId);
    const platformId = news.platformId ?? (await this.platformOf(m, news, id));
    if (platformId === null) return null;
    const business = platformTimeSql(this.config.SANDBOX, '$2::uuid', '$1');
    const where = id ? 't.id = $3' : 't.rail_provider = $4 AND t.rail_provider_ref = $3';
    const rows: Array<{ row: Record<string, unknown>; now: Date | string }> = await m.query(
      `SELECT to_jsonb(t) AS row, ${business} AS now FROM outgoing_transactions t
        WHERE t.platform_id = $2 AND ${where} FOR UPDATE OF t`,
      id ? [this.realClock.now(), platformId, id] : [this.realClock.now(), platformId, news.providerRef, news.provider],
    );
    if (rows.length === 0) return null;
    const row = hydrate(m, OutgoingTransactionEntity, rows[0].row);
    if (row.destinationKind !== 'ExternalAccount') return null;
    if (row.railProvider !== null && row.railProvider !== news.provider) return null;
    if (row.railProviderRef !== null && row.railProviderRef !== news.providerRef) return null;
    return { row, now: new Date(rows[0].now) as BusinessTime };
  }

  /**
   * The platform of the news's transaction when the news does not say (a provider's webhook carries
   * only our transaction id or its own payment id): one unlocked read across platforms, before the
   * transaction is locked on its own platform's shard. Null when it is no payout of ours.
   */
  private async platformOf(m: EntityManager, news: RailNews, id: string | null): Promise<string | null> {
    const rows: Array<{ platform_id: string }> = id
      ? await m.query(
          '/* cross-shard: rail-news-platform */ SELECT platform_id FROM outgoing_transactions WHERE id = $1',
          [id],
        )
      : await m.query(
          `/* cross-shard: rail-news-platform */ SELECT platform_id FROM outgoing_transactions
            WHERE rail_provider = $2 AND rail_provider_ref = $1`,
          [news.providerRef, news.provider],
        );
    return rows[0]?.platform_id ?? null;
  }
}
