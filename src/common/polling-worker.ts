import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Runtime } from '../config/config.module.js';

export interface PollingLoop {
  runtime: Runtime;
  /** How often a pass starts (a pass still running skips the tick). */
  intervalMs: number;
  logger: Logger;
  /** The log message of a failed pass. */
  failure: string;
}

/**
 * The loop every background worker shares: on worker processes (ROLE `worker` or `all`) it calls
 * `runOnce` every `intervalMs`, never two passes at once, and shutdown waits for the pass in
 * flight. What a pass does (claim due rows FOR UPDATE SKIP LOCKED and act on them, on the clock
 * src/common/schedules.ts names) is the subclass's; tests call `runOnce` directly. A claim never
 * locks rows across platforms (shards): see `perDuePlatform`.
 */
export abstract class PollingWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;

  protected constructor(private readonly loop: PollingLoop) {}

  abstract runOnce(): Promise<unknown>;

  onApplicationBootstrap(): void {
    if (!this.loop.runtime.runWorker) return;
    this.timer = setInterval(() => this.tick(), this.loop.intervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  private tick(): void {
    if (this.inFlight) return;
    this.inFlight = this.runOnce()
      .then(() => undefined)
      .catch((error: unknown) => this.loop.logger.error({ err: error }, this.loop.failure))
      .finally(() => {
        this.inFlight = null;
      });
  }
}

/**
 * The platforms with due rows, from an unlocked read across platforms: `sql` must carry its
 * `/* cross-shard: <name> *\/` tag (listed in src/database/distribution.json) and answer
 * `platform_id`, at most DUE_PLATFORMS rows, the longest waiting first.
 */
export async function duePlatformIds(m: EntityManager, sql: string, parameters: unknown[]): Promise<string[]> {
  if (!/\/\* cross-shard: [a-z0-9-]+ \*\//.test(sql))
    throw new Error('a due-platforms read carries its cross-shard tag');
  const rows = await m.query<Array<{ platform_id: string }>>(sql, parameters);
  return rows.map((r) => r.platform_id);
}

/** Most platforms one pass's due-platforms read answers (the pass's batch bounds the work too). */
export const DUE_PLATFORMS = 50;

/**
 * A worker pass the sharded way (docs/scale-out.md): which platforms have due rows comes from one
 * unlocked read (`due`, see duePlatformIds; skipped when the pass is `platformId`'s only, as tests
 * drive it), then `claim` takes each one's rows pinned to its `platform_id` (FOR UPDATE SKIP LOCKED,
 * in a transaction of that platform's) and answers how many it took; the pass stops once `batch`
 * rows were taken, as one claim of `batch` across every platform did before.
 */
export async function perDuePlatform(
  platformId: string | undefined,
  due: () => Promise<string[]>,
  batch: number,
  claim: (platformId: string, limit: number) => Promise<number>,
): Promise<void> {
  let left = batch;
  for (const p of platformId ? [platformId] : await due()) {
    if (left <= 0) return;
    left -= await claim(p, left);
  }
}
