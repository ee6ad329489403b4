import { Injectable, Logger } from '@nestjs/common';
import { later, RealClock } from '../common/clock.js';
import { DUE_PLATFORMS, duePlatformIds, perDuePlatform, PollingWorker } from '../common/polling-worker.js';
import { Runtime } from '../config/config.module.js';
import { TransactionService } from '../database/transaction.service.js';
import { inquiryBackoffMs, UmaReconciliationService, type InquiryResult } from './uma-reconciliation.service.js';

/** How often a worker process looks for payments due an inquiry. */
export const RECONCILIATION_POLL_MS = 1000;
/** A claimed inquiry is someone else's again after this long (a worker that died mid-inquiry). */
const LEASE_MS = 30_000;
const BATCH = 20;

interface ClaimedPayment {
  transaction_id: string;
  platform_id: string;
  receiver_domain: string;
  settling_since: Date | string;
  inquiry_attempts: number;
}

/**
 * The settlement reconciliation on worker processes (ROLE `worker` or `all`): claims the sender's
 * UMA payments still SETTLING whose inquiry is due (`uma_payments.inquiry_due_at`, real time,
 * first UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS after settlement began) under a lease (FOR UPDATE
 * SKIP LOCKED: workers share them, a dead worker's claim lapses), asks each receiver
 * (UmaReconciliationService.inquire; final once UMA_SETTLEMENT_RETRY_HORIZON_SECONDS have passed)
 * and applies the answer, which resolves the payment exactly once or schedules the next inquiry
 * with backoff. Tests drive it with `runOnce`.
 */
@Injectable()
export class UmaReconciliationWorker extends PollingWorker {
  private readonly logger = new Logger('UmaReconciliation');

  constructor(
    private readonly tx: TransactionService,
    private readonly reconciliation: UmaReconciliationService,
    private readonly realClock: RealClock,
    runtime: Runtime,
  ) {
    super({
      runtime,
      intervalMs: RECONCILIATION_POLL_MS,
      logger: new Logger('UmaReconciliation'),
      failure: 'settlement reconciliation failed',
    });
  }

  /**
   * One pass: an inquiry for every due payment (up to a batch); answers what each learned. Which
   * platforms have due inquiries is one unlocked read across platforms (cross-shard:
   * uma-reconciliation-due-platforms); each platform's are then claimed pinned to it.
   */
  async runOnce(): Promise<InquiryResult[]> {
    const now = this.realClock.now();
    const due = () =>
      duePlatformIds(
        this.tx.manager,
        `/* cross-shard: uma-reconciliation-due-platforms */
         SELECT platform_id FROM uma_payments
          WHERE status = 'SETTLING' AND inquiry_due_at <= $1
          GROUP BY platform_id ORDER BY min(inquiry_due_at), platform_id LIMIT ${DUE_PLATFORMS}`,
        [now],
      );
    const claimed: ClaimedPayment[] = [];
    await perDuePlatform(undefined, due, BATCH, async (platformId, limit) => {
      const rows = await this.tx.query<ClaimedPayment[]>(
        `WITH due AS (
           SELECT quote_id FROM uma_payments
            WHERE platform_id = $3 AND status = 'SETTLING' AND inquiry_due_at <= $1
            ORDER BY inquiry_due_at, quote_id LIMIT ${Math.floor(limit)} FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE uma_payments u SET inquiry_due_at = $2, inquiry_attempts = u.inquiry_attempts + 1
             FROM due WHERE u.platform_id = $3 AND u.quote_id = due.quote_id
           RETURNING u.transaction_id, u.platform_id, u.receiver_domain, u.settling_since, u.inquiry_attempts
         )
         SELECT * FROM claimed`,
        [now, later(now, LEASE_MS), platformId],
      );
      claimed.push(...rows);
      return rows.length;
    });
    const results: InquiryResult[] = [];
    for (const payment of claimed) results.push(await this.reconcile(payment));
    return results;
  }

  private async reconcile(payment: ClaimedPayment): Promise<InquiryResult> {
    const final = this.reconciliation.isFinal(new Date(payment.settling_since));
    let result: InquiryResult;
    let error: string | null;
    try {
      const answer = await this.reconciliation.inquire(payment.receiver_domain, payment.transaction_id, final);
      result = await this.reconciliation.apply(payment.transaction_id, answer);
      if (result.resolved) {
        this.logger.log(
          { transactionId: payment.transaction_id, outcome: answer.outcome, resolved: result.resolved },
          'settlement resolved by inquiry',
        );
        return result;
      }
      error = `the receiver answered ${answer.outcome}${final ? ' to a final inquiry' : ''}`;
    } catch (e) {
      error = (e as Error).message.slice(0, 500);
      result = { outcome: 'UNKNOWN', tombstoned: false, resolved: null };
      this.logger.warn({ transactionId: payment.transaction_id, error }, 'settlement inquiry failed');
    }
    const now = this.realClock.now();
    await this.tx.query(
      `UPDATE uma_payments SET inquiry_due_at = $2, last_error = $3
        WHERE transaction_id = $1 AND platform_id = $4 AND status = 'SETTLING'`,
      [payment.transaction_id, later(now, inquiryBackoffMs(payment.inquiry_attempts)), error, payment.platform_id],
    );
    return result;
  }
}
