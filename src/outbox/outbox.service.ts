import { noteAuditResource } from '../audit/audit-trail.js';
import { currentTraceparent } from '../tracing/trace-context.js';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock, RealClock } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import type { Statement } from '../database/statement.js';
import { wantsExtraWebhookTypeSql } from '../platform-config/extra-webhook-types.sql.js';
import {
  isOwnWebhookType,
  type OwnWebhookType,
  type ReferenceWebhookType,
  type WebhookEnvelope,
  type WebhookType,
} from './webhook-types.js';

/** The NOTIFY channel a committed event wakes the workers on. */
export const OUTBOX_CHANNEL = 'outbox_events';

/**
 * How many parameters the outbox write takes: event uuid, platform, type, aggregate, envelope JSON,
 * due (real time: the worker's schedule), createdAt (the platform's time, as the envelope's
 * timestamp), the writer's W3C traceparent (or null).
 */
export const OUTBOX_PARAMETERS = 8;

/**
 * The two parts of the outbox write, with the parameter numbers shifted by `offset`: the upsert of
 * the aggregate's counter (a row per row of `source`, or one row when `source` is null), and the
 * event insert that takes its number from `counter` (and wakes the workers at commit).
 */
const counterUpsert = (offset: number, source: string | null) => {
  const [platform, aggregate] = [offset + 2, offset + 4];
  const values = source
    ? `SELECT $${platform}, $${aggregate}, 1 FROM ${source}`
    : `VALUES ($${platform}, $${aggregate}, 1)`;
  return `INSERT INTO outbox_aggregates (platform_id, aggregate_id, last_seq) ${values}
     ON CONFLICT (platform_id, aggregate_id) DO UPDATE SET last_seq = outbox_aggregates.last_seq + 1
     RETURNING last_seq`;
};
const eventInsert = (offset: number, counter: string) => {
  const $ = (n: number) => `$${offset + n}`;
  return `INSERT INTO outbox_events
     (id, platform_id, type, aggregate_id, seq, body, status, attempt_count, next_attempt_at, retrying_since, created_at,
      trace_context)
   SELECT ${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${counter}.last_seq, ${$(5)}, 'PENDING', 0, ${$(6)}, ${$(6)}, ${$(7)}, ${$(8)}
   FROM ${counter}, (SELECT pg_notify('${OUTBOX_CHANNEL}', '')) AS wake
   RETURNING seq`;
};

/**
 * The outbox write (see `OutboxService.write`): $1 event uuid, $2 platform, $3 type, $4 aggregate,
 * $5 envelope JSON, $6 due (real time), $7 created at (the platform's time), $8 the writer's W3C
 * traceparent or null (`OutboxService.prepare(...).parameters`). Exported for benchmarks that
 * replay a producer's SQL in pgbench.
 */
export const OUTBOX_INSERT_SQL = `WITH counter AS (
     ${counterUpsert(0, null)}
   )
   ${eventInsert(0, 'counter')}`;

/**
 * The outbox write of one of the service's own types (OWN_WEBHOOK_TYPES): OUTBOX_INSERT_SQL, same
 * parameters, but only when the platform's `extraWebhookTypes` asks for the type (itself, its
 * `<RESOURCE>.*` or `*`); otherwise nothing at all is written (no event, no sequence number), and
 * it returns no row.
 */
export const OWN_OUTBOX_INSERT_SQL = `WITH wanted AS (
     SELECT 1 WHERE ${wantsExtraWebhookTypeSql('$2::uuid', '$3')}
   ),
   counter AS (
     ${counterUpsert(0, 'wanted')}
   )
   ${eventInsert(0, 'counter')}`;

/**
 * The outbox write as two CTEs (`outbox_counter`, `outbox_event`) for a producer's own statement,
 * written only for a row of the producer's CTE `source` (at most one row: e.g. an
 * `UPDATE ... WHERE <condition> RETURNING` that matched), so the state change and its event are
 * one statement, both or neither. Its parameters are `$offset+1` to `$offset+7`, in the order of
 * OUTBOX_INSERT_SQL's (`OutboxService.prepare(...).parameters`). Append it to the producer's
 * `WITH` list; build the text once (a module constant), not per request.
 */
export function outboxInsertCtes(source: string, offset: number): string {
  return `outbox_counter AS (
     ${counterUpsert(offset, source)}
   ),
   outbox_event AS (
     ${eventInsert(offset, 'outbox_counter')}
   )`;
}

/**
 * Any number of prepared events (`OutboxService.prepare`) as CTEs of a producer's statement `s`,
 * one text for every count: the events go in as arrays; each aggregate's counter is advanced once
 * by its number of events (one upsert row per aggregate, so two events of one aggregate in one
 * statement get consecutive numbers, in the order given), and the workers are woken at commit.
 * Written unconditionally (the producer's statement is the change). The CTE `outbox_written`
 * returns each event's `seq`.
 */
export function outboxBatchCtes(s: Statement, events: PreparedEvent[]): void {
  const column = (i: number, cast: string) =>
    s.p(
      events.map((e) => e.parameters[i] ?? null),
      cast,
    );
  // The events of one platform (every statement of a request): its id is one parameter, so the
  // statement pins platform_id. Events of several platforms in one statement are not expected.
  const platformId = events[0]?.parameters[1];
  if (events.some((e) => e.parameters[1] !== platformId))
    throw new Error('outboxBatchCtes: the events of one statement belong to one platform');
  const platform = s.p(platformId, 'uuid');
  s.with(
    'outbox_in',
    `SELECT * FROM unnest(${column(0, 'uuid[]')}, ${column(2, 'text[]')}, ${column(3, 'text[]')},
       ${column(4, 'text[]')}, ${column(5, 'timestamptz[]')}, ${column(6, 'timestamptz[]')}, ${column(7, 'text[]')})
       WITH ORDINALITY AS e(id, type, aggregate_id, body, due, created_at, trace_context, ord)`,
  );
  s.with(
    'outbox_counters',
    `INSERT INTO outbox_aggregates (platform_id, aggregate_id, last_seq)
     SELECT ${platform}, aggregate_id, count(*) FROM outbox_in GROUP BY aggregate_id
     ON CONFLICT (platform_id, aggregate_id) DO UPDATE SET last_seq = outbox_aggregates.last_seq + EXCLUDED.last_seq
     RETURNING aggregate_id, last_seq`,
  );
  s.with(
    'outbox_written',
    `INSERT INTO outbox_events
       (id, platform_id, type, aggregate_id, seq, body, status, attempt_count, next_attempt_at, retrying_since, created_at,
        trace_context)
     SELECT e.id, ${platform}, e.type, e.aggregate_id,
            c.last_seq - count(*) OVER (PARTITION BY e.aggregate_id)
              + row_number() OVER (PARTITION BY e.aggregate_id ORDER BY e.ord),
            e.body, 'PENDING', 0, e.due, e.due, e.created_at, e.trace_context
       FROM outbox_in e JOIN outbox_counters c USING (aggregate_id),
            (SELECT pg_notify('${OUTBOX_CHANNEL}', '')) AS wake
     RETURNING seq`,
  );
}

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

export interface OutboxWrite<T extends WebhookType = ReferenceWebhookType> {
  platformId: string;
  type: T;
  /** The resource the event is about (its public id, e.g. `Card:<uuid>`): delivery is in order per aggregate. */
  aggregateId: string;
  data: WebhookData<T>;
}

/** An event ready to write: `parameters` are OUTBOX_INSERT_SQL's ($1 to $7). */
export interface PreparedEvent {
  uuid: string;
  envelope: WebhookEnvelope;
  parameters: unknown[];
}

export interface WrittenEvent {
  /** The uuid of the envelope id. */
  uuid: string;
  /** The platform's uuid (the event's shard). */
  platformId: string;
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
  constructor(
    private readonly clock: Clock,
    private readonly realClock: RealClock,
  ) {}

  /**
   * Appends the event with the next sequence number of its aggregate, in one statement: the upsert
   * of the aggregate's counter row locks it until commit, so concurrent writers of one aggregate
   * get consecutive numbers in commit order (and a rollback gives its number back). `pg_notify`
   * inside the transaction is delivered to listening workers only when it commits.
   */
  async write<T extends ReferenceWebhookType>(m: EntityManager, input: OutboxWrite<T>): Promise<WrittenEvent>;
  /**
   * One of the service's own types (outside the reference's list) is written only for a platform
   * whose `extraWebhookTypes` asks for it, in the same statement; null when it does not (nothing
   * written: the event never exists, so it is neither delivered nor listed by GET /webhook-events).
   */
  async write<T extends OwnWebhookType>(m: EntityManager, input: OutboxWrite<T>): Promise<WrittenEvent | null>;
  async write<T extends WebhookType>(m: EntityManager, input: OutboxWrite<T>): Promise<WrittenEvent | null>;
  async write<T extends WebhookType>(m: EntityManager, input: OutboxWrite<T>): Promise<WrittenEvent | null> {
    if (!m.queryRunner?.isTransactionActive) {
      throw new Error('OutboxService.write must run inside the producer transaction');
    }
    const own = isOwnWebhookType(input.type);
    const event = this.build(input);
    const rows = await m.query<Array<{ seq: string }>>(
      own ? OWN_OUTBOX_INSERT_SQL : OUTBOX_INSERT_SQL,
      event.parameters,
    );
    if (rows.length === 0) return null;
    return { uuid: event.uuid, platformId: input.platformId, envelope: event.envelope, seq: Number(rows[0].seq) };
  }

  /**
   * When the worker may first deliver it: real time (the delivery schedule never follows a sandbox
   * test clock); `now` itself when the platform has none (one reading).
   */
  private due(now: Date): Date {
    return (this.clock as unknown) === this.realClock ? now : this.realClock.now();
  }

  /**
   * The event as `write` would append it (its id, its envelope stamped now), with the parameters of
   * OUTBOX_INSERT_SQL, for a producer that writes it in a statement of its own through
   * `outboxInsertCtes` (the event then commits with that statement, or not at all). The reference's
   * types only: an own type is opt-in per platform, which only `write` checks.
   */
  prepare<T extends ReferenceWebhookType>(input: OutboxWrite<T>): PreparedEvent {
    if (isOwnWebhookType(input.type))
      throw new Error(`${String(input.type)} is opt-in: write it with OutboxService.write`);
    return this.build(input);
  }

  private build<T extends WebhookType>(input: OutboxWrite<T>): PreparedEvent {
    const uuid = newUuid();
    const now = this.clock.now();
    noteAuditResource(input.aggregateId); // the audit event names what the request changed
    const envelope: WebhookEnvelope = {
      id: formatId('Webhook', uuid),
      type: input.type,
      timestamp: now.toISOString(),
      data: input.data,
    };
    return {
      uuid,
      envelope,
      // The request's trace context (tracing on), so the worker's delivery span joins its trace.
      parameters: [
        uuid,
        input.platformId,
        input.type,
        input.aggregateId,
        JSON.stringify(envelope),
        this.due(now),
        now,
        currentTraceparent(),
      ],
    };
  }
}
