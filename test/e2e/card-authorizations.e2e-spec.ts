import { parseId } from '../../src/common/ids.js';
import { LedgerService } from '../../src/ledger/ledger.service.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { authorization, cardWithFunds } from '../support/card-transactions.js';
import type { TestCard } from '../support/card-transactions.js';
import { recordedEvents } from '../support/events.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Txn {
  id: string;
  status: string;
  cardDeclinedReason?: string;
  authorizedAmount: { amount: number };
  settledAmount?: { amount: number };
  refundedAmount?: { amount: number };
  originalTransactionId?: string;
  direction: string;
}

const sim = (p: TestPlatform, card: TestCard, what: string, body: object) =>
  p.post(`/sandbox/cards/${card.id}/simulate/${what}`, body);

/** Simulates and expects 202; answers the resulting card transaction. */
async function simulate(p: TestPlatform, card: TestCard, what: string, body: object): Promise<Txn> {
  const res = await sim(p, card, what, body);
  if (res.status !== 202) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  expect(res.body.issuerTransactionToken).toEqual(expect.any(String));
  return res.body.cardTransaction as Txn;
}
const authorize = (p: TestPlatform, card: TestCard, amount: number, descriptor?: string) =>
  simulate(p, card, 'authorization', authorization(amount, descriptor));

async function balances(p: TestPlatform, card: TestCard) {
  const res = await p.get(`/customers/internal-accounts?customerId=${card.customer.id}&currency=USD`);
  const [a] = res.body.data as Array<{ balance: { amount: number }; totalBalance: { amount: number } }>;
  return { available: a.balance.amount, total: a.totalBalance.amount };
}

const fields = (body: { details?: Record<string, unknown> }) =>
  (body.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();

/**
 * Ledger agreement: the account's balance is the sum of its entries (and the latest entry's
 * balanceAfter); held is the sum of its open holds.
 */
async function expectLedgerAgrees(card: TestCard) {
  const accountId = parseId('InternalAccount', card.account.id)!;
  await t.app.get(TransactionService).run(async (m) => {
    const ledger = t.app.get(LedgerService);
    const entries = await ledger.entries(m, accountId);
    const holds = await ledger.holds(m, accountId);
    const [row] = await m.query<Array<{ balance: string; held: string }>>(
      'SELECT balance::text, held::text FROM internal_accounts WHERE id = $1',
      [accountId],
    );
    const sum = entries.reduce((s, e) => s + BigInt(e.amount), 0n);
    expect(BigInt(row.balance)).toBe(sum);
    expect(entries[entries.length - 1].balanceAfter).toBe(row.balance);
    const held = holds.filter((h) => h.status === 'OPEN').reduce((s, h) => s + BigInt(h.remaining), 0n);
    expect(BigInt(row.held)).toBe(held);
  });
}

describe('POST /sandbox/cards/{id}/simulate/authorization', () => {
  it('approves with a hold on the funding source: 202, the transaction, CARD_TRANSACTION.AUTHORIZED', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000);
    const res = await sim(p, card, 'authorization', authorization(1250));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      issuerTransactionToken: expect.any(String),
      cardTransaction: {
        type: 'CARD',
        id: expect.stringMatching(/^Transaction:[0-9a-f-]{36}$/),
        cardId: card.id,
        customerId: card.customer.id,
        platformCustomerId: card.customer.platformCustomerId,
        issuerTransactionToken: res.body.issuerTransactionToken,
        status: 'AUTHORIZED',
        direction: 'DEBIT',
        description: 'BLUE BOTTLE COFFEE SF',
        merchant: { descriptor: 'BLUE BOTTLE COFFEE SF', mcc: '5814', country: 'US' },
        authorizedAmount: { amount: 1250, currency: expect.objectContaining({ code: 'USD' }) },
        accountId: card.account.id,
        authorizedAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    expect(await balances(p, card)).toEqual({ available: 8750, total: 10_000 });
    const [event] = await recordedEvents(p, 'CARD_TRANSACTION.AUTHORIZED');
    expect(event.data).toEqual(res.body.cardTransaction);
    await expectLedgerAgrees(card);
  });

  it('counts each committed decision in card_authorizations_total by outcome', async () => {
    const counter = t.app.get(MetricsService).cardAuthorizations;
    const count = async (outcome: string) =>
      (await counter.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
    const before = { approved: await count('approved'), declined: await count('declined') };
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000);
    expect(await authorize(p, card, 100)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 100, 'SHOP-003')).toMatchObject({ status: 'DECLINED' });
    expect(await count('approved')).toBe(before.approved + 1);
    expect(await count('declined')).toBe(before.declined + 1);
  });

  it('descriptor suffixes: 002 INSUFFICIENT_FUNDS, 003 CARD_NOT_ACTIVE, 005 approved, 006 approved then EXCEPTION at clearing', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000);
    expect(await authorize(p, card, 100, 'AMAZON RETAIL US-002')).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'INSUFFICIENT_FUNDS',
    });
    expect(await authorize(p, card, 100, 'SHOP-003')).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'CARD_NOT_ACTIVE',
    });
    expect(await authorize(p, card, 100, 'SLOW PULL 005')).toMatchObject({ status: 'AUTHORIZED' });
    const failing = await authorize(p, card, 100, 'FAILING 006');
    expect(failing.status).toBe('AUTHORIZED');
    const cleared = await simulate(p, card, 'clearing', { cardTransactionId: failing.id, amount: 100 });
    expect(cleared).toMatchObject({ status: 'EXCEPTION', settledAmount: { amount: 100 } });
    expect((await recordedEvents(p, 'CARD_TRANSACTION.DECLINED')).map((e) => e.data.cardDeclinedReason)).toEqual([
      'INSUFFICIENT_FUNDS',
      'CARD_NOT_ACTIVE',
    ]);
    expect(await recordedEvents(p, 'CARD_TRANSACTION.EXCEPTION')).toHaveLength(1);
    // Declines hold nothing: 005 holds 100, 006 was pulled.
    expect(await balances(p, card)).toEqual({ available: 9800, total: 9900 });
    await expectLedgerAgrees(card);
  });

  it('validates the body: merchant.descriptor 1 to 25 characters, every FieldError in one 400', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000);
    expect((await sim(p, card, 'authorization', authorization(1, 'X'.repeat(25)))).status).toBe(202);
    const long = expectError(
      await sim(p, card, 'authorization', authorization(1, 'X'.repeat(26))),
      400,
      'INVALID_INPUT',
    );
    expect(fields(long)).toEqual(['merchant.descriptor']);
    expect(
      fields(expectError(await sim(p, card, 'authorization', authorization(1, '')), 400, 'INVALID_INPUT')),
    ).toEqual(['merchant.descriptor']);
    const bad = expectError(
      await sim(p, card, 'authorization', { amount: 0, currency: { code: 'usd' }, merchant: {} }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(bad)).toEqual(['amount', 'currency.code', 'merchant.descriptor']);
    expect(fields(expectError(await sim(p, card, 'authorization', {}), 400, 'INVALID_INPUT'))).toEqual([
      'amount',
      'currency',
      'merchant',
    ]);
    const eur = expectError(
      await sim(p, card, 'authorization', { ...authorization(1), currency: { code: 'EUR' } }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(eur)).toEqual(['currency.code']);
    for (const what of ['clearing', 'return']) {
      const res = expectError(
        await sim(p, card, what, { cardTransactionId: 'Card:x', amount: -1 }),
        400,
        'INVALID_INPUT',
      );
      expect(fields(res)).toEqual(['amount', 'cardTransactionId']);
    }
    expect(
      fields(expectError(await sim(p, card, 'authorization_reversal', { amount: 0 }), 400, 'INVALID_INPUT')),
    ).toEqual(['amount', 'cardTransactionId']);
    expect(fields(expectError(await sim(p, card, 'authorization_expiry', {}), 400, 'INVALID_INPUT'))).toEqual([
      'cardTransactionId',
    ]);
  });

  it('a card that is not ACTIVE declines CARD_NOT_ACTIVE and holds nothing', async () => {
    const p = await TestPlatform.create(t);
    for (const status of ['FROZEN', 'PROCESSING', 'PENDING_KYC', 'CLOSED'] as const) {
      const card = await cardWithFunds(p, 1000, { status });
      expect(await authorize(p, card, 100)).toMatchObject({
        status: 'DECLINED',
        cardDeclinedReason: 'CARD_NOT_ACTIVE',
      });
      expect(await balances(p, card)).toEqual({ available: 1000, total: 1000 });
    }
  });

  it('insufficient available funds decline INSUFFICIENT_FUNDS; exactly the available amount is approved', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    await authorize(p, card, 600);
    expect(await authorize(p, card, 401)).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'INSUFFICIENT_FUNDS',
    });
    expect(await authorize(p, card, 400)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await balances(p, card)).toEqual({ available: 0, total: 1000 });
    await expectLedgerAgrees(card);
  });

  it('409 CONFLICT where the card issuer decides authorizations, on every simulation', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const txn = await authorize(p, card, 100);
    expect((await p.patch('/config', { cardProgram: { authorizationDecisionMaker: 'ISSUER' } })).status).toBe(200);
    const ref = { cardTransactionId: txn.id };
    for (const [what, body] of [
      ['authorization', authorization(1)],
      ['clearing', { ...ref, amount: 1 }],
      ['return', { ...ref, amount: 1 }],
      ['authorization_reversal', ref],
      ['authorization_expiry', ref],
    ] as const)
      expectError(await sim(p, card, what, body), 409, 'CONFLICT');
  });
});

describe('limits', () => {
  it('exactly maxSpendPerTransaction is approved, one unit more declined SPEND_LIMIT_EXCEEDED', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000, { maxSpendPerTransaction: 1000 });
    expect(await authorize(p, card, 1000)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 1001)).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED',
    });
  });

  it('the lower of card and platform applies; the card keeps its own value', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000, { maxSpendPerTransaction: 1000 });
    expect((await p.patch('/config', { cardConfigs: { maxSpendPerTransaction: 500 } })).status).toBe(200);
    expect(await authorize(p, card, 500)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 501)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
    // A platform cap above the card's: the card's applies.
    await p.patch('/config', { cardConfigs: { maxSpendPerTransaction: 5000, maxTransactionsPerDay: 3 } });
    expect(await authorize(p, card, 1001)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
    // The platform's count applies to a card without one of its own: 500 and 1000 approved, then a third, no fourth.
    expect(await authorize(p, card, 1000)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 1)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 1)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
    const stored = await t.app
      .get(TransactionService)
      .run((m) =>
        m.query<Array<{ v: string }>>('SELECT max_spend_per_transaction::text AS v FROM cards WHERE id = $1', [
          parseId('Card', card.id),
        ]),
      );
    expect(stored[0].v).toBe('1000');
  });

  it('daily spend reaching the limit exactly is approved; reversals, expiries and returns restore no capacity', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000, { maxSpendPerDay: 1000 });
    const a = await authorize(p, card, 400);
    const b = await authorize(p, card, 300);
    const c = await authorize(p, card, 300);
    expect(await authorize(p, card, 1)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
    await simulate(p, card, 'authorization_reversal', { cardTransactionId: a.id });
    await simulate(p, card, 'authorization_expiry', { cardTransactionId: b.id });
    await simulate(p, card, 'clearing', { cardTransactionId: c.id, amount: 300 });
    await simulate(p, card, 'return', { cardTransactionId: c.id, amount: 300 });
    expect(await authorize(p, card, 1)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
    // Declines do not count either: still 1000 spent, 3 approved.
    expect(await balances(p, card)).toEqual({ available: 10_000, total: 10_000 });
    await expectLedgerAgrees(card);
  });

  it('daily count: the limit-th authorization is approved, the next declined; reversals restore nothing', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000, { maxTransactionsPerDay: 2 });
    const first = await authorize(p, card, 10);
    await authorize(p, card, 10);
    await simulate(p, card, 'authorization_reversal', { cardTransactionId: first.id });
    expect(await authorize(p, card, 10)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
  });
});

describe('clearing', () => {
  it('partial clearing PARTIALLY_SETTLED (rest stays held), then a final one above the authorization SETTLED', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 10_000, { maxSpendPerTransaction: 1000 });
    const txn = await authorize(p, card, 1000);
    const part = await simulate(p, card, 'clearing', { cardTransactionId: txn.id, amount: 400 });
    expect(part).toMatchObject({ status: 'PARTIALLY_SETTLED', settledAmount: { amount: 400 } });
    expect(await balances(p, card)).toEqual({ available: 9000, total: 9600 });
    // 600 still held, the clearing is 800: 200 more is pulled (a tip), above the per-transaction limit.
    const rest = await simulate(p, card, 'clearing', { cardTransactionId: txn.id, amount: 800 });
    expect(rest).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 1200 },
      authorizedAmount: { amount: 1000 },
    });
    expect(await balances(p, card)).toEqual({ available: 8800, total: 8800 });
    const settled = expectError(
      await sim(p, card, 'clearing', { cardTransactionId: txn.id, amount: 1 }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(settled)).toEqual(['cardTransactionId']);
    expect((await recordedEvents(p)).filter((e) => e.type.startsWith('CARD_TRANSACTION.')).map((e) => e.type)).toEqual([
      'CARD_TRANSACTION.AUTHORIZED',
      'CARD_TRANSACTION.PARTIALLY_SETTLED',
      'CARD_TRANSACTION.SETTLED',
    ]);
    await expectLedgerAgrees(card);
  });

  it('a clearing of 0 acts as an expiry: VOIDED (untouched) or SETTLED (partially settled), the hold released', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const open = await authorize(p, card, 300);
    expect(await simulate(p, card, 'clearing', { cardTransactionId: open.id, amount: 0 })).toMatchObject({
      status: 'VOIDED',
      authorizedAmount: { amount: 0 },
    });
    const partial = await authorize(p, card, 300);
    await simulate(p, card, 'clearing', { cardTransactionId: partial.id, amount: 100 });
    expect(await simulate(p, card, 'clearing', { cardTransactionId: partial.id, amount: 0 })).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 100 },
    });
    expect(await balances(p, card)).toEqual({ available: 900, total: 900 });
    await expectLedgerAgrees(card);
  });

  it('a clearing above what the balance covers: the hold is captured, the transaction EXCEPTION', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const txn = await authorize(p, card, 900);
    expect(await simulate(p, card, 'clearing', { cardTransactionId: txn.id, amount: 1500 })).toMatchObject({
      status: 'EXCEPTION',
      settledAmount: { amount: 1500 },
    });
    expect(await balances(p, card)).toEqual({ available: 100, total: 100 });
    await expectLedgerAgrees(card);
  });
});

describe('reversal and expiry', () => {
  it('partial reversal keeps it AUTHORIZED with a smaller hold; the rest VOIDs it; then 400', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const txn = await authorize(p, card, 500);
    const over = expectError(
      await sim(p, card, 'authorization_reversal', { cardTransactionId: txn.id, amount: 501 }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(over)).toEqual(['amount']);
    expect(await simulate(p, card, 'authorization_reversal', { cardTransactionId: txn.id, amount: 200 })).toMatchObject(
      {
        status: 'AUTHORIZED',
        authorizedAmount: { amount: 300 },
      },
    );
    expect(await balances(p, card)).toEqual({ available: 700, total: 1000 });
    expect(await simulate(p, card, 'authorization_reversal', { cardTransactionId: txn.id })).toMatchObject({
      status: 'VOIDED',
      authorizedAmount: { amount: 0 },
    });
    expect(await balances(p, card)).toEqual({ available: 1000, total: 1000 });
    for (const what of ['authorization_reversal', 'authorization_expiry'])
      expectError(await sim(p, card, what, { cardTransactionId: txn.id }), 400, 'INVALID_INPUT');
    expect((await recordedEvents(p, 'CARD_TRANSACTION.VOIDED')).map((e) => e.data.id)).toEqual([txn.id]);
    await expectLedgerAgrees(card);
  });

  it('expiry VOIDs an open authorization; a partially settled or declined one cannot be reversed or expired (400)', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const open = await authorize(p, card, 200);
    expect(await simulate(p, card, 'authorization_expiry', { cardTransactionId: open.id })).toMatchObject({
      status: 'VOIDED',
    });
    const partial = await authorize(p, card, 200);
    await simulate(p, card, 'clearing', { cardTransactionId: partial.id, amount: 50 });
    const declined = await authorize(p, card, 5000);
    for (const id of [partial.id, declined.id])
      for (const what of ['authorization_reversal', 'authorization_expiry'])
        expectError(await sim(p, card, what, { cardTransactionId: id }), 400, 'INVALID_INPUT');
    await expectLedgerAgrees(card);
  });
});

describe('return', () => {
  it('posts a CREDIT transaction linked to the purchase, never above the net settled amount; the purchase stays SETTLED', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const txn = await authorize(p, card, 500);
    expectError(await sim(p, card, 'return', { cardTransactionId: txn.id, amount: 1 }), 400, 'INVALID_INPUT');
    await simulate(p, card, 'clearing', { cardTransactionId: txn.id, amount: 500 });
    const over = expectError(
      await sim(p, card, 'return', { cardTransactionId: txn.id, amount: 501 }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(over)).toEqual(['amount']);
    const credit = await simulate(p, card, 'return', { cardTransactionId: txn.id, amount: 200 });
    expect(credit).toMatchObject({
      direction: 'CREDIT',
      status: 'SETTLED',
      originalTransactionId: txn.id,
      settledAmount: { amount: 200 },
    });
    expect(credit.id).not.toBe(txn.id);
    expect(await balances(p, card)).toEqual({ available: 700, total: 700 });
    expectError(await sim(p, card, 'return', { cardTransactionId: txn.id, amount: 301 }), 400, 'INVALID_INPUT');
    await simulate(p, card, 'return', { cardTransactionId: txn.id, amount: 300 });
    expectError(await sim(p, card, 'return', { cardTransactionId: txn.id, amount: 1 }), 400, 'INVALID_INPUT');
    // A return is not itself returnable.
    expectError(await sim(p, card, 'return', { cardTransactionId: credit.id, amount: 1 }), 400, 'INVALID_INPUT');

    const list = (await p.get(`/cards/${card.id}/transactions`)).body;
    const purchase = list.data.find((x: Txn) => x.id === txn.id);
    expect(purchase).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 500 },
      refundedAmount: { amount: 500 },
    });
    expect(await balances(p, card)).toEqual({ available: 1000, total: 1000 });
    expect((await recordedEvents(p, 'CARD_TRANSACTION.SETTLED')).map((e) => e.data.direction)).toEqual([
      'DEBIT',
      'CREDIT',
      'CREDIT',
    ]);
    await expectLedgerAgrees(card);
  });
});

describe('GET /cards/{id}/transactions', () => {
  it('pages the card’s transactions newest first, declines included', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const other = await cardWithFunds(p, 1000);
    const ids: string[] = [];
    for (const amount of [1, 2, 5000]) ids.push((await authorize(p, card, amount)).id);
    await authorize(p, other, 1);
    const first = await p.get(`/cards/${card.id}/transactions?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ totalCount: 3, hasMore: true });
    const second = await p.get(`/cards/${card.id}/transactions?limit=2&cursor=${first.body.nextCursor}`);
    expect([...first.body.data, ...second.body.data].map((x: Txn) => x.id)).toEqual(ids.reverse());
    expect(first.body.data[0]).toMatchObject({ status: 'DECLINED', cardDeclinedReason: 'INSUFFICIENT_FUNDS' });
  });
});

describe('tenancy', () => {
  it("another platform's card is 404 on every simulation and on its transactions; another card's transaction is 404", async () => {
    const a = await TestPlatform.create(t, 'A');
    const b = await TestPlatform.create(t, 'B');
    const card = await cardWithFunds(a, 1000);
    const txn = await authorize(a, card, 100);
    const ref = { cardTransactionId: txn.id };
    const routes = [
      ['authorization', authorization(1)],
      ['clearing', { ...ref, amount: 1 }],
      ['return', { ...ref, amount: 1 }],
      ['authorization_reversal', ref],
      ['authorization_expiry', ref],
    ] as const;
    for (const [what, body] of routes) expectError(await sim(b, card, what, body), 404, 'NOT_FOUND');
    expectError(await b.get(`/cards/${card.id}/transactions`), 404, 'NOT_FOUND');
    // B's own card, A's transaction: not found either.
    const mine = await cardWithFunds(b, 1000);
    for (const [what, body] of routes.slice(1))
      expectError(await sim(b, mine, what, body), 404, 'TRANSACTION_NOT_FOUND');
    expect((await a.get(`/cards/${card.id}/transactions`)).body.data).toHaveLength(1);
    expect(await balances(a, card)).toEqual({ available: 900, total: 1000 });
  });
});
