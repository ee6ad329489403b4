import { Injectable, Logger } from '@nestjs/common';
import { DUE_PLATFORMS, duePlatformIds, perDuePlatform, PollingWorker } from '../common/polling-worker.js';
import { later, RealClock } from '../common/clock.js';
import { parseId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { Runtime } from '../config/config.module.js';
import { TransactionService } from '../database/transaction.service.js';
import { CounterpartyHttp } from './counterparty-http.js';
import { UmaKeysService } from './uma-keys.service.js';
import { SETTLEMENT_PATH, UmaSettlementService, type SettlementKind } from './uma-settlement.service.js';

/** How often a worker process looks for due settlement callbacks. */
export const SETTLEMENT_POLL_MS = 500;
/** A claimed callback is someone else's again after this long (a worker that died mid-delivery). */
const LEASE_MS = 30_000;
/** The longest wait between two attempts of a callback (and between two inquiries). */
export const SETTLEMENT_MAX_BACKOFF_MS = 300_000;
const BATCH = 20;

interface ClaimedMessage {
  id: string;
  platform_id: string;
  kind: SettlementKind;
  reference: string;
  target_domain: string;
  payload: Record<string, unknown>;
  attempts: number;
  created_at: Date;
}

/** Backoff before attempt n+1: 1 s, 2 s, 4 s ... at most 5 minutes. */
export function settlementBackoffMs(attempts: number): number {
  return Math.min(SETTLEMENT_MAX_BACKOFF_MS, 1000 * 2 ** Math.min(20, Math.max(0, attempts - 1)));
}

/**
 * Delivers the UMA area's outbox (`uma_settlement_messages`) on worker processes (ROLE `worker`
 * or `all`): claims due callbacks under a lease (FOR UPDATE SKIP LOCKED, so workers share them and
 * none delivers one twice at once), signs each afresh (UmaSettlementService.sign), POSTs it to the
 * target deployment's SETTLEMENT_PATH and records the outcome. 2xx: delivered. A refusal (4xx but
 * 408/429): given up, and a PAYMENT refused at its first attempt fails the sender's transaction and
 * refunds it (a later refusal may follow a lost answer to a credited attempt: the settlement
 * inquiry resolves it, UmaReconciliationWorker). Anything else (unreachable, 5xx): retried with
 * backoff (at most 5 minutes apart) until UMA_SETTLEMENT_RETRY_HORIZON_SECONDS after the callback
 * was written, then given up (the inquiry goes on). `next_attempt_at` and the horizon (from
 * `created_at`) are infrastructure time (RealClock, src/common/schedules.ts). Tests drive it with `runOnce`.
 */
@Injectable()
export class UmaSettlementWorker extends PollingWorker {
  private readonly logger = new Logger('UmaSettlement');

  constructor(
    private readonly tx: TransactionService,
    private readonly http: CounterpartyHttp,
    private readonly keys: UmaKeysService,
    private readonly settlement: UmaSettlementService,
    private readonly realClock: RealClock,
    private readonly runtime: Runtime,
    private readonly config: AppConfig,
  ) {
    super({
      runtime,
      intervalMs: SETTLEMENT_POLL_MS,
      logger: new Logger('UmaSettlement'),
      failure: 'settlement delivery failed',
    });
  }

  /**
   * One pass: delivers every due callback (up to a batch); answers how many were attempted. Which
   * platforms have due callbacks is one unlocked read across platforms (cross-shard:
   * uma-settlement-due-platforms); each platform's are then claimed pinned to it.
   */
  async runOnce(): Promise<number> {
    const now = this.realClock.now();
    const due = () =>
      duePlatformIds(
        this.tx.manager,
        `/* cross-shard: uma-settlement-due-platforms */
         SELECT platform_id FROM uma_settlement_messages
          WHERE status = 'PENDING' AND next_attempt_at <= $1
          GROUP BY platform_id ORDER BY min(next_attempt_at), platform_id LIMIT ${DUE_PLATFORMS}`,
        [now],
      );
    const claimed: ClaimedMessage[] = [];
    await perDuePlatform(undefined, due, BATCH, async (platformId, limit) => {
      const rows = await this.tx.query<ClaimedMessage[]>(
        `WITH due AS (
           SELECT id FROM uma_settlement_messages
            WHERE platform_id = $3 AND status = 'PENDING' AND next_attempt_at <= $1
            ORDER BY next_attempt_at, id LIMIT ${Math.floor(limit)} FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE uma_settlement_messages s SET next_attempt_at = $2, attempts = s.attempts + 1, updated_at = $1
             FROM due WHERE s.platform_id = $3 AND s.id = due.id
           RETURNING s.id, s.platform_id, s.kind, s.reference, s.target_domain, s.payload, s.attempts, s.created_at
         )
         SELECT * FROM claimed`,
        [now, later(now, LEASE_MS), platformId],
      );
      claimed.push(...rows);
      return rows.length;
    });
    for (const message of claimed) await this.deliver(message);
    return claimed.length;
  }

  private async deliver(message: ClaimedMessage): Promise<void> {
    let status: number | null = null;
    let error: string | null = null;
    try {
      const envelope = await this.settlement.sign(message.kind, message.payload);
      const url = new URL(`${this.keys.baseUrl(message.target_domain)}${SETTLEMENT_PATH}`);
      const answer = await this.http.post(url, JSON.stringify(envelope));
      status = answer.status;
      if (status < 200 || status >= 300) error = `${status}: ${answer.body.slice(0, 500)}`;
    } catch (e) {
      error = (e as Error).message.slice(0, 500);
    }
    const now = this.realClock.now();
    if (status !== null && status >= 200 && status < 300) {
      await this.tx.query(
        `UPDATE uma_settlement_messages SET status = 'DELIVERED', next_attempt_at = NULL, last_error = NULL,
                updated_at = $2 WHERE id = $1 AND platform_id = $3`,
        [message.id, now, message.platform_id],
      );
      return;
    }
    const refused = status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
    const horizonPassed =
      now.getTime() - new Date(message.created_at).getTime() >= this.config.UMA_SETTLEMENT_RETRY_HORIZON_SECONDS * 1000;
    if (refused || horizonPassed) {
      this.logger.warn(
        { id: message.id, kind: message.kind, reference: message.reference, error },
        'settlement callback given up',
      );
      await this.tx.run(async (m) => {
        await m.query(
          `UPDATE uma_settlement_messages SET status = 'FAILED', next_attempt_at = NULL, last_error = $2,
                  updated_at = $3 WHERE id = $1 AND platform_id = $4`,
          [message.id, error, now, message.platform_id],
        );
        // Refused at the first attempt: the receiver never took the payment, the sender is refunded.
        // A refusal after an attempt whose answer was lost may follow a credit there, and a callback
        // given up at the horizon may have arrived: never refunded on a guess, the settlement
        // inquiry asks the receiver (UmaReconciliationWorker).
        const uuid = parseId('Transaction', message.reference);
        if (refused && message.attempts === 1 && message.kind === 'PAYMENT' && uuid) {
          await this.settlement.resolve(m, uuid, 'FAILED', {
            failure: { note: `the receiver refused the payment (${refusalOf(status, error)})` },
            resolution: 'REFUSED_CALLBACK',
            systemAudit: 'umaSettlementRefused',
          });
        }
      });
      return;
    }
    await this.tx.query(
      `UPDATE uma_settlement_messages SET next_attempt_at = $2, last_error = $3, updated_at = $4
        WHERE id = $1 AND platform_id = $5`,
      [message.id, later(now, settlementBackoffMs(message.attempts)), error, now, message.platform_id],
    );
  }
}

/** A refusal in a few words: the status and the counterparty's error code, when it sent one. */
function refusalOf(status: number | null, error: string | null): string {
  const body = (error ?? '').replace(/^\d+: /, '');
  let code: unknown;
  try {
    code = (JSON.parse(body) as { code?: unknown }).code;
  } catch {
    code = undefined;
  }
  return typeof code === 'string' ? `${status} ${code.slice(0, 100)}` : String(status);
}
