import { checkAuthorization, effectiveLimits, utcDay } from '../../../src/cards/card-limits.js';
import type { CardLimits } from '../../../src/cards/card-limits.js';

const none: CardLimits = { maxSpendPerTransaction: null, maxSpendPerDay: null, maxTransactionsPerDay: null };
const fresh = { spent: 0n, count: 0 };

describe('effectiveLimits', () => {
  it('takes the lower of card and platform per kind, null meaning no limit on that side', () => {
    expect(
      effectiveLimits(
        { maxSpendPerTransaction: 500, maxSpendPerDay: null, maxTransactionsPerDay: 3 },
        { maxSpendPerTransaction: 800, maxSpendPerDay: 1000, maxTransactionsPerDay: 2 },
      ),
    ).toEqual({ maxSpendPerTransaction: 500, maxSpendPerDay: 1000, maxTransactionsPerDay: 2 });
    expect(effectiveLimits(none, none)).toEqual(none);
  });

  it('does not change the card value it was given', () => {
    const card: CardLimits = { maxSpendPerTransaction: 900, maxSpendPerDay: null, maxTransactionsPerDay: null };
    effectiveLimits(card, { ...none, maxSpendPerTransaction: 100 });
    expect(card.maxSpendPerTransaction).toBe(900);
  });
});

describe('utcDay', () => {
  it('is the UTC calendar day, whatever the instant within it', () => {
    expect(utcDay(new Date('2026-03-01T23:59:59.999Z'))).toEqual({
      start: new Date('2026-03-01T00:00:00.000Z'),
      end: new Date('2026-03-02T00:00:00.000Z'),
    });
    expect(utcDay(new Date('2026-03-02T00:00:00.000Z')).start).toEqual(new Date('2026-03-02T00:00:00.000Z'));
    expect(utcDay(new Date('2028-02-28T12:00:00Z')).end).toEqual(new Date('2028-02-29T00:00:00Z'));
  });
});

describe('checkAuthorization', () => {
  it('approves exactly the per-transaction limit and declines one unit more', () => {
    const limits = { ...none, maxSpendPerTransaction: 1000 };
    expect(checkAuthorization(1000n, limits, fresh)).toEqual({ approved: true });
    expect(checkAuthorization(1001n, limits, fresh)).toEqual({
      approved: false,
      limit: 'maxSpendPerTransaction',
      effective: 1000,
    });
  });

  it('approves spend reaching the daily limit exactly and declines one unit more', () => {
    const limits = { ...none, maxSpendPerDay: 1000 };
    expect(checkAuthorization(400n, limits, { spent: 600n, count: 3 })).toEqual({ approved: true });
    expect(checkAuthorization(401n, limits, { spent: 600n, count: 3 })).toMatchObject({ limit: 'maxSpendPerDay' });
  });

  it('approves the count reaching the daily limit exactly and declines the next', () => {
    const limits = { ...none, maxTransactionsPerDay: 10 };
    expect(checkAuthorization(1n, limits, { spent: 9n, count: 9 })).toEqual({ approved: true });
    expect(checkAuthorization(1n, limits, { spent: 10n, count: 10 })).toMatchObject({
      approved: false,
      limit: 'maxTransactionsPerDay',
    });
  });

  it('reports the per-transaction limit first, then daily spend, then count', () => {
    const limits = { maxSpendPerTransaction: 10, maxSpendPerDay: 10, maxTransactionsPerDay: 1 };
    expect(checkAuthorization(11n, limits, { spent: 10n, count: 1 })).toMatchObject({
      limit: 'maxSpendPerTransaction',
    });
    expect(checkAuthorization(1n, limits, { spent: 10n, count: 1 })).toMatchObject({ limit: 'maxSpendPerDay' });
    expect(checkAuthorization(1n, limits, { spent: 0n, count: 1 })).toMatchObject({ limit: 'maxTransactionsPerDay' });
  });

  it('sums beyond 2^53 without losing precision', () => {
    const max = Number.MAX_SAFE_INTEGER;
    const limits = { ...none, maxSpendPerDay: max };
    expect(checkAuthorization(1n, limits, { spent: BigInt(max), count: 1 })).toMatchObject({ approved: false });
    expect(checkAuthorization(1n, limits, { spent: BigInt(max) - 1n, count: 1 })).toEqual({ approved: true });
  });

  it('approves anything without limits', () => {
    expect(checkAuthorization(BigInt(Number.MAX_SAFE_INTEGER), none, { spent: 10n ** 20n, count: 1e9 })).toEqual({
      approved: true,
    });
  });
});
