import { Injectable, OnModuleInit } from '@nestjs/common';
import { later, RealClock } from '../common/clock.js';
import { formatId, parseId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { CounterpartyHttp } from './counterparty-http.js';
import { UmaKeysService } from './uma-keys.service.js';
import {
  INQUIRY_OUTCOMES,
  SETTLEMENT_PATH,
  UmaSettlementService,
  type InquiryMessage,
  type InquiryOutcome,
  type StatusMessage,
} from './uma-settlement.service.js';

/** One unresolved UMA payment, as the Needs attention page and the CLI show it. */
export interface UnresolvedSettlement {
  transactionId: string;
  platformId: string;
  /** The sender's side: what left the customer's account. */
  sentAmount: { amount: number; currency: string };
  /** What the receiver was asked to credit. */
  receivingAmount: { amount: number; currency: string };
  counterparty: { umaAddress: string; domain: string };
  settlingSince: string;
  ageSeconds: number;
  /** Past UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS: counted by uma_settlement_unresolved. */
  overdue: boolean;
  inquiryAttempts: number;
  nextInquiryAt: string | null;
  /** The last inquiry's error or answer, else the last delivery error of its callbacks. */
  lastError: string | null;
}

interface UnresolvedRow {
  transaction_id: string;
  platform_id: string;
  sent_amount: string;
  sending_currency: string;
  receiving_amount: string;
  receiving_currency: string;
  receiver_uma_address: string;
  receiver_domain: string;
  settling_since: Date | string;
  inquiry_attempts: number;
  inquiry_due_at: Date | string | null;
  last_error: string | null;
  callback_error: string | null;
}

export type OperatorResolution = 'REFUND' | 'COMPLETE';

/** What a sender's inquiry learned, and what it did with it. */
export type InquiryResult = { outcome: InquiryOutcome; tombstoned: boolean; resolved: 'COMPLETED' | 'FAILED' | null };

/** Between two inquiries of one payment: 15 s, 30 s, 60 s ... at most 5 minutes. */
export function inquiryBackoffMs(attempts: number): number {
  return Math.min(300_000, 15_000 * 2 ** Math.min(20, Math.max(0, attempts - 1)));
}

/**
 * Reconciliation of UMA payments between deployments (docs/uma.md, "Reconciliation"). The sender
 * asks the receiver what became of a payment still unresolved after
 * UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS (a signed INQUIRY, answered by a signed STATUS, both through
 * @uma-sdk/core as the callbacks are) and resolves it exactly once from the answer: CREDITED
 * completes it, REFUSED (or a tombstone for it) refunds it; PENDING and UNKNOWN wait for the next
 * inquiry, until the retry horizon makes the inquiry final (the receiver then tombstones what it
 * never received, and the sender refunds). Operators list what is unresolved, ask again at once
 * ("retry now") or resolve it themselves (refund or complete, with a reason). The gauges
 * `uma_settlement_unresolved` and `uma_settlement_oldest_unresolved_seconds` are read at scrape time.
 */
@Injectable()
export class UmaReconciliationService implements OnModuleInit {
  constructor(
    private readonly tx: TransactionService,
    private readonly http: CounterpartyHttp,
    private readonly keys: UmaKeysService,
    private readonly settlement: UmaSettlementService,
    private readonly realClock: RealClock,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    this.metrics.onCollect(() => this.collect());
  }

  private get inquiryAfterMs(): number {
    return this.config.UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS * 1000;
  }

  private get horizonMs(): number {
    return this.config.UMA_SETTLEMENT_RETRY_HORIZON_SECONDS * 1000;
  }

  /** Is the inquiry of a payment settling since `since` final (the retry horizon has passed)? */
  isFinal(since: Date): boolean {
    return this.realClock.now().getTime() - since.getTime() >= this.horizonMs;
  }

  /**
   * Asks the receiver's deployment about one payment and checks its signed answer (from the
   * domain the payment went to, about this reference). Throws when there is no valid answer.
   */
  async inquire(receiverDomain: string, transactionUuid: string, final: boolean): Promise<StatusMessage> {
    const reference = formatId('Transaction', transactionUuid);
    const inquiry: InquiryMessage = { reference, final };
    const envelope = await this.settlement.sign('INQUIRY', inquiry);
    const url = new URL(`${this.keys.baseUrl(receiverDomain)}${SETTLEMENT_PATH}`);
    const answer = await this.http.post(url, JSON.stringify(envelope));
    if (answer.status !== 200)
      throw new Error(`the inquiry was answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      throw new Error('the inquiry was answered with something that is not JSON');
    }
    const verified = await this.settlement.verifyEnvelope(body, ['STATUS']);
    if (verified.domain !== receiverDomain) throw new Error(`the answer was signed by ${verified.domain}`);
    const status = verified.message as Partial<StatusMessage>;
    if (
      status.reference !== reference ||
      typeof status.outcome !== 'string' ||
      !INQUIRY_OUTCOMES.includes(status.outcome) ||
      typeof status.tombstoned !== 'boolean'
    ) {
      throw new Error('the answer is not a status of this payment');
    }
    return status as StatusMessage;
  }

  /**
   * Applies an inquiry's answer: CREDITED completes the payment, REFUSED or tombstoned refunds it
   * (each exactly once, with its timeline step and an audit event, in one transaction); anything
   * else resolves nothing.
   */
  async apply(transactionUuid: string, answer: StatusMessage): Promise<InquiryResult> {
    const base = { outcome: answer.outcome, tombstoned: answer.tombstoned };
    const why = answer.failureReason ? ` (${answer.failureReason.slice(0, 100)})` : '';
    let outcome: 'COMPLETED' | 'FAILED';
    let note: string;
    if (answer.outcome === 'CREDITED') {
      outcome = 'COMPLETED';
      note = 'resolved by the settlement inquiry: the receiver credited it';
    } else if (answer.outcome === 'REFUSED') {
      outcome = 'FAILED';
      note = `resolved by the settlement inquiry: the receiver refused it${why}`;
    } else if (answer.tombstoned) {
      outcome = 'FAILED';
      note =
        'resolved by the settlement inquiry: unknown to the receiver after the retry horizon (it recorded a tombstone)';
    } else {
      return { ...base, resolved: null };
    }
    const result = await this.tx.run((m) =>
      this.settlement.resolve(m, transactionUuid, outcome, {
        failure: { note },
        resolution: 'INQUIRY',
        systemAudit: 'umaSettlementInquiry',
      }),
    );
    return { ...base, resolved: result.changed ? outcome : null };
  }

  /** The platform's unresolved UMA payments, oldest first. */
  async unresolved(platformId: string | null, limit = 100): Promise<UnresolvedSettlement[]> {
    // One platform's (pinned), or every platform's: the operator's report (cross-shard, read only).
    const select = `SELECT u.transaction_id, u.platform_id, o.sent_amount, o.sending_currency, u.receiving_amount,
              u.receiving_currency, u.receiver_uma_address, u.receiver_domain, u.settling_since,
              u.inquiry_attempts, u.inquiry_due_at, u.last_error,
              (SELECT s.last_error FROM uma_settlement_messages s
                WHERE s.platform_id = u.platform_id AND s.kind = 'PAYMENT'
                  AND s.reference = 'Transaction:' || u.transaction_id::text
                  AND s.last_error IS NOT NULL LIMIT 1) AS callback_error
         FROM uma_payments u JOIN outgoing_transactions o ON o.id = u.transaction_id AND o.platform_id = u.platform_id`;
    const rows =
      platformId === null
        ? await this.tx.query<UnresolvedRow[]>(
            `/* cross-shard: uma-unresolved-report */ ${select}
              WHERE u.status = 'SETTLING'
              ORDER BY u.settling_since, u.transaction_id LIMIT $1`,
            [limit],
          )
        : await this.tx.query<UnresolvedRow[]>(
            `${select}
              WHERE u.status = 'SETTLING' AND u.platform_id = $1
              ORDER BY u.settling_since, u.transaction_id LIMIT $2`,
            [platformId, limit],
          );
    const now = this.realClock.now().getTime();
    return rows.map((r) => {
      const since = new Date(r.settling_since);
      const age = Math.max(0, Math.floor((now - since.getTime()) / 1000));
      return {
        transactionId: formatId('Transaction', r.transaction_id),
        platformId: formatId('Platform', r.platform_id),
        sentAmount: { amount: Number(r.sent_amount), currency: r.sending_currency },
        receivingAmount: { amount: Number(r.receiving_amount), currency: r.receiving_currency },
        counterparty: { umaAddress: r.receiver_uma_address, domain: r.receiver_domain },
        settlingSince: since.toISOString(),
        ageSeconds: age,
        overdue: age * 1000 >= this.inquiryAfterMs,
        inquiryAttempts: r.inquiry_attempts,
        nextInquiryAt: r.inquiry_due_at === null ? null : new Date(r.inquiry_due_at).toISOString(),
        lastError: r.last_error ?? r.callback_error,
      };
    });
  }

  /**
   * "Retry now": the next inquiry and any callback of the payment still being retried fall due at
   * once (the worker takes them on its next pass). 404 for another platform's payment, 409 when it
   * is resolved.
   */
  async retryNow(platformId: string, transactionId: string): Promise<void> {
    const uuid = parseId('Transaction', transactionId);
    await this.tx.run(async (m) => {
      const [row] = await m.query<Array<{ status: string }>>(
        `SELECT status FROM uma_payments WHERE transaction_id = $1 AND platform_id = $2 FOR UPDATE`,
        [uuid, platformId],
      );
      if (!uuid || !row) throw notFound(transactionId);
      if (row.status !== 'SETTLING') throw resolvedAlready(transactionId, row.status);
      const now = this.realClock.now();
      await m.query(
        `UPDATE uma_payments SET inquiry_due_at = $2, updated_at = $2 WHERE transaction_id = $1 AND platform_id = $3`,
        [uuid, now, platformId],
      );
      await m.query(
        `UPDATE uma_settlement_messages SET next_attempt_at = $2, updated_at = $2
          WHERE kind = 'PAYMENT' AND reference = $1 AND platform_id = $3 AND status = 'PENDING'`,
        [formatId('Transaction', uuid), now, platformId],
      );
    });
  }

  /**
   * An operator resolves an unresolved payment: REFUND (fails it and refunds the source exactly;
   * its PAYMENT callback, if still being retried, is withdrawn) or COMPLETE, with a reason that goes
   * on the timeline step. Exactly once: 409 CONFLICT (`details.status`) when it was resolved meanwhile.
   * `systemAudit` names the audit action when no request records it (the CLI).
   */
  async resolveByOperator(
    platformId: string,
    transactionId: string,
    action: OperatorResolution,
    reason: string,
    systemAudit?: string,
  ): Promise<{ transactionId: string; status: string }> {
    const uuid = parseId('Transaction', transactionId);
    if (!uuid) throw notFound(transactionId);
    return this.tx.run(async (m) => {
      const [row] = await m.query<Array<{ status: string }>>(
        `SELECT status FROM uma_payments WHERE transaction_id = $1 AND platform_id = $2`,
        [uuid, platformId],
      );
      if (!row) throw notFound(transactionId);
      const outcome = action === 'REFUND' ? 'FAILED' : 'COMPLETED';
      const result = await this.settlement.resolve(m, uuid, outcome, {
        platformId,
        failure: { note: `resolved by an operator (${action.toLowerCase()}): ${reason}` },
        resolution: 'OPERATOR',
        systemAudit,
      });
      if (!result.changed) throw resolvedAlready(transactionId, result.status);
      if (action === 'REFUND') {
        await m.query(
          `UPDATE uma_settlement_messages SET status = 'FAILED', next_attempt_at = NULL,
                  last_error = 'withdrawn: refunded by an operator', updated_at = $2
            WHERE kind = 'PAYMENT' AND reference = $1 AND platform_id = $3 AND status = 'PENDING'`,
          [formatId('Transaction', uuid), this.realClock.now(), platformId],
        );
      }
      return { transactionId: formatId('Transaction', uuid), status: result.status };
    });
  }

  /** The gauges: payments past the inquiry age, and the age of the oldest unresolved one. */
  private async collect(): Promise<void> {
    const now = this.realClock.now();
    const [row] = await this.tx.query<Array<{ overdue: string | number; oldest: Date | string | null }>>(
      `/* cross-shard: uma-settlement-gauge */
       SELECT count(*) FILTER (WHERE settling_since <= $1) AS overdue, min(settling_since) AS oldest
         FROM uma_payments WHERE status = 'SETTLING'`,
      [later(now, -this.inquiryAfterMs)],
    );
    this.metrics.umaSettlementUnresolved.set(Number(row?.overdue ?? 0));
    const oldest = row?.oldest ? new Date(row.oldest).getTime() : null;
    this.metrics.umaSettlementOldestUnresolved.set(oldest === null ? 0 : Math.max(0, (now.getTime() - oldest) / 1000));
  }
}

const notFound = (id: string) => new ApiError('TRANSACTION_NOT_FOUND', `Transaction ${id} not found`);
const resolvedAlready = (id: string, status: string) =>
  new ApiError('CONFLICT', `Transaction ${id} is no longer unresolved: it is ${status}`, {
    details: { status },
  });
