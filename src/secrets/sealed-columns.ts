import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { ConfigError } from '../config/app-config.js';
import { Runtime } from '../config/config.module.js';
import { TransactionService } from '../database/transaction.service.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { SecretBox } from './secret-box.js';

/** What `countByKid` reports for values sealed before key ids were recorded (`v1.`). */
export const LEGACY = 'legacy';

/**
 * One column (or JSON field) holding values sealed by `SecretBox`, contributed to `SealedColumns`
 * by the area that owns its table, which alone knows how to read and rewrite it.
 */
export interface SealedColumn {
  /** `table.column`, for progress lines. */
  readonly name: string;
  /** How many values each recorded key id seals (`LEGACY` for `v1` values). */
  countByKid(): Promise<Map<string, number>>;
  /**
   * Re-seals up to `limit` values not sealed by the current key, in one transaction, without ever
   * overwriting a concurrent write; answers how many it rewrote (0: none left that it could lock).
   */
  resealBatch(limit: number): Promise<number>;
}

/** Where a sealed value lives in an owner's table (trusted SQL fragments, written by that owner). */
export interface SealedColumnSql {
  name: string;
  table: string;
  /**
   * The row's key columns. A table distributed by platform (src/database/distribution.json) lists
   * `platform_id` among them: its values are then re-sealed one platform at a time, each batch
   * locking rows of one platform only.
   */
  keys: string[];
  /** SQL reading the sealed string (a column, or e.g. `response_body->>'sealed'`). */
  value: string;
  /** SQL for the `SET` clause writing the sealed string held in parameter `param` (e.g. `$3`). */
  assign: (param: string) => string;
  /** Extra condition for rows whose value is sealed (e.g. excluding legacy plain text). */
  where?: string;
}

/**
 * A `SealedColumn` over plain SQL: each batch locks its rows (`FOR UPDATE SKIP LOCKED`, so a
 * request holding a row is never waited on and never overwritten: the row is taken by a later
 * batch), and rewrites each one only while it still holds the value read (compare-and-set).
 */
export class SqlSealedColumn implements SealedColumn {
  readonly name: string;
  private platformColumn: Promise<boolean> | undefined;

  constructor(
    private readonly sql: SealedColumnSql,
    private readonly box: SecretBox,
    private readonly tx: TransactionService,
  ) {
    this.name = sql.name;
  }

  async countByKid(): Promise<Map<string, number>> {
    const v = this.sql.value;
    const rows = await this.tx.manager.query<Array<{ kid: string; n: number | string }>>(
      `/* cross-shard: sealed-values-count */
       SELECT CASE WHEN left(${v}, 3) = 'v2.' THEN split_part(${v}, '.', 2) ELSE '${LEGACY}' END AS kid,
              count(*) AS n
         FROM ${this.sql.table} WHERE ${this.sealedRows()} GROUP BY 1`,
    );
    return new Map(rows.map((r) => [r.kid, Number(r.n)]));
  }

  /**
   * One batch. On a table of platforms' rows (it has `platform_id`), which platforms have values
   * to re-seal is an unlocked read across platforms (cross-shard: sealed-values-platforms), and
   * the batch locks and rewrites one platform's rows at a time, pinned to it: no lock spans shards.
   */
  async resealBatch(limit: number): Promise<number> {
    const prefix = `v2.${this.box.currentKeyId}.`;
    const stale = `${this.sealedRows()} AND left(${this.sql.value}, $1::int) <> $2`;
    if (!(await this.perPlatform())) return this.resealIn(limit, prefix, stale, null);
    const platforms = await this.tx.manager.query<Array<{ platform_id: string }>>(
      `/* cross-shard: sealed-values-platforms */
       SELECT platform_id FROM ${this.sql.table} WHERE ${stale} GROUP BY platform_id LIMIT 50`,
      [prefix.length, prefix],
    );
    let rewritten = 0;
    for (const { platform_id: platformId } of platforms) {
      if (rewritten >= limit) break;
      rewritten += await this.resealIn(limit - rewritten, prefix, stale, platformId);
    }
    return rewritten;
  }

  private resealIn(limit: number, prefix: string, stale: string, platformId: string | null): Promise<number> {
    const { table, keys, value, assign } = this.sql;
    const pin = platformId === null ? '' : ' AND platform_id = $3';
    return this.tx.run(async (m) => {
      const rows = await m.query<Array<Record<string, unknown> & { sealed: string }>>(
        `SELECT ${keys.join(', ')}, ${value} AS sealed FROM ${table}
          WHERE ${stale}${pin}
          LIMIT ${Math.max(1, Math.floor(limit))} FOR UPDATE SKIP LOCKED`,
        platformId === null ? [prefix.length, prefix] : [prefix.length, prefix, platformId],
      );
      let rewritten = 0;
      for (const row of rows) {
        const resealed = this.box.seal(this.box.open(row.sealed));
        const match = keys.map((k, i) => `${k} = $${i + 1}`).join(' AND ');
        const n = keys.length;
        const pinned = platformId === null ? '' : ` AND platform_id = $${n + 3}`;
        const [, count] = await m.query<[unknown, number]>(
          `UPDATE ${table} SET ${assign(`$${n + 1}`)} WHERE ${match} AND ${value} = $${n + 2}${pinned}`,
          [...keys.map((k) => row[k]), resealed, row.sealed, ...(platformId === null ? [] : [platformId])],
        );
        rewritten += count;
      }
      return rewritten;
    });
  }

  /** Whether the table holds platforms' rows (a `platform_id` column), asked of the catalog once. */
  private perPlatform(): Promise<boolean> {
    this.platformColumn ??= this.tx.manager
      .query<unknown[]>(
        `SELECT 1 FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'platform_id'`,
        [this.sql.table],
      )
      .then((rows) => rows.length > 0);
    return this.platformColumn;
  }

  private sealedRows(): string {
    return `${this.sql.value} IS NOT NULL${this.sql.where ? ` AND (${this.sql.where})` : ''}`;
  }
}

/** Values each configured key (or unknown key id, or `LEGACY`) seals, summed over every column. */
export type KeyCounts = Map<string, number>;

const METRIC_REFRESH_MS = 60_000;

/**
 * Every sealed column of the application (its owners register theirs when they are built), and what
 * a key rotation needs of them: counts by key, re-sealing under the current key, and the boot check
 * that the ring opens every stored value.
 */
@Injectable()
export class SealedColumns implements OnModuleInit {
  private readonly logger = new Logger(SealedColumns.name);
  private readonly columns: SealedColumn[] = [];
  private metricAt = -Infinity;

  constructor(
    private readonly box: SecretBox,
    private readonly tx: TransactionService,
    private readonly metrics: MetricsService,
    private readonly runtime: Runtime,
  ) {}

  /** Called by a column's owner (in its constructor). */
  register(column: SealedColumn | SealedColumnSql): void {
    this.columns.push('countByKid' in column ? column : new SqlSealedColumn(column, this.box, this.tx));
  }

  get all(): readonly SealedColumn[] {
    return this.columns;
  }

  /**
   * How many values each key seals: by the ring's configured id (a value recording a key's derived
   * id counts under that key), by the recorded id when no key of the ring has it, `LEGACY` for v1.
   */
  async countByKey(): Promise<KeyCounts> {
    const totals: KeyCounts = new Map(this.box.keyIds.map((id) => [id, 0]));
    for (const column of this.columns) {
      for (const [kid, n] of await column.countByKid()) {
        const key = kid === LEGACY ? LEGACY : (this.box.ownerOf(kid) ?? kid);
        totals.set(key, (totals.get(key) ?? 0) + n);
      }
    }
    return totals;
  }

  /** Recorded key ids no key of the ring opens, with how many values each seals. */
  async unknownKeys(): Promise<KeyCounts> {
    const counts = await this.countByKey();
    return new Map([...counts].filter(([id, n]) => n > 0 && id !== LEGACY && !this.box.keyIds.includes(id)));
  }

  /**
   * Re-seals every value not under the current key, batch by batch, until none is left; a value
   * locked by a request is retried by a later pass. `onBatch` sees each column's progress.
   */
  async resealAll(batchSize: number, onBatch: (column: string, rewritten: number) => void): Promise<void> {
    for (const column of this.columns) {
      let idle = 0;
      while (idle < 50) {
        const rewritten = await column.resealBatch(batchSize);
        if (rewritten > 0) {
          idle = 0;
          onBatch(column.name, rewritten);
          continue;
        }
        if (!(await this.remaining(column))) break;
        idle += 1; // rows left but locked by requests right now: wait for them
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  private async remaining(column: SealedColumn): Promise<number> {
    let n = 0;
    for (const [kid, count] of await column.countByKid()) if (kid !== this.box.currentKeyId) n += count;
    return n;
  }

  /** The boot check (skipped by the `keys:` commands), and the `sealed_values` gauge. */
  async onModuleInit(): Promise<void> {
    this.metrics.onCollect(() => this.refreshMetric());
    if (!this.runtime.checkKeyRing) return;
    const unknown = await this.unknownKeys();
    if (unknown.size) {
      const list = [...unknown].map(([id, n]) => `key ${id} still seals ${n} value${n === 1 ? '' : 's'}`).join('; ');
      throw new ConfigError([
        `KEY_ENCRYPTION_KEYS lacks keys that stored values need: ${list}. Put the key back in the ring, ` +
          'or finish keys:rotate before removing it (see docs/key-rotation.md).',
      ]);
    }
  }

  /** At most once a minute, at scrape time: the counts scan every sealed column. */
  private async refreshMetric(): Promise<void> {
    const now = performance.now();
    if (now - this.metricAt < METRIC_REFRESH_MS) return;
    this.metricAt = now;
    try {
      const counts = await this.countByKey();
      this.metrics.sealedValues.reset();
      for (const [key, n] of counts) this.metrics.sealedValues.set({ key }, n);
    } catch (err) {
      this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'sealed value counts not refreshed');
    }
  }
}
