import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import pg, { escapeLiteral } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import type { AttemptDecision } from './delivery/retry-policy.js';
import type { DeliveryResult } from './delivery/http-deliverer.js';
import { PlatformConfigService, type WebhookTarget } from '../platform-config/platform-config.service.js';
import type { WebhookType } from './webhook-types.js';

/** An event a worker holds under a lease. */
export interface ClaimedEvent {
  id: string;
  platformId: string;
  type: WebhookType;
  body: string;
  attemptCount: number;
  retryingSince: Date;
  /** The claim's fencing token: the outcome applies only while the row still carries it. */
  token: string;
  /** The W3C traceparent of the request that wrote it (when it was traced). */
  traceContext: string | null;
}

/** A claimed event and where it goes. */
export interface ClaimedDelivery {
  event: ClaimedEvent;
  target: DeliveryTarget;
}

/** Where and how a platform's webhooks go (a platform setting, see PlatformConfigService). */
export type DeliveryTarget = WebhookTarget;

export interface AttemptRecord extends DeliveryResult {
  attemptedAt: Date;
}

/** One finished attempt and what it means for the event. */
export interface CompletedAttempt {
  event: ClaimedEvent;
  attempt: AttemptRecord;
  decision: AttemptDecision;
  decidedAt: Date;
}

const RETURNING = `e.id, e.platform_id, e.type, e.body, e.attempt_count, e.retrying_since, e.lock_token, e.trace_context`;

interface ClaimedRow {
  id: string;
  platform_id: string;
  type: WebhookType;
  body: string;
  attempt_count: number;
  retrying_since: Date;
  lock_token: string;
  trace_context: string | null;
}

const toClaimed = (r: ClaimedRow): ClaimedEvent => ({
  id: r.id,
  platformId: r.platform_id,
  type: r.type,
  body: r.body,
  attemptCount: r.attempt_count,
  retryingSince: r.retrying_since,
  token: r.lock_token,
  traceContext: r.trace_context,
});

/** PostgreSQL text cannot hold NUL; a receiver's binary body must not fail the bookkeeping. */
const pgText = (s: string | null) => (s === null ? null : s.replaceAll('\u0000', '\uFFFD'));

/** The dispatcher's queries: claim under a lease, load targets, record outcomes, release. */
@Injectable()
export class OutboxStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: PlatformConfigService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Claims up to `limit` due events, each the head of its aggregate (no earlier event of the same
   * aggregate still PENDING, whether waiting, retrying or in flight), skipping rows other workers
   * are claiming right now (SKIP LOCKED) or hold under an unexpired lease. The platforms'
   * endpoints and signing keys follow in one more statement (PlatformConfigService.webhookTargets).
   *
   * Fair across platforms: it visits every platform with pending events (a skip scan, one index
   * probe each), takes at most `quota.perPlatform` of each one's oldest due heads (less what the
   * caller already holds of it, `quota.held`), and then deals them out round-robin (every
   * platform's oldest first, then every platform's second, ...) up to `limit`. One platform's
   * backlog therefore never fills a claim while another platform has due events.
   */
  async claimDue(
    now: Date,
    limit: number,
    quota: { perPlatform: number; held?: ReadonlyMap<string, number> } = { perPlatform: limit },
  ): Promise<ClaimedDelivery[]> {
    const held = [...(quota.held ?? new Map<string, number>())];
    // One round trip: the transaction, its settings, the claim and the commit travel as one
    // simple-protocol query string (which carries no parameters: the values are written in as
    // escaped literals). A busy worker's event loop made the claim's five round trips take 5+ ms
    // (the query itself takes 0.5), and pg deprecates queuing several queries on one client.
    //
    // Each platform's due events must be walked in time order, stopping after its quota. Right
    // after a burst of writes the table's statistics are stale (autoanalyze runs at most once a
    // minute) and the planner may then prefer a bitmap scan that checks the predecessors of every
    // pending row before sorting: 15 ms instead of 1 ms with 10,000 pending. Ruling bitmap scans
    // out for this transaction keeps the ordered, early-stopping plan whatever the statistics.
    // The planner cannot know how few rows each platform's LIMIT takes, so it prices the claim far
    // above jit_above_cost, and compiling it would then cost 50+ ms for 1 to 3 ms of work.
    // The commit need not wait for its WAL flush (synchronous_commit, this transaction only): a
    // claim lost to a database crash only leaves its events unleased, to be claimed again (at
    // least once), and its lost token keeps the holder's outcome from applying (fencing).
    const text = (v: string) => escapeLiteral(v);
    const int = (n: number) => {
      if (!Number.isSafeInteger(n)) throw new TypeError(`not an integer: ${n}`);
      return String(n);
    };
    const at = (d: Date) => `${text(d.toISOString())}::timestamptz`;
    const [$1, $2, $3, $4, $5, $6, $7] = [
      at(now),
      int(limit),
      `${int(quota.perPlatform)}::int`,
      `ARRAY[${held.map(([platformId]) => text(platformId)).join(',')}]::uuid[]`,
      `ARRAY[${held.map(([, count]) => int(count)).join(',')}]::int[]`,
      at(this.leaseEnd(now)),
      `${text(randomUUID())}::uuid`,
    ];
    const sql = `BEGIN; SET LOCAL enable_bitmapscan = off; SET LOCAL jit = off; SET LOCAL synchronous_commit = off;
      WITH RECURSIVE platforms AS (
         (SELECT e.platform_id FROM outbox_events e WHERE e.status = 'PENDING' ORDER BY e.platform_id LIMIT 1)
         UNION ALL
         SELECT (SELECT e.platform_id FROM outbox_events e
                 WHERE e.status = 'PENDING' AND e.platform_id > p.platform_id ORDER BY e.platform_id LIMIT 1)
         FROM platforms p WHERE p.platform_id IS NOT NULL
       ), quota AS (
         SELECT p.platform_id, greatest(${$3} - coalesce(h.held, 0), 0) AS n
         FROM platforms p LEFT JOIN unnest(${$4}, ${$5}) AS h(platform_id, held) USING (platform_id)
         WHERE p.platform_id IS NOT NULL
       ), heads AS (
         SELECT c.id, c.next_attempt_at,
                row_number() OVER (PARTITION BY c.platform_id ORDER BY c.next_attempt_at, c.id) AS turn
         FROM quota q CROSS JOIN LATERAL (
           SELECT e.id, e.platform_id, e.next_attempt_at FROM outbox_events e
           WHERE e.platform_id = q.platform_id AND e.status = 'PENDING' AND e.next_attempt_at <= ${$1}
             AND (e.locked_until IS NULL OR e.locked_until <= ${$1})
             AND e.seq = (
               -- Pending, spelled as outbox_events_unsettled_seq's predicate: no other index fits.
               SELECT min(p.seq) FROM outbox_events p
               WHERE p.platform_id = e.platform_id AND p.aggregate_id = e.aggregate_id
                 AND p.status <> 'DELIVERED' AND p.status <> 'FAILED')
           ORDER BY e.next_attempt_at
           LIMIT q.n
         ) c
       ), dealt AS (
         SELECT * FROM heads ORDER BY turn, next_attempt_at, id LIMIT 2 * ${$2}
       ), due AS (
         SELECT e.id FROM dealt h JOIN outbox_events e ON e.id = h.id
         WHERE e.status = 'PENDING' AND (e.locked_until IS NULL OR e.locked_until <= ${$1})
         ORDER BY h.turn, h.next_attempt_at, h.id
         LIMIT ${$2}
         FOR UPDATE OF e SKIP LOCKED
       ), claimed AS (
         UPDATE outbox_events e SET locked_until = ${$6}, lock_token = ${$7}
         FROM due WHERE e.id = due.id
         RETURNING ${RETURNING}
       )
       SELECT * FROM claimed;
      COMMIT`;
    const runner = this.dataSource.createQueryRunner();
    let rows: ClaimedRow[];
    try {
      // The driver's client itself: TypeORM's query() keeps only a single statement's result.
      const client = (await runner.connect()) as pg.PoolClient;
      const results = (await client.query(sql)) as unknown as pg.QueryResult[];
      rows = results.find((r) => r.command === 'SELECT')!.rows as ClaimedRow[];
    } catch (error) {
      // A failed claim leaves the transaction open (aborted): never hand it back to the pool so.
      await runner.query(`ROLLBACK`).catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
    // The platforms' endpoints and keys, on another connection.
    const targets = await this.settings.webhookTargets(
      this.dataSource.manager,
      rows.map((r) => r.platform_id),
    );
    return rows.map((row) => ({ event: toClaimed(row), target: targets.get(row.platform_id)! }));
  }

  /**
   * Extends the leases of events this worker still holds (the same fencing token) to `now` plus
   * the lease. Returns the ids it still holds; an event missing from it was taken over by another
   * worker (this one stalled past its lease) or is no longer pending, and must not be sent.
   */
  async renew(events: ClaimedEvent[], now: Date): Promise<Set<string>> {
    if (events.length === 0) return new Set();
    // TypeORM answers an UPDATE ... RETURNING with [rows, affected].
    const [rows] = await this.dataSource.query<[Array<{ id: string }>, number]>(
      `UPDATE outbox_events e SET locked_until = $3
       FROM unnest($1::uuid[], $2::uuid[]) AS v(id, token)
       WHERE e.id = v.id AND e.lock_token = v.token AND e.status = 'PENDING'
       RETURNING e.id`,
      [events.map((e) => e.id), events.map((e) => e.token), this.leaseEnd(now)],
    );
    return new Set(rows.map((r) => r.id));
  }

  private leaseEnd(now: Date): Date {
    return new Date(now.getTime() + this.config.OUTBOX_LEASE_MS);
  }

  /** Claims one event by id inside the caller's transaction (an event that is sent right away). */
  async claimOne(m: EntityManager, id: string, now: Date): Promise<ClaimedEvent> {
    const rows = await m.query<[ClaimedRow[], number]>(
      `UPDATE outbox_events e SET locked_until = $2, lock_token = $3 WHERE e.id = $1 RETURNING ${RETURNING}`,
      [id, this.leaseEnd(now), randomUUID()],
    );
    return toClaimed(rows[0][0]);
  }

  /** Endpoint and signing material of a platform. */
  async target(platformId: string): Promise<DeliveryTarget> {
    return (await this.settings.webhookTargets(this.dataSource.manager, [platformId])).get(platformId)!;
  }

  /**
   * Records attempts and applies their outcomes, in one statement. An outcome applies only while
   * the event still carries the claim's token: a worker whose lease expired (and whose event
   * another worker took over) cannot overwrite the newer state. Its attempt is still logged.
   */
  async record(done: CompletedAttempt[]): Promise<void> {
    if (done.length === 0) return;
    const col = <T>(f: (d: CompletedAttempt) => T) => done.map(f);
    await this.dataSource.query(
      `WITH outcome AS (
         UPDATE outbox_events e SET
           status = v.status,
           attempt_count = e.attempt_count + 1,
           next_attempt_at = COALESCE(v.next_attempt_at, e.next_attempt_at),
           delivered_at = CASE WHEN v.status = 'DELIVERED' THEN v.decided_at ELSE e.delivered_at END,
           locked_until = NULL,
           lock_token = NULL
         FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::timestamptz[])
           AS v(id, token, status, next_attempt_at, decided_at)
         WHERE e.id = v.id AND e.lock_token = v.token
         RETURNING e.id
       )
       INSERT INTO outbox_attempts (event_id, attempted_at, duration_ms, response_status, response_body, error)
       SELECT * FROM unnest($1::uuid[], $6::timestamptz[], $7::int[], $8::int[], $9::text[], $10::text[])`,
      [
        col((d) => d.event.id),
        col((d) => d.event.token),
        col((d) => d.decision.status),
        col((d) => (d.decision.status === 'PENDING' ? d.decision.nextAttemptAt : null)),
        col((d) => d.decidedAt),
        col((d) => d.attempt.attemptedAt),
        col((d) => d.attempt.durationMs),
        col((d) => d.attempt.status),
        col((d) => pgText(d.attempt.responseBody)),
        col((d) => pgText(d.attempt.error)),
      ],
    );
  }

  /** Gives claimed events back before their lease expires (a worker shutting down mid-delivery). */
  async release(events: ClaimedEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.dataSource.query(
      `UPDATE outbox_events e SET locked_until = NULL, lock_token = NULL
       FROM unnest($1::uuid[], $2::uuid[]) AS v(id, token)
       WHERE e.id = v.id AND e.lock_token = v.token`,
      [events.map((e) => e.id), events.map((e) => e.token)],
    );
  }

  /** How many events are pending (all platforms) and when the oldest was written: for the metrics. */
  async pendingStats(): Promise<{ count: number; oldest: Date | null }> {
    const [row] = await this.dataSource.query<Array<{ count: string; oldest: Date | null }>>(
      `SELECT /* cross-shard: outbox-pending-gauge */ count(*) AS count, min(created_at) AS oldest
         FROM outbox_events WHERE status = 'PENDING'`,
    );
    return { count: Number(row.count), oldest: row.oldest };
  }
}
