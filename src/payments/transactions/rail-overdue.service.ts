import { Injectable, OnModuleInit } from '@nestjs/common';
import { RealClock } from '../../common/clock.js';
import { formatId } from '../../common/ids.js';
import { AppConfig } from '../../config/app-config.js';
import { TransactionService } from '../../database/transaction.service.js';
import { MetricsService } from '../../metrics/metrics.service.js';
import { platformTimeSql } from '../../sandbox-clock/platform-time-sql.js';
import type { RailOutcome } from './outgoing-transaction.entity.js';
import { Rail } from '../rail/rail.js';

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
  expected_ms: string | number;
}

const OUTCOMES: readonly RailOutcome[] = ['COMPLETE', 'SLOW', 'FAIL', 'RETURN'];

/**
 * What the rail has not settled in time: outgoing transactions (not UMA payments, which the
 * settlement layer reconciles) still PROCESSING longer than their rail declares
 * (`Rail.expectedSettlementMs`), counted on the platform's clock (`updated_at` is set from it when
 * the rail reports PROCESSING; a worker compares with `platformTimeSql`). Listed for operators
 * (the console's Needs attention page, `settlements:list`) and counted by the gauge
 * `rail_transactions_overdue` at scrape time.
 */
@Injectable()
export class RailOverdue implements OnModuleInit {
  constructor(
    private readonly tx: TransactionService,
    private readonly rail: Rail,
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
    const expected = `CASE o.rail_outcome ${OUTCOMES.map((o, i) => `WHEN '${o}' THEN $${i + 4}::bigint`).join(' ')} ELSE $${OUTCOMES.length + 4}::bigint END`;
    const rows = await this.tx.query<Row[]>(
      `SELECT o.id, o.platform_id, o.sent_amount, o.sending_currency, o.payment_rail, o.destination_account_id,
              o.destination_kind, o.updated_at,
              (extract(epoch FROM (${business} - o.updated_at)) * 1000)::bigint AS age_ms,
              ${expected} AS expected_ms
         FROM outgoing_transactions o
        WHERE o.status = 'PROCESSING' AND o.destination_kind <> 'UmaAddress'
          AND ($2::uuid IS NULL OR o.platform_id = $2)
          AND o.updated_at <= ${business} - (${expected}) * interval '1 millisecond'
        ORDER BY o.updated_at, o.id LIMIT $3`,
      [
        this.realClock.now(),
        platformId,
        limit,
        ...OUTCOMES.map((o) => this.rail.expectedSettlementMs(o)),
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
        overdueSeconds: Math.max(0, Math.floor((age - Number(r.expected_ms)) / 1000)),
      };
    });
  }
}
