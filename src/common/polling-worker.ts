import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
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
 * src/common/schedules.ts names) is the subclass's; tests call `runOnce` directly.
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
