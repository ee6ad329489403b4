import type { DeliveryResult } from '../../../src/outbox/delivery/http-deliverer.js';
import {
  classifyOutcome,
  decideAfterAttempt,
  GIVE_UP_AFTER_MS,
  MAX_INTERVAL_MS,
  nextAttemptDelayMs,
  shouldGiveUp,
} from '../../../src/outbox/delivery/retry-policy.js';

const result = (status: number | null, error: string | null = null): DeliveryResult => ({
  status,
  responseBody: '',
  retryAfterMs: null,
  error,
  durationMs: 1,
});

describe('classifyOutcome', () => {
  it.each([
    [200, 'DELIVERED'],
    [201, 'DELIVERED'],
    [204, 'DELIVERED'],
    [299, 'DELIVERED'],
    [409, 'DELIVERED'],
    [301, 'RETRY'],
    [302, 'RETRY'],
    [400, 'RETRY'],
    [401, 'RETRY'],
    [404, 'RETRY'],
    [410, 'RETRY'],
    [429, 'RETRY'],
    [500, 'RETRY'],
    [503, 'RETRY'],
  ] as const)('%s -> %s', (status, expected) => {
    expect(classifyOutcome(result(status))).toBe(expected);
  });

  it.each(['timeout', 'ECONNREFUSED', 'blocked: private address'])('no response (%s) -> RETRY', (error) => {
    expect(classifyOutcome(result(null, error))).toBe('RETRY');
  });
});

describe('nextAttemptDelayMs', () => {
  const low = () => 0;
  const high = () => 0.999999;

  it('doubles from 1 s with equal jitter', () => {
    expect(nextAttemptDelayMs(1, { random: low })).toBe(500);
    expect(nextAttemptDelayMs(1, { random: high })).toBe(1000);
    expect(nextAttemptDelayMs(2, { random: high })).toBe(2000);
    expect(nextAttemptDelayMs(5, { random: () => 0.5 })).toBe(12_000);
  });

  it('grows with the attempt number and is capped at 30 minutes', () => {
    const delays = Array.from({ length: 40 }, (_, i) => nextAttemptDelayMs(i + 1, { random: low }));
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]);
    expect(delays[5]).toBeGreaterThan(delays[0]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_INTERVAL_MS);
    expect(nextAttemptDelayMs(40, { random: low })).toBe(MAX_INTERVAL_MS / 2);
    expect(nextAttemptDelayMs(10_000, { random: () => 1 })).toBe(MAX_INTERVAL_MS);
  });

  it('honours Retry-After, capped at 30 minutes', () => {
    expect(nextAttemptDelayMs(1, { retryAfterMs: 7000, random: high })).toBe(7000);
    expect(nextAttemptDelayMs(1, { retryAfterMs: 2 * 60 * 60 * 1000, random: high })).toBe(MAX_INTERVAL_MS);
    expect(nextAttemptDelayMs(1, { retryAfterMs: null, random: high })).toBe(1000);
  });

  it('does not retry faster than the backoff when Retry-After is shorter', () => {
    expect(nextAttemptDelayMs(10, { retryAfterMs: 0, random: low })).toBe(256_000);
  });
});

describe('shouldGiveUp', () => {
  const createdAt = new Date('2026-01-01T00:00:00Z');
  const at = (ms: number) => new Date(createdAt.getTime() + ms);

  it('gives up only when the next attempt is later than 7 days after creation', () => {
    expect(GIVE_UP_AFTER_MS).toBe(7 * 24 * 3600 * 1000);
    expect(shouldGiveUp(createdAt, at(60_000))).toBe(false);
    expect(shouldGiveUp(createdAt, at(GIVE_UP_AFTER_MS))).toBe(false);
    expect(shouldGiveUp(createdAt, at(GIVE_UP_AFTER_MS + 1))).toBe(true);
  });
});

describe('decideAfterAttempt', () => {
  const created = new Date('2026-01-01T00:00:00Z');
  const decide = (
    status: number | null,
    opts: { type?: string; attemptNumber?: number; now?: Date; retryAfterMs?: number | null } = {},
  ) =>
    decideAfterAttempt({
      type: opts.type ?? 'CARD.STATUS_CHANGE',
      attemptNumber: opts.attemptNumber ?? 1,
      retryingSince: created,
      now: opts.now ?? created,
      result: { status, retryAfterMs: opts.retryAfterMs ?? null },
      random: () => 1,
    });
  const at = (ms: number) => new Date(created.getTime() + ms);

  it.each([200, 204, 409])('%s is delivered, TEST or not', (status) => {
    expect(decide(status)).toEqual({ status: 'DELIVERED' });
    expect(decide(status, { type: 'TEST' })).toEqual({ status: 'DELIVERED' });
  });

  it.each([null, 301, 400, 429, 500, 503])('TEST is never retried (%s)', (status) => {
    expect(decide(status, { type: 'TEST' })).toEqual({ status: 'FAILED' });
  });

  it.each([200, 202, 403, 409, 422])(
    'INCOMING_PAYMENT.PENDING (in-flow approval): %s is an answer, delivered',
    (status) => {
      expect(decide(status, { type: 'INCOMING_PAYMENT.PENDING' })).toEqual({ status: 'DELIVERED' });
    },
  );

  it.each([null, 301, 400, 429, 500, 503])('INCOMING_PAYMENT.PENDING is never retried (%s)', (status) => {
    expect(decide(status, { type: 'INCOMING_PAYMENT.PENDING' })).toEqual({ status: 'FAILED' });
    // the other INCOMING_PAYMENT events are retried as usual
    expect(decide(status, { type: 'INCOMING_PAYMENT.COMPLETED' }).status).toBe('PENDING');
  });

  it('backs off exponentially from the attempt time', () => {
    expect(decide(500, { attemptNumber: 1 })).toEqual({ status: 'PENDING', nextAttemptAt: at(1000) });
    expect(decide(null, { attemptNumber: 4, now: at(5000) })).toEqual({ status: 'PENDING', nextAttemptAt: at(13_000) });
  });

  it.each([429, 503])('%s honours Retry-After, capped at 30 minutes', (status) => {
    expect(decide(status, { retryAfterMs: 90_000 })).toEqual({ status: 'PENDING', nextAttemptAt: at(90_000) });
    expect(decide(status, { retryAfterMs: 10 * MAX_INTERVAL_MS })).toEqual({
      status: 'PENDING',
      nextAttemptAt: at(MAX_INTERVAL_MS),
    });
  });

  it.each([500, 502, 400])('%s ignores Retry-After', (status) => {
    expect(decide(status, { retryAfterMs: 90_000 })).toEqual({ status: 'PENDING', nextAttemptAt: at(1000) });
  });

  it('fails once the next attempt would fall after the 7-day window', () => {
    expect(decide(500, { attemptNumber: 1, now: at(GIVE_UP_AFTER_MS - 1000) })).toEqual({
      status: 'PENDING',
      nextAttemptAt: at(GIVE_UP_AFTER_MS),
    });
    expect(decide(500, { attemptNumber: 1, now: at(GIVE_UP_AFTER_MS - 999) })).toEqual({ status: 'FAILED' });
  });
});
