import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { authorization, cardWithFunds } from '../support/card-transactions.js';
import type { TestCard } from '../support/card-transactions.js';
import { recordedEvents } from '../support/events.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * The sandbox simulations beyond authorization, clearing, return, reversal and expiry
 * (docs/cards.md, "Simulations"): balance inquiry, credit, financial and financial credit
 * authorizations, authorization advice, credit authorization advice and return reversal. Each
 * checks the card transaction, the funding account's balances, the events and that the platform's
 * ledger balances (ledger:verify's check: every journal sums to zero, balances are their entries).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Txn {
  id: string;
  status: string;
  direction: string;
  cardDeclinedReason?: string;
  authorizedAmount: { amount: number };
  settledAmount?: { amount: number };
  refundedAmount?: { amount: number };
  originalTransactionId?: string;
}

const sim = (p: TestPlatform, card: TestCard, what: string, body: object) =>
  p.post(`/sandbox/cards/${card.id}/simulate/${what}`, body);

async function simulate(p: TestPlatform, card: TestCard, what: string, body: object): Promise<Txn> {
  const res = await sim(p, card, what, body);
  if (res.status !== 202) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  expect(res.body.issuerTransactionToken).toEqual(expect.any(String));
  return res.body.cardTransaction as Txn;
}

async function balances(p: TestPlatform, card: TestCard) {
  const res = await p.get(`/customers/internal-accounts?customerId=${card.customer.id}&currency=USD`);
  const [a] = res.body.data as Array<{ balance: { amount: number }; totalBalance: { amount: number } }>;
  return { available: a.balance.amount, total: a.totalBalance.amount };
}

/** ledger:verify for the platform: balanced journals (no money created), balances and holds agree. */
async function expectLedgerVerifies(p: TestPlatform) {
  expect(await verifyLedger(t.app.get(DataSource), parseId('Platform', p.platformId))).toMatchObject({ ok: true });
}

const inquiry = (descriptor = 'SHELL OIL 12345678') => ({ merchant: { descriptor, mcc: '5541', country: 'US' } });
const fields = (body: { details?: Record<string, unknown> }) =>
  (body.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();

describe('balance_inquiry', () => {
  it('a 0-amount authorization: VOIDED, nothing held or moved, the day limits untouched', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000, { maxTransactionsPerDay: 1 });
    const txn = await simulate(p, card, 'balance_inquiry', inquiry());
    expect(txn).toMatchObject({ status: 'VOIDED', direction: 'DEBIT', authorizedAmount: { amount: 0 } });
    expect(txn.settledAmount).toBeUndefined();
    expect(await balances(p, card)).toEqual({ available: 1000, total: 1000 });
    const [event] = await recordedEvents(p, 'CARD_TRANSACTION.VOIDED');
    expect(event.data).toEqual(txn);
    // It is not a purchase: the one authorization the day allows is still approved.
    expect(await simulate(p, card, 'authorization', authorization(100))).toMatchObject({ status: 'AUTHORIZED' });
    await expectLedgerVerifies(p);
  });

  it('declines like an authorization: a FROZEN card, the 003 and 002 suffixes', async () => {
    const p = await TestPlatform.create(t);
    const frozen = await cardWithFunds(p, 1000, { status: 'FROZEN' });
    expect(await simulate(p, frozen, 'balance_inquiry', inquiry())).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'CARD_NOT_ACTIVE',
    });
    const card = await cardWithFunds(p, 1000);
    expect(await simulate(p, card, 'balance_inquiry', inquiry('FUEL-003'))).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'CARD_NOT_ACTIVE',
    });
    expect(await simulate(p, card, 'balance_inquiry', inquiry('FUEL-002'))).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'INSUFFICIENT_FUNDS',
    });
    expect(await recordedEvents(p, 'CARD_TRANSACTION.DECLINED')).toHaveLength(3);
  });

  it('validates the body: merchant required, descriptor 1 to 25 characters', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const missing = expectError(await sim(p, card, 'balance_inquiry', {}), 400, 'INVALID_INPUT');
    expect(fields(missing)).toEqual(['merchant']);
    const long = expectError(await sim(p, card, 'balance_inquiry', inquiry('X'.repeat(26))), 400, 'INVALID_INPUT');
    expect(fields(long)).toEqual(['merchant.descriptor']);
  });
});

describe('credit_authorization and credit_authorization_advice', () => {
  it.each(['credit_authorization', 'credit_authorization_advice'])(
    '%s: an AUTHORIZED CREDIT with nothing moved; its clearings credit the account (partial, then SETTLED)',
    async (what) => {
      const p = await TestPlatform.create(t);
      const card = await cardWithFunds(p, 1000);
      const credit = await simulate(p, card, what, authorization(2500, 'ACME MARKETPLACE'));
      expect(credit).toMatchObject({ status: 'AUTHORIZED', direction: 'CREDIT', authorizedAmount: { amount: 2500 } });
      expect(await balances(p, card)).toEqual({ available: 1000, total: 1000 });
      const [event] = await recordedEvents(p, 'CARD_TRANSACTION.AUTHORIZED');
      expect(event.data).toEqual(credit);
      const partial = await simulate(p, card, 'clearing', { cardTransactionId: credit.id, amount: 1000 });
      expect(partial).toMatchObject({ status: 'PARTIALLY_SETTLED', settledAmount: { amount: 1000 } });
      expect(await balances(p, card)).toEqual({ available: 2000, total: 2000 });
      const settled = await simulate(p, card, 'clearing', { cardTransactionId: credit.id, amount: 1500 });
      expect(settled).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 2500 } });
      expect(await balances(p, card)).toEqual({ available: 3500, total: 3500 });
      expect(await recordedEvents(p, 'CARD_TRANSACTION.SETTLED')).toHaveLength(1);
      await expectLedgerVerifies(p);
    },
  );

  it('a credit authorization reversed, expired or cleared with 0 is VOIDED without moving money; it counts toward no limit', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000, { maxTransactionsPerDay: 1, maxSpendPerDay: 100 });
    for (const end of ['authorization_reversal', 'authorization_expiry', 'clearing'] as const) {
      const credit = await simulate(p, card, 'credit_authorization', authorization(5000));
      const body = { cardTransactionId: credit.id, ...(end === 'clearing' ? { amount: 0 } : {}) };
      expect(await simulate(p, card, end, body)).toMatchObject({ status: 'VOIDED', authorizedAmount: { amount: 0 } });
    }
    expect(await balances(p, card)).toEqual({ available: 1000, total: 1000 });
    expect(await simulate(p, card, 'authorization', authorization(100))).toMatchObject({ status: 'AUTHORIZED' });
    await expectLedgerVerifies(p);
  });

  it('a FROZEN card declines CARD_NOT_ACTIVE; the currency must be the card’s', async () => {
    const p = await TestPlatform.create(t);
    const frozen = await cardWithFunds(p, 1000, { status: 'FROZEN' });
    expect(await simulate(p, frozen, 'credit_authorization', authorization(100))).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'CARD_NOT_ACTIVE',
      direction: 'CREDIT',
    });
    const card = await cardWithFunds(p, 1000);
    const res = expectError(
      await sim(p, card, 'credit_authorization', { ...authorization(100), currency: { code: 'EUR' } }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(res)).toEqual(['currency.code']);
  });
});

describe('financial_authorization', () => {
  it('approved: pulled at once, SETTLED; it counts toward the day limits', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000, { maxTransactionsPerDay: 1 });
    const txn = await simulate(p, card, 'financial_authorization', authorization(8000, 'ATM WITHDRAWAL 24TH ST'));
    expect(txn).toMatchObject({
      status: 'SETTLED',
      direction: 'DEBIT',
      authorizedAmount: { amount: 8000 },
      settledAmount: { amount: 8000 },
    });
    expect(await balances(p, card)).toEqual({ available: 2000, total: 2000 });
    const [event] = await recordedEvents(p, 'CARD_TRANSACTION.SETTLED');
    expect(event.data).toEqual(txn);
    expect(await simulate(p, card, 'authorization', authorization(100))).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED',
    });
    // A return against it credits the account back.
    await simulate(p, card, 'return', { cardTransactionId: txn.id, amount: 3000 });
    expect(await balances(p, card)).toEqual({ available: 5000, total: 5000 });
    await expectLedgerVerifies(p);
  });

  it('declines: more than available (INSUFFICIENT_FUNDS), above maxSpendPerTransaction, a FROZEN card; 006 ends EXCEPTION', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000, { maxSpendPerTransaction: 800 });
    expect(await simulate(p, card, 'financial_authorization', authorization(900))).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED',
    });
    const { id } = await simulate(p, card, 'authorization', authorization(500));
    expect(await simulate(p, card, 'financial_authorization', authorization(600))).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'INSUFFICIENT_FUNDS',
    });
    expect(await simulate(p, card, 'financial_authorization', authorization(500, 'ATM-006'))).toMatchObject({
      status: 'EXCEPTION',
      settledAmount: { amount: 500 },
    });
    expect(await balances(p, card)).toEqual({ available: 0, total: 500 });
    await simulate(p, card, 'authorization_expiry', { cardTransactionId: id });
    const frozen = await cardWithFunds(p, 1000, { status: 'FROZEN' });
    expect(await simulate(p, frozen, 'financial_authorization', authorization(1))).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'CARD_NOT_ACTIVE',
    });
    expect(await balances(p, frozen)).toEqual({ available: 1000, total: 1000 });
    await expectLedgerVerifies(p);
  });
});

describe('financial_credit_authorization', () => {
  it('approved: the account is credited at once, a SETTLED CREDIT; declined on a FROZEN card', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000, { maxSpendPerDay: 1 });
    const txn = await simulate(p, card, 'financial_credit_authorization', authorization(4000, 'ACME PAYOUTS'));
    expect(txn).toMatchObject({ status: 'SETTLED', direction: 'CREDIT', settledAmount: { amount: 4000 } });
    expect(await balances(p, card)).toEqual({ available: 5000, total: 5000 });
    expect((await recordedEvents(p, 'CARD_TRANSACTION.SETTLED')).map((e) => e.data)).toEqual([txn]);
    const frozen = await cardWithFunds(p, 1000, { status: 'FROZEN' });
    expect(await simulate(p, frozen, 'financial_credit_authorization', authorization(4000))).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'CARD_NOT_ACTIVE',
    });
    expect(await balances(p, frozen)).toEqual({ available: 1000, total: 1000 });
    await expectLedgerVerifies(p);
  });
});

describe('authorization_advice', () => {
  it('re-sizes the hold down and up (no status change, no event); the increase counts as the day’s spend', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000, { maxSpendPerDay: 3000 });
    const auth = await simulate(p, card, 'authorization', authorization(1000));
    const down = await simulate(p, card, 'authorization_advice', { cardTransactionId: auth.id, amount: 600 });
    expect(down).toMatchObject({ status: 'AUTHORIZED', authorizedAmount: { amount: 600 } });
    expect(await balances(p, card)).toEqual({ available: 9400, total: 10_000 });
    const up = await simulate(p, card, 'authorization_advice', { cardTransactionId: auth.id, amount: 2000 });
    expect(up).toMatchObject({ status: 'AUTHORIZED', authorizedAmount: { amount: 2000 } });
    expect(await balances(p, card)).toEqual({ available: 8000, total: 10_000 });
    expect(await recordedEvents(p, 'CARD_TRANSACTION.AUTHORIZED')).toHaveLength(1);
    // 1000, then 1400 of new spend (the 400 advised down restores nothing): 600 is left of the day's 3000.
    expect(await simulate(p, card, 'authorization', authorization(601))).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED',
    });
    expect(await simulate(p, card, 'authorization', authorization(600))).toMatchObject({ status: 'AUTHORIZED' });
    const cleared = await simulate(p, card, 'clearing', { cardTransactionId: auth.id, amount: 2000 });
    expect(cleared).toMatchObject({ status: 'SETTLED', settledAmount: { amount: 2000 } });
    expect(await balances(p, card)).toEqual({ available: 7400, total: 8000 });
    await expectLedgerVerifies(p);
  });

  it('grows the hold only as far as the balance covers; the clearing of the rest ends EXCEPTION', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const auth = await simulate(p, card, 'authorization', authorization(800));
    const up = await simulate(p, card, 'authorization_advice', { cardTransactionId: auth.id, amount: 1500 });
    expect(up).toMatchObject({ status: 'AUTHORIZED', authorizedAmount: { amount: 1500 } });
    expect(await balances(p, card)).toEqual({ available: 0, total: 1000 });
    const cleared = await simulate(p, card, 'clearing', { cardTransactionId: auth.id, amount: 1500 });
    expect(cleared).toMatchObject({ status: 'EXCEPTION', settledAmount: { amount: 1500 } });
    expect(await balances(p, card)).toEqual({ available: 0, total: 0 });
    await expectLedgerVerifies(p);
  });

  it('a partially settled one re-sized to what has settled is SETTLED (event); below it, or a closed one: 400', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000);
    const auth = await simulate(p, card, 'authorization', authorization(1000));
    await simulate(p, card, 'clearing', { cardTransactionId: auth.id, amount: 400 });
    const below = expectError(
      await sim(p, card, 'authorization_advice', { cardTransactionId: auth.id, amount: 300 }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(below)).toEqual(['amount']);
    const settled = await simulate(p, card, 'authorization_advice', { cardTransactionId: auth.id, amount: 400 });
    expect(settled).toMatchObject({ status: 'SETTLED', authorizedAmount: { amount: 400 } });
    expect(await balances(p, card)).toEqual({ available: 9600, total: 9600 });
    expect((await recordedEvents(p, 'CARD_TRANSACTION.SETTLED')).map((e) => e.data)).toEqual([settled]);
    const closed = expectError(
      await sim(p, card, 'authorization_advice', { cardTransactionId: auth.id, amount: 500 }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(closed)).toEqual(['cardTransactionId']);
    const invalid = expectError(
      await sim(p, card, 'authorization_advice', { cardTransactionId: 'nope', amount: 0 }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(invalid)).toEqual(['amount', 'cardTransactionId']);
    await expectLedgerVerifies(p);
  });
});

describe('return_reversal', () => {
  it('takes a return back: the return VOIDED, the money back to CARD_SETTLEMENT, the purchase returnable again', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000);
    const auth = await simulate(p, card, 'authorization', authorization(1000));
    await simulate(p, card, 'clearing', { cardTransactionId: auth.id, amount: 1000 });
    const ret = await simulate(p, card, 'return', { cardTransactionId: auth.id, amount: 400 });
    expect(await balances(p, card)).toEqual({ available: 9400, total: 9400 });
    const reversed = await simulate(p, card, 'return_reversal', { cardTransactionId: ret.id });
    expect(reversed).toMatchObject({
      id: ret.id,
      status: 'VOIDED',
      direction: 'CREDIT',
      originalTransactionId: auth.id,
      authorizedAmount: { amount: 0 },
    });
    expect(reversed.settledAmount).toBeUndefined();
    expect(await balances(p, card)).toEqual({ available: 9000, total: 9000 });
    expect((await recordedEvents(p, 'CARD_TRANSACTION.VOIDED')).map((e) => e.data)).toEqual([reversed]);
    // The whole purchase can be returned again; a reversed return cannot be reversed twice.
    await simulate(p, card, 'return', { cardTransactionId: auth.id, amount: 1000 });
    const again = expectError(
      await sim(p, card, 'return_reversal', { cardTransactionId: ret.id }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(again)).toEqual(['cardTransactionId']);
    // The purchase itself is not a return.
    expectError(await sim(p, card, 'return_reversal', { cardTransactionId: auth.id }), 400, 'INVALID_INPUT');
    await expectLedgerVerifies(p);
  });

  it('when the balance no longer covers it, nothing moves and the return ends EXCEPTION', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const auth = await simulate(p, card, 'authorization', authorization(1000));
    await simulate(p, card, 'clearing', { cardTransactionId: auth.id, amount: 1000 });
    const ret = await simulate(p, card, 'return', { cardTransactionId: auth.id, amount: 700 });
    await simulate(p, card, 'authorization', authorization(500)); // holds most of the refund
    const reversed = await simulate(p, card, 'return_reversal', { cardTransactionId: ret.id });
    expect(reversed).toMatchObject({ status: 'EXCEPTION', settledAmount: { amount: 700 } });
    expect(await balances(p, card)).toEqual({ available: 200, total: 700 });
    expect(await recordedEvents(p, 'CARD_TRANSACTION.EXCEPTION')).toHaveLength(1);
    await expectLedgerVerifies(p);
  });
});

describe('every new simulation', () => {
  const KEYED = [
    ['balance_inquiry', inquiry()],
    ['credit_authorization', authorization(1)],
    ['financial_authorization', authorization(1)],
    ['financial_credit_authorization', authorization(1)],
    ['credit_authorization_advice', authorization(1)],
  ] as const;

  it('409 CONFLICT where the card issuer decides authorizations', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const txn = await simulate(p, card, 'authorization', authorization(100));
    expect((await p.patch('/config', { cardProgram: { authorizationDecisionMaker: 'ISSUER' } })).status).toBe(200);
    for (const [what, body] of KEYED) expectError(await sim(p, card, what, body), 409, 'CONFLICT');
    expectError(await sim(p, card, 'authorization_advice', { cardTransactionId: txn.id, amount: 5 }), 409, 'CONFLICT');
    expectError(await sim(p, card, 'return_reversal', { cardTransactionId: txn.id }), 409, 'CONFLICT');
  });

  it("another platform's card is 404; another card's transaction is 404 TRANSACTION_NOT_FOUND", async () => {
    const a = await TestPlatform.create(t);
    const b = await TestPlatform.create(t);
    const card = await cardWithFunds(a, 1000);
    const other = await cardWithFunds(a, 1000);
    const txn = await simulate(a, card, 'authorization', authorization(100));
    for (const [what, body] of KEYED) expectError(await sim(b, card, what, body), 404, 'NOT_FOUND');
    expectError(await sim(b, card, 'authorization_advice', { cardTransactionId: txn.id, amount: 5 }), 404, 'NOT_FOUND');
    expectError(
      await sim(a, other, 'authorization_advice', { cardTransactionId: txn.id, amount: 5 }),
      404,
      'TRANSACTION_NOT_FOUND',
    );
    expectError(await sim(a, other, 'return_reversal', { cardTransactionId: txn.id }), 404, 'TRANSACTION_NOT_FOUND');
  });
});

describe('concurrency (each simulation locks the card row, then its transactions)', () => {
  it('two return reversals of one return: exactly one takes the money back, the other is 400', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000);
    const auth = await simulate(p, card, 'authorization', authorization(1000));
    await simulate(p, card, 'clearing', { cardTransactionId: auth.id, amount: 1000 });
    const ret = await simulate(p, card, 'return', { cardTransactionId: auth.id, amount: 600 });
    const answers = await Promise.all([1, 2].map(() => sim(p, card, 'return_reversal', { cardTransactionId: ret.id })));
    expect(answers.map((r) => r.status).sort()).toEqual([202, 400]);
    expect(await balances(p, card)).toEqual({ available: 9000, total: 9000 });
    await expectLedgerVerifies(p);
  });

  it('advices and a clearing racing on one authorization leave the hold, the account and the ledger in agreement', async () => {
    const p = await TestPlatform.create(t);
    for (let round = 0; round < 5; round++) {
      const card = await cardWithFunds(p, 10_000);
      const auth = await simulate(p, card, 'authorization', authorization(1000));
      const answers = await Promise.all([
        sim(p, card, 'authorization_advice', { cardTransactionId: auth.id, amount: 3000 }),
        sim(p, card, 'authorization_advice', { cardTransactionId: auth.id, amount: 500 }),
        sim(p, card, 'clearing', { cardTransactionId: auth.id, amount: 2000 }),
      ]);
      // Each is applied or refused for the state it found (never a 5xx).
      expect(answers.map((r) => r.status).filter((s) => s !== 202 && s !== 400)).toEqual([]);
      const page = await p.get(`/cards/${card.id}/transactions`);
      const [txn] = (page.body.data as Txn[]).filter((x) => x.id === auth.id);
      const { available, total } = await balances(p, card);
      // What settled left the account; what is still authorized beyond it is held.
      const settled = txn.settledAmount?.amount ?? 0;
      expect(total).toBe(10_000 - settled);
      const held = txn.status === 'SETTLED' ? 0 : Math.max(txn.authorizedAmount.amount - settled, 0);
      expect(total - available).toBe(held);
    }
    await expectLedgerVerifies(p);
  });
});
