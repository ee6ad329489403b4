import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { setTimeout as delay } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { formatId } from '../common/ids.js';
import { RealClock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { Runtime } from '../config/config.module.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { listenUrl, NotificationListener, notificationsReachOtherConnections } from '../database/notifications.js';
import { OUTBOX_CHANNEL } from './outbox.service.js';
import { ClaimedDelivery, ClaimedEvent, CompletedAttempt, OutboxStore } from './outbox.store.js';
import type { WebhookEventStatus } from './webhook-types.js';

/**
 * The worker's in-process lifecycle events (`@nestjs/event-emitter`): observers such as tests and
 * metrics await or count them without reaching into the dispatcher.
 * Emitted after attempts are recorded: `{outcomes: [{id: 'Webhook:…', status}]}`.
 */
export const OUTBOX_RECORDED = 'outbox.recorded';
export interface OutboxRecorded {
  outcomes: Array<{ id: string; status: WebhookEventStatus }>;
}

/** Emitted (in-process) after the worker renewed the leases it holds: `{renewed, lost}` counts. */
export const OUTBOX_LEASES_RENEWED = 'outbox.leases-renewed';
export interface OutboxLeasesRenewed {
  renewed: number;
  lost: number;
}

/**
 * Emitted (in-process) when the worker's LISTEN connection is established or lost:
 * `{connected}`. Readiness follows it (`listening`).
 */
export const OUTBOX_LISTENER = 'outbox.listener';
export interface OutboxListenerState {
  connected: boolean;
}

let instances = 0;

/** Most events one claim query takes. */
const MAX_CLAIM = 100;
/** What shutdown keeps for itself after the worker's grace (records, releases, closing the pool). */
const SHUTDOWN_RESERVE_MS = 3_000;

/** Claimed events of one endpoint waiting for a slot, and how many of its requests are out. */
interface Lane {
  ready: ClaimedDelivery[];
  inflight: number;
}

/**
 * The worker: claims due events (FOR UPDATE SKIP LOCKED, under a lease, heads of their aggregates
 * only), delivers them with bounded concurrency, and records every attempt and its outcome.
 *
 * Fair: at most OUTBOX_ENDPOINT_CONCURRENCY requests go to one endpoint at once, at most twice
 * that is held per endpoint (in flight plus claimed ahead), the claim deals events out
 * round-robin across platforms, and free slots are handed out round-robin across endpoints. A
 * slow receiver therefore holds a few slots, never all of them.
 *
 * While it runs it renews the leases of everything it holds every third of OUTBOX_LEASE_MS, so
 * the lease can be short: a worker that dies loses its events to another within about a lease.
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
  private readonly endpointConcurrency: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  /** On shutdown, how long in-flight deliveries get to finish before their leases are given back. */
  private readonly shutdownGraceMs: number;
  private heartbeat: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private loopDone: Promise<void> | null = null;
  private stopping = false;
  /**
   * Claimed events waiting for a delivery slot, per endpoint (claiming runs up to one batch ahead
   * of delivering). Map order is the round-robin order: a lane that gets a slot moves to the back.
   */
  private readonly lanes = new Map<string, Lane>();
  private readyCount = 0;
  /** Deliveries in flight, by event id. */
  private readonly inflight = new Map<string, { event: ClaimedEvent; lane: string; done: Promise<void> }>();
  /** Finished attempts waiting to be recorded (recorded in batches, one statement each). */
  private readonly finished: CompletedAttempt[] = [];
  private flushing: Promise<void> | null = null;
  /** The background loop's claim under way (its events are leased but not yet waiting). */
  private claiming: Promise<number> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  /**
   * Something other than this worker's own progress asks for a claim (start, NOTIFY, the poll,
   * an outcome freeing a platform this worker holds nothing of). Without it, a wake-up claims only
   * when some endpoint lane has room again: no claim queries that could only come back empty.
   */
  private signalled = true;
  /**
   * A lane is topped up once it holds its cap or fewer (room for a whole cap's worth claimed
   * ahead): one claim per cap deliveries to a busy endpoint, not one per one or two.
   */
  private readonly refillAt: number;
  /** The last claim filled its batch: more may be due, so a freed slot should claim again. */
  private backlog = false;
  private listener: NotificationListener | null = null;
  /** The LISTEN connection's `application_name`, unique per instance (find it in pg_stat_activity). */
  readonly listenerName = `outbox-worker-${process.pid}-${++instances}`;

  constructor(
    private readonly config: AppConfig,
    private readonly runtime: Runtime,
    private readonly store: OutboxStore,
    private readonly sender: WebhookSender,
    private readonly clock: RealClock,
    private readonly dataSource: DataSource,
    private readonly events: EventEmitter2,
  ) {
    this.concurrency = config.OUTBOX_CONCURRENCY;
    this.endpointConcurrency = config.OUTBOX_ENDPOINT_CONCURRENCY;
    this.pollMs = config.OUTBOX_POLL_INTERVAL_MS;
    this.leaseMs = config.OUTBOX_LEASE_MS;
    this.shutdownGraceMs = Math.max(
      500,
      config.SHUTDOWN_GRACE_MS - config.SHUTDOWN_DRAIN_DELAY_MS - SHUTDOWN_RESERVE_MS,
    );
    this.refillAt = this.endpointConcurrency;
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

  /**
   * Whether the worker's wake-up connection is LISTENing: null where it has none (not running, or
   * the embedded engine, which only polls). Readiness of a worker process.
   */
  get listening(): boolean | null {
    return this.listener ? this.listener.connected : null;
  }

  /** Starts the background loop (and LISTEN, on PostgreSQL). */
  async start(): Promise<void> {
    if (this.loopDone) return;
    this.stopping = false;
    if (await notificationsReachOtherConnections(this.dataSource)) {
      const state = (connected: boolean) => {
        const event: OutboxListenerState = { connected };
        this.events.emit(OUTBOX_LISTENER, event);
      };
      this.listener = new NotificationListener(
        listenUrl(this.config, this.dataSource),
        OUTBOX_CHANNEL,
        {
          onNotification: () => this.wake(),
          onConnected: () => {
            this.wake();
            state(true);
          },
          onLost: () => state(false),
        },
        'outbox',
        this.listenerName,
      );
      await this.listener.start();
    }
    this.loopDone = this.loop();
    this.heartbeat = setInterval(() => this.renewLeases(), Math.max(1, Math.floor(this.leaseMs / 3)));
    this.logger.log(
      {
        concurrency: this.concurrency,
        endpointConcurrency: this.endpointConcurrency,
        leaseMs: this.leaseMs,
        listen: this.listener !== null,
      },
      'outbox worker started',
    );
  }

  /**
   * Stops claiming, lets in-flight deliveries finish (each ends within the HTTP timeout) and
   * records them; whatever is still out after the grace period is released for another worker.
   */
  async stop(graceMs = this.shutdownGraceMs): Promise<void> {
    if (!this.loopDone) return;
    this.stopping = true;
    this.wake();
    await this.loopDone;
    await this.listener?.stop();
    this.listener = null;
    const notStarted = this.takeAllReady().map((r) => r.event);
    const out = [...this.inflight.values()];
    if (out.length) {
      const timer = delay(graceMs, undefined, { ref: false });
      await Promise.race([Promise.all(out.map((d) => d.done)), timer]);
    }
    await this.flush();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    await this.renewing;
    const stuck = [...notStarted, ...[...this.inflight.values()].map((d) => d.event)];
    this.inflight.clear();
    this.lanes.clear();
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
      if (done.length > 0) {
        all.push(...done);
        continue;
      }
      // Nothing due to this call, but the background loop (when running) may hold what was due:
      // leased by a claim under way, waiting, or in flight. Drained means those are delivered too.
      if (!this.holdsAnything()) return all;
      await this.idle();
    }
    throw new Error(`outbox not drained after ${maxCycles} cycles`);
  }

  /**
   * Waits until the background loop holds nothing: no claim under way, nothing waiting or in
   * flight, every attempt recorded.
   */
  async idle(): Promise<void> {
    while (this.holdsAnything()) {
      if (this.claiming) await this.claiming.catch(() => undefined);
      if (this.readyCount && !this.inflight.size) this.pump();
      if (this.readyCount && !this.inflight.size) return; // stopping: stop() releases what waits
      await Promise.all([...this.inflight.values()].map((d) => d.done));
      await this.flush();
    }
  }

  private holdsAnything(): boolean {
    return (
      this.claiming !== null ||
      this.readyCount > 0 ||
      this.inflight.size > 0 ||
      this.finished.length > 0 ||
      this.flushing !== null
    );
  }

  /** Waits until every finished attempt so far is recorded. */
  async flush(): Promise<void> {
    if (this.finished.length) this.scheduleFlush();
    while (this.flushing) await this.flushing;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      // Keep up to one batch claimed ahead of the slots, so a slot never waits for a claim query.
      const room = Math.min(2 * this.concurrency - this.inflight.size - this.readyCount, MAX_CLAIM);
      const worthIt = this.signalled || !this.everyLaneFull();
      this.signalled = false;
      if (room > 0 && worthIt) {
        let claimed: number;
        try {
          this.claiming = this.claim(room);
          claimed = await this.claiming;
        } catch (error) {
          this.claiming = null;
          this.logger.error({ err: error }, 'outbox claim failed');
          await this.sleep(this.pollMs);
          continue;
        }
        this.pump();
        this.claiming = null;
        if (claimed === room) continue; // likely more due
      }
      await this.sleep(this.pollMs); // a NOTIFY, a freed slot, a recorded outcome or stop() wakes it early
    }
  }

  /**
   * Claims up to `limit` events, at most twice the endpoint cap per endpoint counting what this
   * worker already holds of it (in flight or waiting), and queues them on their endpoints' lanes.
   */
  private async claim(limit: number): Promise<number> {
    const perEndpoint = 2 * this.endpointConcurrency;
    const heldByLane = new Map<string, number>();
    const laneOfPlatform = new Map<string, string>();
    for (const [key, lane] of this.lanes) {
      heldByLane.set(key, lane.ready.length + lane.inflight);
      for (const { event } of lane.ready) laneOfPlatform.set(event.platformId, key);
    }
    for (const { event, lane } of this.inflight.values()) laneOfPlatform.set(event.platformId, lane);
    // A lane is topped up once it has room for its cap (not after every delivery): fewer, larger
    // claims.
    const refillAt = this.refillAt;
    const held = new Map(
      [...laneOfPlatform].map(([platformId, key]) => {
        const n = heldByLane.get(key) ?? 0;
        return [platformId, n > refillAt ? perEndpoint : n];
      }),
    );

    const claimed = await this.store.claimDue(this.clock.now(), limit, { perPlatform: perEndpoint, held });
    const perPlatform = new Map<string, number>();
    for (const delivery of claimed) {
      const key = laneKey(delivery);
      const lane = this.lanes.get(key) ?? { ready: [], inflight: 0 };
      lane.ready.push(delivery);
      this.lanes.set(key, lane);
      this.readyCount++;
      const platformId = delivery.event.platformId;
      perPlatform.set(platformId, (perPlatform.get(platformId) ?? 0) + 1);
    }
    // More may be due: the claim was full, or some platform got all it was allowed this time.
    this.backlog =
      claimed.length === limit ||
      [...perPlatform].some(([platformId, n]) => n === perEndpoint - (held.get(platformId) ?? 0));
    return claimed.length;
  }

  /**
   * Starts deliveries from the claimed-ahead lanes while slots are free: one at a time from each
   * endpoint in turn, never more than the endpoint cap to one endpoint.
   */
  private pump(): void {
    while (!this.stopping && this.inflight.size < this.concurrency && this.readyCount > 0) {
      const next = this.nextLane();
      if (!next) return; // every endpoint with waiting events is at its cap
      const [key, lane] = next;
      const { event, target } = lane.ready.shift()!;
      this.readyCount--;
      lane.inflight++;
      const done = this.sender.send(event, target).then(
        (attempt) => {
          if (!this.inflight.delete(event.id)) return; // released at shutdown: its outcome no longer applies
          this.finishedOnLane(key);
          this.finished.push(attempt);
          this.scheduleFlush();
          this.pump();
          if (this.backlog && this.readyCount < this.concurrency) this.wake(false); // claim the next batch
        },
        (error: unknown) => {
          // Not expected (send reports failures as attempts); the lease expires and it is retried.
          if (this.inflight.delete(event.id)) this.finishedOnLane(key);
          this.logger.error({ err: error, event: formatId('Webhook', event.id) }, 'webhook delivery crashed');
        },
      );
      this.inflight.set(event.id, { event, lane: key, done });
    }
  }

  /** The first lane in round-robin order with a waiting event and a free slot, moved to the back. */
  private nextLane(): [string, Lane] | null {
    for (const [key, lane] of this.lanes) {
      if (lane.ready.length > 0 && lane.inflight < this.endpointConcurrency) {
        this.lanes.delete(key);
        this.lanes.set(key, lane);
        return [key, lane];
      }
    }
    return null;
  }

  private finishedOnLane(key: string): void {
    const lane = this.lanes.get(key);
    if (!lane) return;
    lane.inflight--;
    if (lane.inflight === 0 && lane.ready.length === 0) this.lanes.delete(key);
  }

  private takeAllReady(): ClaimedDelivery[] {
    const all: ClaimedDelivery[] = [];
    for (const [key, lane] of this.lanes) {
      all.push(...lane.ready.splice(0));
      if (lane.inflight === 0) this.lanes.delete(key);
    }
    this.readyCount = 0;
    return all;
  }

  /**
   * The heartbeat: extends the lease of every event this worker holds (waiting, in flight, or
   * finished and not yet recorded). A waiting event whose lease was lost (this process stalled
   * past it and another worker took the event) is dropped instead of being sent twice.
   */
  private renewLeases(): void {
    if (this.renewing) return;
    const held = [
      ...[...this.lanes.values()].flatMap((lane) => lane.ready.map((r) => r.event)),
      ...[...this.inflight.values()].map((d) => d.event),
      ...this.finished.map((d) => d.event),
    ];
    if (held.length === 0) return;
    this.renewing = this.store
      .renew(held, this.clock.now())
      .then(
        (kept) => {
          const asked = new Set(held.map((e) => e.id));
          let lost = 0;
          for (const [key, lane] of this.lanes) {
            const before = lane.ready.length;
            lane.ready = lane.ready.filter((r) => kept.has(r.event.id) || !asked.has(r.event.id));
            lost += before - lane.ready.length;
            this.readyCount -= before - lane.ready.length;
            if (lane.ready.length === 0 && lane.inflight === 0) this.lanes.delete(key);
          }
          if (lost) this.logger.warn({ lost }, 'outbox leases lost to another worker; those events were dropped');
          const renewed: OutboxLeasesRenewed = { renewed: kept.size, lost };
          this.events.emit(OUTBOX_LEASES_RENEWED, renewed);
        },
        (error: unknown) => this.logger.error({ err: error, count: held.length }, 'renewing outbox leases failed'),
      )
      .finally(() => {
        this.renewing = null;
      });
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = (async () => {
      while (this.finished.length) {
        const batch = this.finished.splice(0);
        await this.recordBatch(batch);
        // Successors may be due now, and slots are free. A successor of a platform this worker
        // holds nothing of more can be claimed whatever the lanes look like.
        const held = this.heldPlatforms();
        this.wake(batch.some((d) => !held.has(d.event.platformId)));
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
      return;
    }
    const recorded: OutboxRecorded = {
      outcomes: done.map((d) => ({ id: formatId('Webhook', d.event.id), status: d.decision.status })),
    };
    this.events.emit(OUTBOX_RECORDED, recorded);
  }

  private wake(signal = true): void {
    if (signal) this.signalled = true;
    this.woken = true;
    this.wakeUp?.();
  }

  private everyLaneFull(): boolean {
    if (this.lanes.size === 0) return false;
    for (const lane of this.lanes.values()) if (lane.ready.length + lane.inflight <= this.refillAt) return false;
    return true;
  }

  private heldPlatforms(): Set<string> {
    const held = new Set<string>();
    for (const lane of this.lanes.values()) for (const r of lane.ready) held.add(r.event.platformId);
    for (const d of this.inflight.values()) held.add(d.event.platformId);
    return held;
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
      const timer = setTimeout(() => {
        this.signalled = true; // the poll: claim whatever the lanes look like
        finish();
      }, ms);
      this.wakeUp = finish;
    });
  }

  /** LISTEN works on PostgreSQL; the embedded engine (PGlite, even behind a DATABASE_URL) has no NOTIFY delivery. */
}

/** Deliveries to one endpoint share a lane; events without an endpoint get one per platform. */
function laneKey({ event, target }: ClaimedDelivery): string {
  return target.endpoint ?? `no endpoint: ${event.platformId}`;
}
