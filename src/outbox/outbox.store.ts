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
  /** Returned by the batch claim only (its dealing order). */
  next_attempt_at?: Date;
}

/** Claimed rows in due order: `next_attempt_at`, then id. */
const byDue = (a: ClaimedRow, b: ClaimedRow) =>
  a.next_attempt_at!.getTime() - b.next_attempt_at!.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** An integer written into SQL text. */
const int = (n: number) => {
  if (!Number.isSafeInteger(n)) throw new TypeError(`not an integer: ${n}`);
  return String(n);
};

/**
 * Deals up to `limit` claims round-robin over `room` (platform -> most it may take), in its order:
 * one each, then a second each, ... Answers how many each platform was dealt (those dealt any).
 */
export function deal(room: ReadonlyMap<string, number>, limit: number): Map<string, number> {
  const dealt = new Map<string, number>();
  let left = limit;
  for (let turn = 1; left > 0; turn++) {
    let any = false;
    for (const [platformId, n] of room) {
      if (left === 0) break;
      if (n < turn) continue;
      dealt.set(platformId, turn);
      left--;
      any = true;
    }
    if (!any) break;
  }
  return dealt;
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
   * Shard by shard (docs/scale-out.md): first an unlocked read of which platforms have due events
   * (`outbox-due-platforms`, the only statement that spans platforms, up to `limit` of them, the
   * longest waiting first), then one claim per platform, each pinned to its `platform_id` with
   * FOR UPDATE SKIP LOCKED, all in one transaction sent as one round trip.
   *
   * Fair across platforms: each platform gets at most `quota.perPlatform` of its oldest due heads
   * (less what the caller already holds of it, `quota.held`), dealt out round-robin (every
   * platform's oldest first, then every platform's second, ...) up to `limit`. One platform's
   * backlog therefore never fills a claim while another platform has due events. A platform that
   * turns out to have fewer heads than it was dealt (its due events wait behind earlier ones of
   * their aggregates, or another worker holds them) leaves its share to the others in a second
   * round.
   */
  async claimDue(
    now: Date,
    limit: number,
    quota: { perPlatform: number; held?: ReadonlyMap<string, number> } = { perPlatform: limit },
  ): Promise<ClaimedDelivery[]> {
    const held = quota.held ?? new Map<string, number>();
    const full = [...held].filter(([, n]) => n >= quota.perPlatform).map(([platformId]) => platformId);
    const due = await this.duePlatforms(now, limit, full);
    // What each platform may still take: its quota less what the caller holds, at most its due events.
    const room = new Map<string, number>();
    for (const d of due) {
      const n = Math.min(d.due, Math.max(0, quota.perPlatform - (held.get(d.platformId) ?? 0)));
      if (n > 0) room.set(d.platformId, n);
    }
    const got = new Map<string, ClaimedRow[]>();
    let total = 0;
    for (let round = 0; round < 2 && total < limit && room.size > 0; round++) {
      const dealt = deal(room, limit - total);
      const claimed = await this.claimPlatforms(now, dealt);
      let short = false;
      for (const [platformId, n] of dealt) {
        const rows = claimed.get(platformId) ?? [];
        got.set(platformId, [...(got.get(platformId) ?? []), ...rows]);
        total += rows.length;
        const left = room.get(platformId)! - rows.length;
        // Fewer heads than dealt: nothing more of it is claimable now.
        if (rows.length < n) short = true;
        if (rows.length < n || left <= 0) room.delete(platformId);
        else room.set(platformId, left);
      }
      if (!short) break; // every platform took its share: any room left is the limit's
    }
    // Dealt order: every platform's oldest (platforms by their oldest), then every second, ...
    const lists = [...got.values()]
      .filter((rows) => rows.length > 0)
      .map((rows) => rows.sort(byDue))
      .sort((a, b) => byDue(a[0], b[0]));
    const rows: ClaimedRow[] = [];
    for (let turn = 0; rows.length < total; turn++) for (const list of lists) if (list[turn]) rows.push(list[turn]);
    // The platforms' endpoints and keys, on another connection.
    const targets = await this.settings.webhookTargets(
      this.dataSource.manager,
      rows.map((r) => r.platform_id),
    );
    return rows.map((row) => ({ event: toClaimed(row), target: targets.get(row.platform_id)! }));
  }

  /**
   * The platforms with due events (up to `limit`, longest waiting first, `exclude` left out) and
   * how many each has: an unlocked read across every platform (cross-shard: outbox-due-platforms).
   * Counts every due event, not only aggregate heads: an upper bound of what a claim can take.
   */
  private async duePlatforms(
    now: Date,
    limit: number,
    exclude: string[],
  ): Promise<Array<{ platformId: string; due: number }>> {
    const rows = await this.dataSource.query<Array<{ platform_id: string; due: number }>>(
      `/* cross-shard: outbox-due-platforms */
       SELECT e.platform_id, count(*)::int AS due FROM outbox_events e
       WHERE e.status = 'PENDING' AND e.next_attempt_at <= $1 AND (e.locked_until IS NULL OR e.locked_until <= $1)
         AND e.platform_id <> ALL($2::uuid[])
       GROUP BY e.platform_id
       ORDER BY min(e.next_attempt_at), e.platform_id
       LIMIT $3`,
      [now, exclude, limit],
    );
    return rows.map((r) => ({ platformId: r.platform_id, due: r.due }));
  }

  /**
   * Claims up to `dealt.get(p)` due heads of each platform `p`, oldest first: one statement per
   * platform, pinned to it, FOR UPDATE SKIP LOCKED, all in one transaction and one round trip.
   */
  private async claimPlatforms(now: Date, dealt: ReadonlyMap<string, number>): Promise<Map<string, ClaimedRow[]>> {
    const claimed = new Map<string, ClaimedRow[]>();
    if (dealt.size === 0) return claimed;
    // One round trip: the transaction, its settings, the claims and the commit travel as one
    // simple-protocol query string (which carries no parameters: the values are written in as
    // escaped literals). A busy worker's event loop made each round trip take 5+ ms (the query
    // itself takes 0.5), and pg deprecates queuing several queries on one client.
    //
    // Each platform's due events must be walked in time order, stopping after its share. Right
    // after a burst of writes the table's statistics are stale (autoanalyze runs at most once a
    // minute) and the planner may then prefer a bitmap scan that checks the predecessors of every
    // pending row before sorting: 15 ms instead of 1 ms with 10,000 pending. Ruling bitmap scans
    // out for this transaction keeps the ordered, early-stopping plan whatever the statistics.
    // The planner cannot know how few rows each LIMIT takes, so it may price the claim above
    // jit_above_cost, and compiling it would then cost 50+ ms for 1 to 3 ms of work.
    // The commit need not wait for its WAL flush (synchronous_commit, this transaction only): a
    // claim lost to a database crash only leaves its events unleased, to be claimed again (at
    // least once), and its lost token keeps the holder's outcome from applying (fencing).
    const at = (d: Date) => `${escapeLiteral(d.toISOString())}::timestamptz`;
    const [$now, $until, $token] = [at(now), at(this.leaseEnd(now)), `${escapeLiteral(randomUUID())}::uuid`];
    const claims = [...dealt].map(([platformId, n]) => {
      const $p = `${escapeLiteral(platformId)}::uuid`;
      return `WITH due AS (
         SELECT e.id FROM outbox_events e
         WHERE e.platform_id = ${$p} AND e.status = 'PENDING' AND e.next_attempt_at <= ${$now}
           AND (e.locked_until IS NULL OR e.locked_until <= ${$now})
           AND e.seq = (
             -- Pending, spelled as outbox_events_unsettled_seq's predicate: no other index fits.
             SELECT min(p.seq) FROM outbox_events p
             WHERE p.platform_id = ${$p} AND p.aggregate_id = e.aggregate_id
               AND p.status <> 'DELIVERED' AND p.status <> 'FAILED')
         ORDER BY e.next_attempt_at, e.id
         LIMIT ${int(n)}
         FOR UPDATE OF e SKIP LOCKED
       ), claimed AS (
         UPDATE outbox_events e SET locked_until = ${$until}, lock_token = ${$token}
         FROM due WHERE e.platform_id = ${$p} AND e.id = due.id
         RETURNING ${RETURNING}, e.next_attempt_at
       )
       SELECT * FROM claimed;`;
    });
    const sql = `BEGIN; SET LOCAL enable_bitmapscan = off; SET LOCAL jit = off; SET LOCAL synchronous_commit = off;
      ${claims.join('\n      ')}
      COMMIT`;
    const runner = this.dataSource.createQueryRunner();
    try {
      // The driver's client itself: TypeORM's query() keeps only a single statement's result.
      const client = (await runner.connect()) as pg.PoolClient;
      this.dataSource.logger.logQuery(sql, undefined, runner); // as TypeORM's own queries are (statement checks)
      const results = (await client.query(sql)) as unknown as pg.QueryResult[];
      for (const r of results) {
        if (r.command !== 'SELECT') continue;
        for (const row of r.rows as ClaimedRow[]) {
          claimed.set(row.platform_id, [...(claimed.get(row.platform_id) ?? []), row]);
        }
      }
    } catch (error) {
      // A failed claim leaves the transaction open (aborted): never hand it back to the pool so.
      await runner.query(`ROLLBACK`).catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
    return claimed;
  }

  /**
   * Extends the leases of events this worker still holds (the same fencing token) to `now` plus
   * the lease. Returns the ids it still holds; an event missing from it was taken over by another
   * worker (this one stalled past its lease) or is no longer pending, and must not be sent.
   * One statement per platform (pinned), all in one round trip.
   */
  async renew(events: ClaimedEvent[], now: Date): Promise<Set<string>> {
    if (events.length === 0) return new Set();
    const until = `${escapeLiteral(this.leaseEnd(now).toISOString())}::timestamptz`;
    const rows = await this.perPlatform(
      events,
      (platform, ids, tokens) =>
        `UPDATE outbox_events e SET locked_until = ${until}
         FROM unnest(${ids}, ${tokens}) AS v(id, token)
         WHERE e.platform_id = ${platform} AND e.id = v.id AND e.lock_token = v.token AND e.status = 'PENDING'
         RETURNING e.id`,
    );
    return new Set(rows.map((r) => r.id as string));
  }

  /**
   * Runs one statement per platform of `events` (pinned: `platform` is its uuid literal, `ids` and
   * `tokens` its events' arrays), as one simple-protocol round trip; answers the rows they return.
   */
  private async perPlatform(
    events: ClaimedEvent[],
    statement: (platform: string, ids: string, tokens: string) => string,
  ): Promise<Array<Record<string, unknown>>> {
    const byPlatform = new Map<string, ClaimedEvent[]>();
    for (const e of events) byPlatform.set(e.platformId, [...(byPlatform.get(e.platformId) ?? []), e]);
    const uuids = (values: string[]) => `ARRAY[${values.map((v) => escapeLiteral(v)).join(',')}]::uuid[]`;
    const statements = [...byPlatform].map(([platformId, list]) =>
      statement(`${escapeLiteral(platformId)}::uuid`, uuids(list.map((e) => e.id)), uuids(list.map((e) => e.token))),
    );
    const runner = this.dataSource.createQueryRunner();
    try {
      const client = (await runner.connect()) as pg.PoolClient;
      const sql = statements.join(';\n');
      this.dataSource.logger.logQuery(sql, undefined, runner); // as TypeORM's own queries are (statement checks)
      // Several statements in one string run as one implicit transaction (all or none).
      const result = (await client.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
      return (Array.isArray(result) ? result : [result]).flatMap((r) => r.rows as Array<Record<string, unknown>>);
    } finally {
      await runner.release();
    }
  }

  private leaseEnd(now: Date): Date {
    return new Date(now.getTime() + this.config.OUTBOX_LEASE_MS);
  }

  /** Claims one event by id inside the caller's transaction (an event that is sent right away). */
  async claimOne(m: EntityManager, id: string, platformId: string, now: Date): Promise<ClaimedEvent> {
    const rows = await m.query<[ClaimedRow[], number]>(
      `UPDATE outbox_events e SET locked_until = $2, lock_token = $3 WHERE e.id = $1 AND e.platform_id = $4
       RETURNING ${RETURNING}`,
      [id, this.leaseEnd(now), randomUUID(), platformId],
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
    // One statement per platform (pinned), each its own transaction: a platform's outcomes apply
    // together with its attempts.
    const byPlatform = new Map<string, CompletedAttempt[]>();
    for (const d of done) byPlatform.set(d.event.platformId, [...(byPlatform.get(d.event.platformId) ?? []), d]);
    for (const [platformId, list] of byPlatform) {
      const col = <T>(f: (d: CompletedAttempt) => T) => list.map(f);
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
           WHERE e.platform_id = $11 AND e.id = v.id AND e.lock_token = v.token
           RETURNING e.id
         )
         INSERT INTO outbox_attempts (platform_id, event_id, attempted_at, duration_ms, response_status, response_body, error)
         SELECT $11::uuid, * FROM unnest($1::uuid[], $6::timestamptz[], $7::int[], $8::int[], $9::text[], $10::text[])`,
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
          platformId,
        ],
      );
    }
  }

  /** Gives claimed events back before their lease expires (a worker shutting down mid-delivery). */
  async release(events: ClaimedEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.perPlatform(
      events,
      (platform, ids, tokens) =>
        `UPDATE outbox_events e SET locked_until = NULL, lock_token = NULL
         FROM unnest(${ids}, ${tokens}) AS v(id, token)
         WHERE e.platform_id = ${platform} AND e.id = v.id AND e.lock_token = v.token`,
    );
  }

  /** How many events are pending (all platforms) and when the oldest was written: for the metrics. */
  async pendingStats(): Promise<{ count: number; oldest: Date | null }> {
    const [row] = await this.dataSource.query<Array<{ count: string; oldest: Date | null }>>(
      `/* cross-shard: outbox-pending-gauge */ SELECT count(*) AS count, min(created_at) AS oldest FROM outbox_events WHERE status = 'PENDING'`,
    );
    return { count: Number(row.count), oldest: row.oldest };
  }
}
