import type { DeliveryResult } from './http-deliverer.js';

/**
 * Retry policy of the reference: exponential backoff up to 7 days with a maximum interval of
 * 30 minutes; a 409 (receiver already has this webhook) counts as delivered.
 */
export const BASE_DELAY_MS = 1_000;
export const MAX_INTERVAL_MS = 30 * 60 * 1000;
export const GIVE_UP_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export type DeliveryOutcome = 'DELIVERED' | 'RETRY';

/** 2xx and 409 are final; everything else (3xx, other 4xx, 5xx, timeouts, network errors) is retried. */
export function classifyOutcome(result: Pick<DeliveryResult, 'status'>): DeliveryOutcome {
  const { status } = result;
  if (status === null) return 'RETRY';
  return (status >= 200 && status < 300) || status === 409 ? 'DELIVERED' : 'RETRY';
}

/**
 * Delay before retry number `attemptNumber` (1 = first retry): base 1 s doubling each attempt, with
 * "equal jitter" (uniform in [d/2, d]), capped at 30 min. A Retry-After is honoured as a lower bound
 * (we never retry earlier than asked, nor faster than our own backoff), also capped at 30 min.
 */
export function nextAttemptDelayMs(
  attemptNumber: number,
  opts: { retryAfterMs?: number | null; random?: () => number } = {},
): number {
  const n = Math.max(1, Math.floor(attemptNumber));
  const exponential = Math.min(MAX_INTERVAL_MS, BASE_DELAY_MS * 2 ** (n - 1));
  const r = Math.min(Math.max((opts.random ?? Math.random)(), 0), 1);
  const backoff = Math.round(exponential / 2 + (r * exponential) / 2);
  const retryAfter = opts.retryAfterMs ?? 0;
  return Math.min(MAX_INTERVAL_MS, Math.max(backoff, retryAfter));
}

/** True when the next attempt would fall more than 7 days after the event was created. */
export function shouldGiveUp(createdAt: Date, nextAttemptAt: Date): boolean {
  return nextAttemptAt.getTime() - createdAt.getTime() > GIVE_UP_AFTER_MS;
}

/** Statuses whose `Retry-After` is honoured (as a lower bound, capped at 30 minutes). */
const RETRY_AFTER_STATUSES = new Set([429, 503]);

/**
 * Event types whose answer is part of a flow (the reference: "no retry on PENDING status since it
 * is served as an approval mechanism in-flow"): sent once by their producer (DirectDelivery), never
 * retried; an answer the flow understands (2xx, 403 reject, 409, 422 more information) counts as
 * delivered, anything else fails the event at once.
 */
export const IN_FLOW_TYPES: ReadonlySet<string> = new Set(['INCOMING_PAYMENT.PENDING']);
const IN_FLOW_ANSWERS = new Set([403, 409, 422]);

export type AttemptDecision =
  { status: 'DELIVERED' } | { status: 'FAILED' } | { status: 'PENDING'; nextAttemptAt: Date };

/**
 * What happens to an event after one attempt: 2xx/409 delivered; TEST events are never retried;
 * otherwise the next attempt after backoff (Retry-After for 429/503), or FAILED once that would fall
 * more than 7 days after `retryingSince` (creation, or the last redelivery request).
 */
export function decideAfterAttempt(input: {
  type: string;
  /** 1 for the first attempt. */
  attemptNumber: number;
  retryingSince: Date;
  now: Date;
  result: Pick<DeliveryResult, 'status' | 'retryAfterMs'>;
  random?: () => number;
}): AttemptDecision {
  const { result } = input;
  if (classifyOutcome(result) === 'DELIVERED') return { status: 'DELIVERED' };
  if (IN_FLOW_TYPES.has(input.type))
    return result.status !== null && IN_FLOW_ANSWERS.has(result.status)
      ? { status: 'DELIVERED' }
      : { status: 'FAILED' };
  if (input.type === 'TEST') return { status: 'FAILED' };
  const retryAfterMs = result.status !== null && RETRY_AFTER_STATUSES.has(result.status) ? result.retryAfterMs : null;
  const delay = nextAttemptDelayMs(input.attemptNumber, { retryAfterMs, random: input.random });
  const nextAttemptAt = new Date(input.now.getTime() + delay);
  if (shouldGiveUp(input.retryingSince, nextAttemptAt)) return { status: 'FAILED' };
  return { status: 'PENDING', nextAttemptAt };
}
