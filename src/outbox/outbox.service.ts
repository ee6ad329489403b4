import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import type { WebhookEnvelope, WebhookType } from './webhook-types.js';

/** The NOTIFY channel a committed event wakes the workers on. */
export const OUTBOX_CHANNEL = 'outbox_events';

/**
 * The outbox write (see `OutboxService.write`): $1 event uuid, $2 platform, $3 type, $4 aggregate,
 * $5 envelope JSON, $6 now. Exported for benchmarks that replay a producer's SQL in pgbench.
 */
export const OUTBOX_INSERT_SQL = `WITH counter AS (
     INSERT INTO outbox_aggregates (platform_id, aggregate_id, last_seq) VALUES ($2, $4, 1)
     ON CONFLICT (platform_id, aggregate_id) DO UPDATE SET last_seq = outbox_aggregates.last_seq + 1
     RETURNING last_seq
   )
   INSERT INTO outbox_events
     (id, platform_id, type, aggregate_id, seq, body, status, attempt_count, next_attempt_at, retrying_since, created_at)
   SELECT $1, $2, $3, $4, counter.last_seq, $5, 'PENDING', 0, $6, $6, $6
   FROM counter, (SELECT pg_notify('${OUTBOX_CHANNEL}', '')) AS wake
   RETURNING seq`;

/**
 * What each event type carries as `data` (types without an entry carry any object). Areas add
 * their types by module augmentation next to their event builders (e.g. src/cards/card-events.ts).
 */
export interface WebhookDataByType {
  TEST: Record<string, never>;
}
export type WebhookData<T extends WebhookType> = T extends keyof WebhookDataByType
  ? WebhookDataByType[T]
  : Record<string, unknown>;

export interface OutboxWrite<T extends WebhookType = WebhookType> {
  platformId: string;
  type: T;
  /** The resource the event is about (its public id, e.g. `Card:<uuid>`): delivery is in order per aggregate. */
  aggregateId: string;
  data: WebhookData<T>;
}

export interface WrittenEvent {
  /** The uuid of the envelope id. */
  uuid: string;
  envelope: WebhookEnvelope;
  seq: number;
}

/**
 * The outbox writer. Producers call `write` with their transaction's EntityManager, so the event
 * commits or rolls back with the state change it reports: an uncommitted event is never sent, a
 * committed one always is (see OutboxDispatcher).
 */
@Injectable()
export class OutboxService {
  constructor(private readonly clock: Clock) {}

  /**
   * Appends the event with the next sequence number of its aggregate, in one statement: the upsert
   * of the aggregate's counter row locks it until commit, so concurrent writers of one aggregate
   * get consecutive numbers in commit order (and a rollback gives its number back). `pg_notify`
   * inside the transaction is delivered to listening workers only when it commits.
   */
  async write<T extends WebhookType>(m: EntityManager, input: OutboxWrite<T>): Promise<WrittenEvent> {
    if (!m.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.write must run inside the producer transaction');
    }
    const uuid = newUuid();
    const now = this.clock.now();
    const envelope: WebhookEnvelope = {
      id: formatId('Webhook', uuid),
      type: input.type,
      timestamp: now.toISOString(),
      data: input.data,
    };
    const rows = await m.query<Array<{ seq: string }>>(OUTBOX_INSERT_SQL, [
      uuid,
      input.platformId,
      input.type,
      input.aggregateId,
      JSON.stringify(envelope),
      now,
    ]);
    return { uuid, envelope, seq: Number(rows[0].seq) };
  }
}
