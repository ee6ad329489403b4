import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { Runtime } from '../config/config.module.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { dataSourceUrl, NotificationListener, notificationsReachOtherConnections } from './notification-listener.js';
import { OUTBOX_CHANNEL } from './outbox.service.js';
import { ClaimedDelivery, ClaimedEvent, CompletedAttempt, OutboxStore } from './outbox.store.js';

/** Most events one claim query takes. */
const MAX_CLAIM = 100;
/** On shutdown, how long in-flight deliveries get to finish before their leases are given back. */
const SHUTDOWN_GRACE_MS = 12_000;

/**
 * The worker: claims due events (FOR UPDATE SKIP LOCKED, under a lease, heads of their aggregates
 * only), delivers them with bounded concurrency, and records every attempt and its outcome.
 *
 * It runs in processes whose ROLE is `worker` or `all`. It wakes on NOTIFY when an event commits
 * (PostgreSQL), when recorded outcomes may have made more events due (a successor in an aggregate,
 * a free slot), and by polling every OUTBOX_POLL_INTERVAL_MS (at most 1 s) as a backstop, which is
 * the only mechanism on the embedded engine. Tests drive it with `runOnce`/`drain` instead.
 */
@Injectable()
export class OutboxDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('outbox');
  private readonly concurrency: number;
  private readonly pollMs: number;
  private loopDone: Promise<void> | null = null;
  private stopping = false;
  /** Claimed events waiting for a delivery slot (claiming runs up to one batch ahead of delivering). */
  private readonly ready: ClaimedDelivery[] = [];
  /** Deliveries in flight, by event id. */
  private readonly inflight = new Map<string, { event: ClaimedEvent; done: Promise<void> }>();
  /** Finished attempts waiting to be recorded (recorded in batches, one statement each). */
  private readonly finished: CompletedAttempt[] = [];
  private flushing: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  /** The last claim filled its batch: more may be due, so a freed slot should claim again. */
  private backlog = false;
  private listener: NotificationListener | null = null;

  constructor(
    config: AppConfig,
    private readonly runtime: Runtime,
    private readonly store: OutboxStore,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly dataSource: DataSource,
  ) {
    this.concurrency = config.OUTBOX_CONCURRENCY;
    this.pollMs = config.OUTBOX_POLL_INTERVAL_MS;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.runtime.runWorker) await this.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  get running(): boolean {
    return this.loopDone !== null;
  }

  /** Starts the background loop (and LISTEN, on PostgreSQL). */
  async start(): Promise<void> {
    if (this.loopDone) return;
    this.stopping = false;
    if (await notificationsReachOtherConnections(this.dataSource)) {
      this.listener = new NotificationListener(dataSourceUrl(this.dataSource), OUTBOX_CHANNEL, {
        onNotification: () => this.wake(),
        onConnected: () => this.wake(),
      });
      await this.listener.start();
    }
    this.loopDone = this.loop();
    this.logger.log({ concurrency: this.concurrency, listen: this.listener !== null }, 'outbox worker started');
  }

  /**
   * Stops claiming, lets in-flight deliveries finish (each ends within the HTTP timeout) and
   * records them; whatever is still out after the grace period is released for another worker.
   */
  async stop(graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
    if (!this.loopDone) return;
    this.stopping = true;
    this.wake();
    await this.loopDone;
    await this.listener?.stop();
    this.listener = null;
    const notStarted = this.ready.splice(0).map((r) => r.event);
    const out = [...this.inflight.values()];
    if (out.length) {
      const timer = delay(graceMs, undefined, { ref: false });
      await Promise.race([Promise.all(out.map((d) => d.done)), timer]);
    }
    await this.flush();
    const stuck = [...notStarted, ...[...this.inflight.values()].map((d) => d.event)];
    this.inflight.clear();
    if (stuck.length) {
      await this.store.release(stuck).catch((error: unknown) => this.logger.error({ err: error }, 'release failed'));
    }
    this.loopDone = null;
    this.logger.log({ released: stuck.length }, 'outbox worker stopped');
  }

  /**
   * One dispatch cycle, in the caller's time: claim what is due now (up to `limit`), deliver it
   * all, record the outcomes. Returns the finished attempts.
   */
  async runOnce(limit = this.concurrency): Promise<CompletedAttempt[]> {
    const claimed = await this.store.claimDue(this.clock.now(), Math.min(limit, MAX_CLAIM));
    if (claimed.length === 0) return [];
    const done = await Promise.all(claimed.map(({ event, target }) => this.sender.send(event, target)));
    await this.recordBatch(done);
    return done;
  }

  /** Cycles until nothing is due at the clock's current time. */
  async drain(maxCycles = 1000): Promise<CompletedAttempt[]> {
    const all: CompletedAttempt[] = [];
    for (let i = 0; i < maxCycles; i++) {
      const done = await this.runOnce();
      if (done.length === 0) return all;
      all.push(...done);
    }
    throw new Error(`outbox not drained after ${maxCycles} cycles`);
  }

  /** Waits until nothing is in flight and every attempt is recorded. */
  async idle(): Promise<void> {
    while (this.inflight.size || this.finished.length || this.flushing) {
      await Promise.all([...this.inflight.values()].map((d) => d.done));
      await this.flush();
    }
  }

  /** Waits until every finished attempt so far is recorded. */
  async flush(): Promise<void> {
    if (this.finished.length) this.scheduleFlush();
    while (this.flushing) await this.flushing;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      // Keep up to one batch claimed ahead of the slots, so a slot never waits for a claim query.
      const room = Math.min(2 * this.concurrency - this.inflight.size - this.ready.length, MAX_CLAIM);
      if (room > 0) {
        let claimed: number;
        try {
          claimed = await this.claim(room);
        } catch (error) {
          this.logger.error({ err: error }, 'outbox claim failed');
          await this.sleep(this.pollMs);
          continue;
        }
        this.pump();
        if (claimed === room) continue; // likely more due
      }
      await this.sleep(this.pollMs); // a NOTIFY, a freed slot, a recorded outcome or stop() wakes it early
    }
  }

  private async claim(limit: number): Promise<number> {
    const claimed = await this.store.claimDue(this.clock.now(), limit);
    this.ready.push(...claimed);
    this.backlog = claimed.length === limit;
    return claimed.length;
  }

  /** Starts deliveries from the claimed-ahead buffer while slots are free. */
  private pump(): void {
    while (!this.stopping && this.inflight.size < this.concurrency && this.ready.length > 0) {
      const { event, target } = this.ready.shift()!;
      const done = this.sender.send(event, target).then(
        (attempt) => {
          if (!this.inflight.delete(event.id)) return; // released at shutdown: its outcome no longer applies
          this.finished.push(attempt);
          this.scheduleFlush();
          this.pump();
          if (this.backlog && this.ready.length < this.concurrency) this.wake(); // claim the next batch
        },
        (error: unknown) => {
          // Not expected (send reports failures as attempts); the lease expires and it is retried.
          this.inflight.delete(event.id);
          this.logger.error({ err: error, event: event.id }, 'webhook delivery crashed');
        },
      );
      this.inflight.set(event.id, { event, done });
    }
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      while (this.finished.length) {
        await this.recordBatch(this.finished.splice(0));
        this.wake(); // successors may be due now, and slots are free
      }
    })().finally(() => {
      this.flushing = null;
    });
  }

  private async recordBatch(done: CompletedAttempt[]): Promise<void> {
    try {
      await this.store.record(done);
    } catch (error) {
      // The events keep their leases; when those expire they are delivered again (at least once).
      this.logger.error({ err: error, count: done.length }, 'recording webhook attempts failed');
    }
  }

  private wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wakeUp = finish;
    });
  }

  /** LISTEN works on PostgreSQL; the embedded engine (PGlite, even behind a DATABASE_URL) has no NOTIFY delivery. */
}
