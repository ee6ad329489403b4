/**
 * The time source of every rule that depends on "now" (webhook backoff, give-up, leases, secret
 * rotation windows). Injected so tests drive it; production uses the system clock.
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
