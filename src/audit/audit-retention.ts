import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RealClock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { Runtime } from '../config/config.module.js';
import { NIL_CHAIN } from './audit-record.js';

const HOUR_MS = 3_600_000;

/** The chains (platforms) holding sealed events past the cutoff ($1): read without a lock. */
const DOOMED_CHAINS_SQL = `SELECT /* cross-shard: audit-retention-chains */ DISTINCT chain FROM audit_events
  WHERE created_at < $1 AND seq IS NOT NULL`;

/**
 * One chain's retention ($1 cutoff, $2 chain): on a platform's own rows (`platform_id = $2`), or,
 * for the unattributed chain, on the rows without a platform.
 */
const retentionSql = (attributed: boolean) => {
  const own = attributed ? 'platform_id = $2::uuid' : 'platform_id IS NULL';
  return `WITH doomed AS (
  SELECT chain, max(seq) AS upto FROM audit_events
   WHERE ${own} AND chain = $2::uuid AND created_at < $1 AND seq IS NOT NULL GROUP BY chain
), gone AS (
  DELETE FROM audit_events e USING doomed d
   WHERE e.${own} AND e.chain = $2::uuid AND e.chain = d.chain AND e.seq <= d.upto RETURNING e.chain, e.seq, e.hash
), last AS (
  SELECT DISTINCT ON (chain) chain, seq, hash FROM gone ORDER BY chain, seq DESC
), floors AS (
  UPDATE audit_heads h SET floor_seq = last.seq, floor_hash = last.hash FROM last
   WHERE h.platform_id = $2::uuid AND h.chain = $2::uuid AND h.chain = last.chain RETURNING 1
)
SELECT count(*)::int AS n FROM gone`;
};
const RETENTION_SQL = retentionSql(true);
const UNATTRIBUTED_RETENTION_SQL = retentionSql(false);

/**
 * Deletes audit events older than AUDIT_RETENTION_DAYS: the only deletion the table's trigger
 * allows, because each batch's transaction sets `audit.retention = on` first. Runs in worker
 * processes (ROLE=worker or all), at start and hourly.
 */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('audit');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: DataSource,
    private readonly clock: RealClock,
    private readonly config: AppConfig,
    private readonly runtime: Runtime,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.runtime.runWorker) return;
    const run = (): void => {
      this.runOnce().catch((error: unknown) =>
        this.logger.error({ err: (error as Error).message }, 'audit retention failed'),
      );
    };
    run();
    this.timer = setInterval(run, HOUR_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * Deletes what is past retention: per chain, every event up to the newest one created before the
   * cutoff (a prefix of the chain, so no gap is left), and records the last deleted event as the
   * chain's floor, where `audit:verify` expects the kept chain to start. Answers how many were deleted.
   */
  async runOnce(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - this.config.AUDIT_RETENTION_DAYS * 24 * HOUR_MS);
    const deleted = await this.db.transaction(async (m) => {
      await m.query(`SET LOCAL audit.retention = 'on'`);
      const chains = await m.query<Array<{ chain: string }>>(DOOMED_CHAINS_SQL, [cutoff]);
      let n = 0;
      for (const { chain } of chains) {
        const sql = chain === NIL_CHAIN ? UNATTRIBUTED_RETENTION_SQL : RETENTION_SQL;
        const [row] = await m.query<Array<{ n: number }>>(sql, [cutoff, chain]);
        n += row.n;
      }
      return n;
    });
    if (deleted) this.logger.log({ deleted, cutoff: cutoff.toISOString() }, 'audit events past retention deleted');
    return deleted;
  }
}
