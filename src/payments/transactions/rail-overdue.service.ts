import { Injectable, OnModuleInit } from '@nestjs/common';
import { RealClock } from '../../common/clock.js';
import { formatId } from '../../common/ids.js';
import { AppConfig } from '../../config/app-config.js';
import { TransactionService } from '../../database/transaction.service.js';
import { MetricsService } from '../../metrics/metrics.service.js';
import { platformTimeSql } from '../../sandbox-clock/platform-time-sql.js';
import { PAYMENT_RAILS } from '../quotes/quote.dto.js';
import { RailAdapter } from '../rail/rail.js';

/** An outgoing rail transaction still PROCESSING past its rail's expected settlement time. */
export interface OverdueRailTransaction {
  transactionId: string;
  platformId: string;
  amount: { amount: number; currency: string };
  paymentRail: string | null;
  /** Where the money goes (the destination account). */
  destination: string | null;
  processingSince: string;
  /** Seconds since it became PROCESSING (on the platform's clock). */
  ageSeconds: number;
  /** Seconds past the rail's expected settlement time. */
  overdueSeconds: number;
}

interface Row {
  id: string;
  platform_id: string;
  sent_amount: string;
  sending_currency: string;
  payment_rail: string | null;
  destination_account_id: string | null;
  destination_kind: string;
  updated_at: Date | string;
  age_ms: string | number;
  overdue_ms: string | number;
}

/**
 * What the rail has not settled in time: outgoing transactions (not UMA payments, which the
 * settlement layer reconciles) still PROCESSING longer than their rail declares
 * (`RailAdapter.expectedSettlementMs` of their payment rail, counted from the provider's own
 * expected settlement when it gave one, else from when it reported PROCESSING), on the platform's
 * clock (`updated_at` and `expected_settlement_at` are set from it; compared with `platformTimeSql`). Listed for operators
 * (the console's Needs attention page, `settlements:list`) and counted by the gauge
 * `rail_transactions_overdue` at scrape time.
 */
@Injectable()
export class RailOverdue implements OnModuleInit {
  constructor(
    private readonly tx: TransactionService,
    private readonly rail: RailAdapter,
    private readonly config: AppConfig,
    private readonly realClock: RealClock,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    this.metrics.onCollect(async () => {
      this.metrics.railTransactionsOverdue.set((await this.list(null, 10_000)).length);
    });
  }

  /** The platform's overdue rail transactions (all platforms' with null), oldest first. */
  async list(platformId: string | null, limit = 100): Promise<OverdueRailTransaction[]> {
    const business = platformTimeSql(this.config.SANDBOX, 'o.platform_id', '$1');
    const rails = PAYMENT_RAILS as readonly string[];
    const expected = `CASE o.payment_rail ${rails.map((r, i) => `WHEN '${r}' THEN $${i + 4}::bigint`).join(' ')} ELSE $${rails.length + 4}::bigint END`;
    const from = 'COALESCE(o.expected_settlement_at, o.updated_at)';
    // One platform's: pinned to its shard; every platform's (the gauge): a tagged read across them.
    const tag = platformId === null ? '/* cross-shard: rail-overdue-gauge */ ' : '';
    const platform = platformId === null ? '$2::uuid IS NULL' : 'o.platform_id = $2';
    const rows = await this.tx.query<Row[]>(
      `${tag}SELECT o.id, o.platform_id, o.sent_amount, o.sending_currency, o.payment_rail, o.destination_account_id,
              o.destination_kind, o.updated_at,
              (extract(epoch FROM (${business} - o.updated_at)) * 1000)::bigint AS age_ms,
              (extract(epoch FROM (${business} - ${from})) * 1000)::bigint - (${expected}) AS overdue_ms
         FROM outgoing_transactions o
        WHERE o.status = 'PROCESSING' AND o.destination_kind <> 'UmaAddress'
          AND ${platform}
          AND ${from} <= ${business} - (${expected}) * interval '1 millisecond'
        ORDER BY o.updated_at, o.id LIMIT $3`,
      [
        this.realClock.now(),
        platformId,
        limit,
        ...rails.map((r) => this.rail.expectedSettlementMs(r)),
        this.rail.expectedSettlementMs(null),
      ],
    );
    return rows.map((r) => {
      const age = Number(r.age_ms);
      return {
        transactionId: formatId('Transaction', r.id),
        platformId: formatId('Platform', r.platform_id),
        amount: { amount: Number(r.sent_amount), currency: r.sending_currency },
        paymentRail: r.payment_rail,
        destination: r.destination_account_id ? formatId(r.destination_kind, r.destination_account_id) : null,
        processingSince: new Date(r.updated_at).toISOString(),
        ageSeconds: Math.floor(age / 1000),
        overdueSeconds: Math.max(0, Math.floor(Number(r.overdue_ms) / 1000)),
      };
    });
  }
}
