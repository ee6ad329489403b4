import { requestContext } from '../logging/logger.js';

/**
 * The only place that reads the time: every rule that depends on "now" (token and customer
 * timestamps, idempotency expiry, the ledger, webhook backoff, give-up, leases, secret rotation
 * windows) takes it from an injectable clock. Tests inject a clock they drive. ESLint forbids
 * `new Date()` and `Date.now()` everywhere else (eslint.config.js).
 *
 * Two injection tokens:
 * - `Clock`: business time, what a platform's requests decide and stamp with. With SANDBOX=true a
 *   sandbox platform can run ahead of real time (test clocks, docs/test-clocks.md): `Clock` then
 *   adds the offset the request read once at authentication (`PlatformClock`).
 * - `RealClock`: infrastructure time, never moved by a test clock: the outbox worker's leases,
 *   delivery schedule, retries and give-up window, webhook signing-secret rotation windows, card
 *   provisioning schedules, metrics.
 */
export abstract class Clock {
  abstract now(): Date;
}

/** Real time, for infrastructure (see `Clock`). Bound to the same source as `Clock` but never offset. */
export abstract class RealClock extends Clock {}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** What the request context carries for the clock: the platform's offset, read once at authentication. */
export interface ClockContext {
  clockOffsetMs?: number;
}

/**
 * Business time with SANDBOX=true: the base clock plus the offset of the platform whose request is
 * being served (none outside a request, or for a platform without a test clock).
 */
export class PlatformClock extends Clock {
  constructor(private readonly base: Clock) {
    super();
  }

  now(): Date {
    const offset = (requestContext.getStore() as ClockContext | undefined)?.clockOffsetMs;
    if (!offset) return this.base.now();
    return new Date(this.base.now().getTime() + offset);
  }
}

/**
 * The per-platform offsets of the sandbox test clocks (provided only with SANDBOX=true, by
 * src/sandbox-clock/). Read from memory: the set of clocked platforms is loaded at boot and
 * kept current by notifications.
 */
export abstract class ClockOffsets {
  /** Milliseconds the platform's clock is ahead of real time (0: no test clock). */
  abstract offsetMs(platformId: string): number;
}

/**
 * Pins the current request to the platform's clock (one reading per request: every rule of the
 * request, and its transaction, sees the same offset). Called at authentication; a public route
 * calls it once it knows the platform (device-code redemption). A no-op without `offsets`
 * (SANDBOX=false) or outside a request.
 */
export function enterPlatformClock(offsets: ClockOffsets | null | undefined, platformId: string): void {
  if (!offsets) return;
  const store = requestContext.getStore() as ClockContext | undefined;
  if (!store) return;
  const offset = offsets.offsetMs(platformId);
  if (offset !== 0 || store.clockOffsetMs !== undefined) store.clockOffsetMs = offset;
}

/** Moves the current request to a new offset (only the advance of the request's own clock does). */
export function repinPlatformClock(offsetMs: number): void {
  const store = requestContext.getStore() as ClockContext | undefined;
  if (store) store.clockOffsetMs = offsetMs;
}

let ambient: Clock = new SystemClock();

/**
 * For rules with no injector (class-validator decorators and the declarative field rules, e.g.
 * "a birth date is not in the future"): the application's Clock, bound by `ConfigModule.forRoot`.
 */
export function ambientNow(): Date {
  return ambient.now();
}

export function bindAmbientClock(clock: Clock): void {
  ambient = clock;
}
