import { authorization, cardWithFunds } from '../support/card-transactions.js';
import type { TestCard } from '../support/card-transactions.js';
import { FakeClock } from '../support/fake-clock.js';
import { recordedEvents } from '../support/events.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * Limits under concurrency (the card row is locked for each authorization, so none overshoots) and
 * the UTC day windows with a clock the test moves.
 */
let t: TestApp;
const clock = new FakeClock(new Date('2026-03-01T23:59:59.000Z'));
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

interface Txn {
  status: string;
  cardDeclinedReason?: string;
  authorizedAmount: { amount: number };
}

async function authorize(p: TestPlatform, card: TestCard, amount: number): Promise<Txn> {
  const res = await p.post(`/sandbox/cards/${card.id}/simulate/authorization`, authorization(amount));
  if (res.status !== 202) throw new Error(`authorization: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.cardTransaction as Txn;
}

const parallel = (p: TestPlatform, card: TestCard, amounts: number[]) =>
  Promise.all(amounts.map((amount) => authorize(p, card, amount)));
const approved = (txns: Txn[]) => txns.filter((x) => x.status === 'AUTHORIZED');

async function available(p: TestPlatform, card: TestCard) {
  const res = await p.get(`/customers/internal-accounts?customerId=${card.customer.id}&currency=USD`);
  const [a] = res.body.data as Array<{ balance: { amount: number }; totalBalance: { amount: number } }>;
  return { available: a.balance.amount, total: a.totalBalance.amount };
}

describe('concurrent authorizations on one card', () => {
  beforeEach(() => clock.set(new Date('2026-03-02T12:00:00.000Z')));

  it('50 in parallel against maxTransactionsPerDay 10: exactly 10 approved, 10 AUTHORIZED events', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1_000_000, { maxTransactionsPerDay: 10 });
    const txns = await parallel(p, card, Array<number>(50).fill(100));
    expect(approved(txns)).toHaveLength(10);
    for (const x of txns.filter((y) => y.status !== 'AUTHORIZED'))
      expect(x.cardDeclinedReason).toBe('SPEND_LIMIT_EXCEEDED');
    expect(await recordedEvents(p, 'CARD_TRANSACTION.AUTHORIZED')).toHaveLength(10);
    expect(await recordedEvents(p, 'CARD_TRANSACTION.DECLINED')).toHaveLength(40);
    expect(await available(p, card)).toEqual({ available: 999_000, total: 1_000_000 });
  });

  it('50 in parallel against maxSpendPerDay: the approved sum never exceeds it', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1_000_000, { maxSpendPerDay: 1000 });
    const amounts = Array.from({ length: 50 }, (_, i) => 30 + ((i * 37) % 90));
    const txns = await parallel(p, card, amounts);
    const sum = approved(txns).reduce((s, x) => s + x.authorizedAmount.amount, 0);
    expect(sum).toBeLessThanOrEqual(1000);
    // Every decline was necessary: adding it would have gone over (the smallest decline does not fit).
    const declined = txns.filter((x) => x.status === 'DECLINED').map((x) => x.authorizedAmount.amount);
    expect(sum + Math.min(...declined)).toBeGreaterThan(1000);
    expect(await available(p, card)).toEqual({ available: 1_000_000 - sum, total: 1_000_000 });
  });

  it('50 in parallel against a balance: holds never exceed it', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const txns = await parallel(p, card, Array<number>(50).fill(75));
    expect(approved(txns)).toHaveLength(13);
    for (const x of txns.filter((y) => y.status !== 'AUTHORIZED'))
      expect(x.cardDeclinedReason).toBe('INSUFFICIENT_FUNDS');
    expect(await available(p, card)).toEqual({ available: 25, total: 1000 });
  });
});

describe('UTC day windows', () => {
  it('reset at 00:00 UTC: the last millisecond of a day counts for it, the next one starts afresh', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 100_000, { maxSpendPerDay: 1000, maxTransactionsPerDay: 3 });
    clock.set(new Date('2026-03-01T00:00:00.000Z'));
    expect(await authorize(p, card, 600)).toMatchObject({ status: 'AUTHORIZED' });
    clock.set(new Date('2026-03-01T23:59:59.999Z'));
    expect(await authorize(p, card, 400)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 1)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
    clock.advance(1); // 2026-03-02T00:00:00.000Z
    expect(await authorize(p, card, 1000)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 1)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
    clock.set(new Date('2026-03-03T08:00:00.000Z'));
    for (let i = 0; i < 3; i++) expect(await authorize(p, card, 1)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 1)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
  });
});
