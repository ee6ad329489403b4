import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { Runtime } from '../config/config.module.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { ActorType, AuditRecord, canonical, linkHash, NIL_CHAIN } from './audit-record.js';

/** Events linked per transaction (a pass runs batches until the sealable tail is empty). */
const BATCH = 2000;
/** pg_try_advisory_xact_lock key: one sealer at a time across every worker process. */
const SEALER_LOCK = 728_100_001;

/** An appended event as stored (the columns its canonical text and chain need). */
export interface StoredEvent {
  id: string;
  chain: string;
  platform_id: string | null;
  created_at: Date;
  actor_type: string;
  actor_id: string | null;
  action: string;
  resource_ids: string[];
  status: number;
  error_code: string | null;
  request_id: string | null;
  source_address: string | null;
  user_agent: string | null;
  changed_fields: string[];
  count: number;
  last_seen: Date | null;
}

export const STORED_COLUMNS = `id, chain, platform_id, created_at, actor_type, actor_id, action, resource_ids, status,
  error_code, request_id, source_address, user_agent, changed_fields, count, last_seen`;

/** The record a stored row was appended from (for its canonical text). */
export function storedRecord(row: StoredEvent): AuditRecord {
  return {
    id: row.id,
    platformId: row.platform_id,
    createdAt: row.created_at,
    actorType: row.actor_type as ActorType,
    actorId: row.actor_id,
    action: row.action,
    resourceIds: row.resource_ids,
    status: row.status,
    errorCode: row.error_code,
    requestId: row.request_id,
    sourceAddress: row.source_address,
    userAgent: row.user_agent,
    changedFields: row.changed_fields,
    count: row.count,
    lastSeen: row.last_seen,
  };
}

/**
 * Every unsealed event of one chain ($1) this transaction can see (committed), oldest append
 * first, pinned to the chain's platform (the chain is the platform; unattributed events, the nil
 * chain, have none). No watermark:
 * chain positions are given here, at sealing, so an event whose transaction commits after others
 * (its append sequence taken earlier, at insert) is simply not visible yet and is sealed in a later
 * round, after them: nothing is skipped, nothing is ever placed behind an event already sealed, and
 * a chain's order is the order in which its events became visible (commit order, to the round).
 * No horizon of in-flight transactions either (`pg_snapshot_xmin` is cluster-wide: one long
 * transaction in any database of the server would hold every seal back).
 */
const sealableSql = (pin: string) =>
  `SELECT ${STORED_COLUMNS} FROM audit_events WHERE ${pin} AND chain = $1 AND hash IS NULL ORDER BY pos LIMIT ${BATCH}`;

/** The chains with unsealed events, oldest append first: an unlocked read across platforms. */
const UNSEALED_CHAINS_SQL = `/* cross-shard: audit-unsealed-chains */
  SELECT chain FROM audit_events WHERE hash IS NULL GROUP BY chain ORDER BY min(pos) LIMIT ${BATCH}`;

const sealSql = (pin: string) => `UPDATE audit_events e SET seq = v.seq, prev_hash = v.prev_hash, hash = v.hash
  FROM unnest($2::uuid[], $3::bigint[], $4::text[], $5::text[]) AS v(id, seq, prev_hash, hash)
  WHERE ${pin} AND e.chain = $1 AND e.id = v.id AND e.hash IS NULL`;

/** A chain's rows pinned to its platform (`platform_id = $1`; the nil chain's have no platform). */
const pinOf = (chain: string, alias = '') =>
  chain === NIL_CHAIN ? `${alias}platform_id IS NULL` : `${alias}platform_id = $1`;

const HEADS_SQL = `INSERT INTO audit_heads AS h (chain, platform_id, seq, prev_hash, hash)
  SELECT v.chain, v.chain, v.seq, v.prev_hash, v.hash
    FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::text[]) AS v(chain, seq, prev_hash, hash)
  ON CONFLICT (chain, platform_id) DO UPDATE SET seq = excluded.seq, prev_hash = excluded.prev_hash, hash = excluded.hash`;

/**
 * Links appended audit events into their chains, the way a transparency log's sequencer does:
 * requests append events unlinked (no shared row, no wait), and this worker job, every
 * AUDIT_SEAL_INTERVAL_MS, takes the committed unsealed events (see sealableSql) in append order and gives
 * each event its chain's next number, the previous hash and its own (sha256 of the previous hash
 * and its canonical text, as before), advancing each chain's head, in one transaction per batch.
 * One sealer at a time (an advisory lock); the others skip the round. Publishes
 * `audit_unsealed_events` and `audit_seal_lag_seconds` at scrape time.
 */
@Injectable()
export class AuditSealer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('audit');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly runtime: Runtime,
    private readonly metrics: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    this.metrics.onCollect(() => this.collect());
    if (!this.runtime.runWorker) return;
    this.timer = setInterval(() => {
      this.sealOnce().catch((error: unknown) =>
        this.logger.error({ err: (error as Error).message }, 'audit sealing failed'),
      );
    }, this.config.AUDIT_SEAL_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** One round: seals batches until the sealable tail is empty. Answers how many events it sealed. */
  sealOnce(): Promise<number> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * Waits until every event appended before the call (by a transaction that had started) is
   * sealed: rounds until none of them is left unsealed (one whose transaction is still open is
   * waited for).
   */
  async settle(): Promise<void> {
    const [{ xmax }] = await this.db.query<Array<{ xmax: string }>>(
      'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax',
    );
    for (;;) {
      await this.sealOnce();
      const [left] = await this.db.query<unknown[]>(
        '/* cross-shard: audit-unsealed-left */ SELECT 1 FROM audit_events WHERE hash IS NULL AND txid < $1::xid8 LIMIT 1',
        [xmax],
      );
      if (!left) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Which chains have unsealed events comes from one unlocked read across platforms
   * (cross-shard: audit-unsealed-chains); each chain is then sealed in transactions of its own,
   * pinned to its platform, a batch at a time.
   */
  private async round(): Promise<number> {
    let sealed = 0;
    for (;;) {
      const chains = (await this.db.query<Array<{ chain: string }>>(UNSEALED_CHAINS_SQL)).map((r) => r.chain);
      if (!chains.length) return sealed;
      let full = false;
      for (const chain of chains) {
        for (;;) {
          const n = await this.db.transaction((m) => this.sealBatch(m, chain));
          if (n === null) return sealed;
          sealed += n;
          if (n < BATCH) break;
          full = true;
        }
      }
      // Every chain read was sealed to its end: anything newer waits for the next round, unless
      // the read may have left chains out (it answers at most a batch of them) or a chain was long.
      if (chains.length < BATCH && !full) return sealed;
    }
  }

  /** One batch of `chain` in the caller's transaction; null when another sealer holds the lock. */
  private async sealBatch(m: EntityManager, chain: string): Promise<number | null> {
    const [{ locked }] = await m.query<Array<{ locked: boolean }>>('SELECT pg_try_advisory_xact_lock($1) AS locked', [
      SEALER_LOCK,
    ]);
    if (!locked) return null;
    const rows = await m.query<StoredEvent[]>(sealableSql(pinOf(chain)), [chain]);
    if (!rows.length) return 0;
    const heads = new Map<string, { seq: number; hash: string | null }>();
    const headRows = await m.query<Array<{ chain: string; seq: string; hash: string }>>(
      'SELECT chain, seq, hash FROM audit_heads WHERE platform_id = $1 AND chain = $1 FOR UPDATE',
      [chain],
    );
    for (const h of headRows) heads.set(h.chain, { seq: Number(h.seq), hash: h.hash });
    const ids: string[] = [];
    const seqs: number[] = [];
    const prevs: Array<string | null> = [];
    const hashes: string[] = [];
    const lastOf = new Map<string, number>();
    for (const row of rows) {
      lastOf.set(row.chain, ids.length);
      const head = heads.get(row.chain) ?? { seq: 0, hash: null };
      const hash = linkHash(head.hash, canonical(storedRecord(row)));
      ids.push(row.id);
      seqs.push(head.seq + 1);
      prevs.push(head.hash);
      hashes.push(hash);
      heads.set(row.chain, { seq: head.seq + 1, hash });
    }
    await m.query(sealSql(pinOf(chain, 'e.')), [chain, ids, seqs, prevs, hashes]);
    const last = [...lastOf].map(([chain, i]) => ({ chain, seq: seqs[i], prev: prevs[i], hash: hashes[i] }));
    await m.query(HEADS_SQL, [
      last.map((l) => l.chain),
      last.map((l) => l.seq),
      last.map((l) => l.prev),
      last.map((l) => l.hash),
    ]);
    return rows.length;
  }

  /** The unsealed events and the age of the oldest (by the database's clock), at scrape time. */
  private async collect(): Promise<void> {
    const [row] = await this.db.query<Array<{ n: number; lag: number | null }>>(
      `/* cross-shard: audit-unsealed-gauge */ SELECT count(*)::int AS n, extract(epoch FROM now() - min(appended_at))::float8 AS lag
       FROM audit_events WHERE hash IS NULL`,
    );
    this.metrics.auditUnsealedEvents.set(row.n);
    this.metrics.auditSealLag.set(Math.max(0, row.lag ?? 0));
  }
}
