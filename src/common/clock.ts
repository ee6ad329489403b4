import { requestContext } from '../logging/logger.js';

declare const businessBrand: unique symbol;
declare const realBrand: unique symbol;

/**
 * A time read from `Clock`: business time, the platform's (a sandbox platform's test clock moves
 * it). A due time stored as `BusinessTime` is claimed on the platform's clock.
 */
export type BusinessTime = Date & { readonly [businessBrand]: true };

/** A time read from `RealClock`: infrastructure time, which no test clock moves. */
export type RealTime = Date & { readonly [realBrand]: true };

/**
 * The only place that reads the time: every rule that depends on "now" (token and customer
 * timestamps, idempotency expiry, the ledger, webhook backoff, give-up, leases, secret rotation
 * windows) takes it from an injectable clock. Tests inject a clock they drive. ESLint forbids
 * `new Date()` and `Date.now()` everywhere else (eslint.config.js).
 *
 * Two injection tokens, and two types of time, so a due time cannot be set on one clock and
 * claimed on the other (docs/test-clocks.md, the registry in src/common/schedules.ts):
 * - `Clock`: business time (`BusinessTime`), what a platform's requests decide and stamp with.
 *   With SANDBOX=true a sandbox platform can run ahead of real time (test clocks): `Clock` then
 *   adds the offset the request read once at authentication (`PlatformClock`).
 * - `RealClock`: infrastructure time (`RealTime`), never moved by a test clock: the outbox worker's
 *   leases, delivery schedule, retries and give-up window, webhook signing-secret rotation
 *   windows, card provisioning schedules, console sessions, the audit trail, caches, metrics.
 *
 * `BusinessTime` and `RealTime` are both `Date`s (anything that takes a `Date` takes either), but
 * neither is assignable to the other, and arithmetic (`new Date(t.getTime() + ms)`) gives a plain
 * `Date`: a due-time column typed with one of them is set with `later(clock.now(), ms)`, which keeps
 * the clock's type.
 */
export abstract class Clock {
  abstract now(): BusinessTime;
}

/** Real time, for infrastructure (see `Clock`). Bound to the same source as `Clock` but never offset. */
export abstract class RealClock {
  abstract now(): RealTime;
}

/** A source of the time with no offset: serves as both (the base of `PlatformClock`, and `RealClock`). */
export abstract class TimeSource {
  abstract now(): BusinessTime & RealTime;
}

export class SystemClock extends TimeSource {
  now(): BusinessTime & RealTime {
    return new Date() as BusinessTime & RealTime;
  }
}

/** `ms` after (or, negative, before) `t`, on `t`'s clock. */
export function later<T extends BusinessTime | RealTime>(t: T, ms: number): T {
  return new Date(t.getTime() + ms) as T;
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
  constructor(private readonly base: TimeSource) {
    super();
  }

  now(): BusinessTime {
    const offset = (requestContext.getStore() as ClockContext | undefined)?.clockOffsetMs;
    if (!offset) return this.base.now();
    return later<BusinessTime>(this.base.now(), offset);
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

/**
 * Another platform's business time, outside its requests: real time plus that platform's test-clock
 * offset (none without `offsets`, i.e. SANDBOX=false). For a due time one platform set and another
 * platform's request meets (a UMA invitation claimed by another platform): it falls due on the
 * clock of the platform that set it.
 */
export function timeOfPlatform(
  real: RealTime,
  offsets: ClockOffsets | null | undefined,
  platformId: string,
): BusinessTime {
  return new Date(real.getTime() + (offsets?.offsetMs(platformId) ?? 0)) as BusinessTime;
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
