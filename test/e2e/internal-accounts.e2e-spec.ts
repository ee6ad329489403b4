import { DataSource, EntityManager } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { CustomersService } from '../../src/customers/customers.service.js';
import { InternalAccountsService } from '../../src/customers/internal-accounts.service.js';
import { LedgerService, systemAccount } from '../../src/ledger/ledger.service.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { ApiError } from '../../src/errors/api-error.js';
import { individual } from '../support/customers.js';
import { recordedEvents } from '../support/events.js';
import { customerAccount, fundedAccount, newCustomer } from '../support/fixtures.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const MAX = 9007199254740991;
const MISSING_ACCOUNT = 'InternalAccount:00000000-0000-7000-8000-000000000000';
const fields = (body: { details?: Record<string, unknown> }) =>
  (body.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();

interface Account {
  id: string;
  customerId?: string;
  balance: { amount: number; currency: { code: string } };
  totalBalance: { amount: number };
}

async function customerWithAccount(p: TestPlatform) {
  const customer = await newCustomer(p);
  return { customer, account: await customerAccount(p, customer.id) };
}

async function platformAccounts(p: TestPlatform): Promise<Account[]> {
  const res = await p.get('/platform/internal-accounts');
  expect(res.status).toBe(200);
  return res.body.data as Account[];
}

const uuidOf = (id: string) => parseId('InternalAccount', id)!;

/**
 * Returns once another session is waiting for a lock this transaction holds (or `gaveUp()`: what
 * should wait has finished), as the PostgreSQL
 * server reports it (pg_blocking_pids): no sleep, no timing. The embedded engine runs one
 * transaction at a time, so while this one is open no other statement runs at all (every other
 * session waits by construction) and there is nothing to observe.
 */
async function waitUntilBlockedBy(m: EntityManager, gaveUp: () => boolean): Promise<void> {
  if (!process.env.TEST_DATABASE_ADMIN_URL) return;
  const [{ pid }] = await m.query<Array<{ pid: number }>>('SELECT pg_backend_pid() AS pid');
  const blocked = () =>
    m.query<unknown[]>('SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]);
  while ((await blocked()).length === 0 && !gaveUp()) await new Promise((r) => setImmediate(r));
}
const inTx = <T>(work: (m: EntityManager) => Promise<T>) => t.app.get(TransactionService).run(work);
const ledgerOf = (id: string) => inTx((m) => t.app.get(LedgerService).entries(m, uuidOf(id)));
/** A movement between the account and the platform's CARD_SETTLEMENT account (USD): + credits the account. */
const move = (m: EntityManager, p: TestPlatform, accountId: string, amount: bigint | number, reason: string) =>
  t.app.get(LedgerService).transfer(m, {
    lines: [
      { account: { internalAccountId: accountId }, amount: BigInt(amount) },
      { account: systemAccount('CARD_SETTLEMENT', parseId('Platform', p.platformId)!, 'USD'), amount: -BigInt(amount) },
    ],
    reason,
    reference: 'Card:x',
  });
const settlement = (p: TestPlatform) => systemAccount('CARD_SETTLEMENT', parseId('Platform', p.platformId)!, 'USD');

describe('platform internal accounts', () => {
  it('a new platform has one INTERNAL_FIAT account per supported currency, without customerId', async () => {
    const p = await TestPlatform.create(t);
    const accounts = await platformAccounts(p);
    expect(accounts).toEqual([
      {
        id: expect.stringMatching(/^InternalAccount:/),
        type: 'INTERNAL_FIAT',
        status: 'ACTIVE',
        balance: { amount: 0, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } },
        totalBalance: { amount: 0, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } },
        fundingPaymentInstructions: [],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    // Platform accounts are not customer accounts.
    expect((await p.get('/customers/internal-accounts')).body.totalCount).toBe(0);
  });

  it('PATCH /config adding a currency opens it for the platform and every active customer, never twice', async () => {
    const p = await TestPlatform.create(t);
    const active = (await p.post('/customers', individual())).body;
    const gone = (await p.post('/customers', individual())).body;
    await p.delete(`/customers/${gone.id}`);
    const usd = (await p.get('/config')).body.supportedCurrencies[0];
    const bhd = { ...usd, currencyCode: 'BHD' };
    expect((await p.patch('/config', { supportedCurrencies: [usd, bhd] })).status).toBe(200);

    const mine = await platformAccounts(p);
    expect(mine.map((a) => a.balance.currency.code)).toEqual(['USD', 'BHD']);
    expect(mine[1].balance.currency).toEqual({ code: 'BHD', name: 'Bahraini Dinar', symbol: 'BHD', decimals: 3 });
    const codes = async (customerId: string) =>
      ((await p.get(`/customers/internal-accounts?customerId=${customerId}`)).body.data as Account[])
        .map((a) => a.balance.currency.code)
        .sort();
    expect(await codes(active.id)).toEqual(['BHD', 'USD']);
    // A deleted customer gets no new account.
    expect(await codes(gone.id)).toEqual(['USD']);

    // Removing a currency closes nothing; adding it back opens nothing twice.
    await p.patch('/config', { supportedCurrencies: [bhd] });
    await p.patch('/config', { supportedCurrencies: [usd, bhd] });
    expect((await platformAccounts(p)).length).toBe(2);
    expect(await codes(active.id)).toEqual(['BHD', 'USD']);
    // A customer created now gets both.
    const later = (await p.post('/customers', individual())).body;
    expect(await codes(later.id)).toEqual(['BHD', 'USD']);
  });

  it('filters by currency and type; rejects unknown filters', async () => {
    const p = await TestPlatform.create(t);
    const usd = (await p.get('/config')).body.supportedCurrencies[0];
    await p.patch('/config', { supportedCurrencies: [usd, { ...usd, currencyCode: 'EUR' }] });
    const eur = await p.get('/platform/internal-accounts?currency=EUR');
    expect(eur.body.data.map((a: Account) => a.balance.currency.code)).toEqual(['EUR']);
    expect((await p.get('/platform/internal-accounts?type=INTERNAL_FIAT')).body.data).toHaveLength(2);
    expect((await p.get('/platform/internal-accounts?type=EMBEDDED_WALLET')).body.data).toEqual([]);
    const bad = expectError(await p.get('/platform/internal-accounts?type=SAFE&limit=3'), 400, 'INVALID_INPUT');
    expect(fields(bad)).toEqual(['limit', 'type']);
  });
});

describe('GET /customers/internal-accounts', () => {
  it('pages and filters by customerId, currency and type', async () => {
    const p = await TestPlatform.create(t);
    const usd = (await p.get('/config')).body.supportedCurrencies[0];
    await p.patch('/config', { supportedCurrencies: [usd, { ...usd, currencyCode: 'EUR' }] });
    const a = (await p.post('/customers', individual())).body;
    const b = (await p.post('/customers', individual())).body;
    const all = await p.get('/customers/internal-accounts?limit=3');
    expect(all.body).toMatchObject({ totalCount: 4, hasMore: true });
    expect(all.body.data).toHaveLength(3);
    const rest = await p.get(`/customers/internal-accounts?limit=3&cursor=${all.body.nextCursor}`);
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.hasMore).toBe(false);
    const ids = new Set([...all.body.data, ...rest.body.data].map((x: Account) => x.id));
    expect(ids.size).toBe(4);

    const ofA = (await p.get(`/customers/internal-accounts?customerId=${a.id}`)).body.data as Account[];
    expect(ofA.map((x) => x.customerId)).toEqual([a.id, a.id]);
    const eurOfB = (await p.get(`/customers/internal-accounts?customerId=${b.id}&currency=EUR`)).body.data as Account[];
    expect(eurOfB).toHaveLength(1);
    expect(eurOfB[0]).toMatchObject({ customerId: b.id, balance: { currency: { code: 'EUR' } } });
    expect((await p.get('/customers/internal-accounts?currency=USD&type=INTERNAL_FIAT')).body.totalCount).toBe(2);
    expect((await p.get('/customers/internal-accounts?type=INTERNAL_CRYPTO')).body.totalCount).toBe(0);
    const missing = await p.get(
      '/customers/internal-accounts?customerId=Customer:00000000-0000-7000-8000-000000000000',
    );
    expect(missing.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('rejects malformed filters', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.get('/customers/internal-accounts?customerId=abc&type=SAFE&limit=101');
    expect(fields(expectError(res, 400, 'INVALID_INPUT'))).toEqual(['customerId', 'limit', 'type']);
  });

  it('is a read: VIEW suffices', async () => {
    const p = await TestPlatform.create(t);
    const viewer = await p.token(['VIEW']);
    const res = await t.http.get(`${V}/customers/internal-accounts`).set('Authorization', viewer.authorization);
    expect(res.status).toBe(200);
    const own = await t.http.get(`${V}/platform/internal-accounts`).set('Authorization', viewer.authorization);
    expect(own.status).toBe(200);
  });
});

describe('POST /sandbox/internal-accounts/{accountId}/fund', () => {
  it("adds funds to a customer's account and to the platform's own, through the ledger", async () => {
    const p = await TestPlatform.create(t);
    const { account } = await customerWithAccount(p);
    const res = await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 100000 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: account.id, balance: { amount: 100000 }, totalBalance: { amount: 100000 } });
    const again = await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 550 });
    expect(again.body.balance.amount).toBe(100550);
    const listed = (await p.get(`/customers/internal-accounts?customerId=${account.customerId}`)).body.data[0];
    expect(listed.balance.amount).toBe(100550);
    const ledger = await ledgerOf(account.id);
    expect(ledger.map((e) => [e.seq, e.amount, e.balanceAfter, e.reason])).toEqual([
      ['1', '100000', '100000', 'SANDBOX_FUNDING'],
      ['2', '550', '100550', 'SANDBOX_FUNDING'],
    ]);

    const [own] = await platformAccounts(p);
    const funded = await p.post(`/sandbox/internal-accounts/${own.id}/fund`, { amount: MAX });
    expect(funded.status).toBe(200);
    expect(funded.body.balance.amount).toBe(MAX);
    expect(funded.body.customerId).toBeUndefined();
  });

  it('accepts only a positive integer up to 9007199254740991 as amount (a FieldError on amount otherwise)', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await customerWithAccount(p);
    const url = `/sandbox/internal-accounts/${account.id}/fund`;
    for (const amount of [0, -1, 1.5, '100', MAX + 1, 1e20, null, true, [100], { value: 1 }]) {
      const res = await p.post(url, { amount });
      const body = expectError(res, 400, 'INVALID_INPUT');
      expect(fields(body)).toEqual(['amount']);
    }
    expect(fields(expectError(await p.post(url, {}), 400, 'INVALID_INPUT'))).toEqual(['amount']);
    expect(fields(expectError(await p.post(url, { amount: 1, currency: 'USD' }), 400, 'INVALID_INPUT'))).toEqual([
      'currency',
    ]);
    // Nothing moved.
    expect(await ledgerOf(account.id)).toEqual([]);
    // The raw JSON number just above the maximum is refused too (it is not a safe integer).
    const raw = await p.post(url).set('Content-Type', 'application/json').send('{"amount": 9007199254740993}');
    expectError(raw, 400, 'INVALID_INPUT');
  });

  it('refuses to take a balance above 9007199254740991 (400 AMOUNT_OUT_OF_RANGE)', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await customerWithAccount(p);
    expect((await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: MAX - 1 })).status).toBe(200);
    expect((await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 1 })).body.balance.amount).toBe(
      MAX,
    );
    expectError(
      await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 1 }),
      400,
      'AMOUNT_OUT_OF_RANGE',
    );
  });

  it('404 ACCOUNT_NOT_FOUND for unknown accounts, 400 for malformed ids, 410 for a deleted customer, TRANSACT needed', async () => {
    const p = await TestPlatform.create(t);
    expectError(
      await p.post(`/sandbox/internal-accounts/${MISSING_ACCOUNT}/fund`, { amount: 1 }),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    const bad = await p.post('/sandbox/internal-accounts/Customer:00000000-0000-7000-8000-000000000000/fund', {
      amount: 1,
    });
    expect(fields(expectError(bad, 400, 'INVALID_INPUT'))).toEqual(['accountId']);
    const { customer, account } = await customerWithAccount(p);
    const viewer = await p.token(['VIEW', 'MANAGE']);
    const forbidden = await t.http
      .post(`${V}/sandbox/internal-accounts/${account.id}/fund`)
      .set('Authorization', viewer.authorization)
      .send({ amount: 1 });
    expectError(forbidden, 403, 'FORBIDDEN');
    await p.delete(`/customers/${customer.id}`);
    expectError(await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 1 }), 410, 'CUSTOMER_DELETED');
  });

  it('replays an Idempotency-Key instead of funding twice', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await customerWithAccount(p);
    const url = `/sandbox/internal-accounts/${account.id}/fund`;
    const first = await p.post(url, { amount: 700 }).set('Idempotency-Key', 'fund-1');
    const second = await p.post(url, { amount: 700 }).set('Idempotency-Key', 'fund-1');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await ledgerOf(account.id)).toHaveLength(1);
  });

  it('25 concurrent fundings of one account all count: the balance is their sum, 25 ledger entries', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await customerWithAccount(p);
    const amounts = Array.from({ length: 25 }, (_, i) => (i + 1) * 101);
    const results = await Promise.all(
      amounts.map((amount) => p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount })),
    );
    expect(results.map((r) => r.status)).toEqual(Array<number>(25).fill(200));
    const sum = amounts.reduce((a, b) => a + b, 0);
    const after = (await p.get(`/customers/internal-accounts?customerId=${account.customerId}`)).body.data[0];
    expect(after.balance.amount).toBe(sum);
    const ledger = await ledgerOf(account.id);
    expect(ledger).toHaveLength(25);
    // The history is one chain: seq 1..25, each balance = previous + amount.
    let running = 0n;
    ledger.forEach((e, i) => {
      expect(e.seq).toBe(String(i + 1));
      running += BigInt(e.amount);
      expect(e.balanceAfter).toBe(String(running));
    });
    expect(running).toBe(BigInt(sum));
    expect(ledger.map((e) => Number(e.amount)).sort((x, y) => x - y)).toEqual(amounts);
    // Each movement wrote its INTERNAL_ACCOUNT.BALANCE_UPDATED with the balance it left.
    const events = await recordedEvents(p, 'INTERNAL_ACCOUNT.BALANCE_UPDATED');
    const balances = events.map((e) => (e.data as unknown as Account).balance.amount).sort((x, y) => x - y);
    expect(balances).toEqual(ledger.map((e) => Number(e.balanceAfter)));
  });
});

describe('LedgerService.transfer (for cards and agents)', () => {
  it('debits, refuses to go negative with 400 INSUFFICIENT_FUNDS and writes nothing then', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await fundedAccount(p, 1000);
    const ledger = t.app.get(LedgerService);
    const posted = await inTx((m) => move(m, p, uuidOf(account.id), -400n, 'CARD_CLEARING'));
    expect(posted).toMatchObject({
      entries: [
        { amount: '-400', balanceAfter: '600', seq: '2', currency: 'USD', systemAccount: null },
        { amount: '400', balanceAfter: null, seq: null, currency: 'USD', systemAccount: 'CARD_SETTLEMENT' },
      ],
      accounts: [{ balance: '600' }],
    });
    expect(posted.entries[1].journalId).toBe(posted.journalId);
    expect(await inTx((m) => ledger.journal(m, posted.journalId))).toHaveLength(2);
    const refused = inTx((m) => move(m, p, uuidOf(account.id), -601, 'CARD_CLEARING'));
    await expect(refused).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS', status: 400 });
    expect(await ledgerOf(account.id)).toHaveLength(2);
    // Exactly to zero is fine; the system account holds the other side.
    await inTx((m) => move(m, p, uuidOf(account.id), -600, 'CARD_CLEARING'));
    expect(
      await inTx((m) => ledger.systemBalance(m, parseId('Platform', p.platformId)!, 'CARD_SETTLEMENT', 'USD')),
    ).toBe(1000n);
    const listed = (await p.get(`/customers/internal-accounts?customerId=${account.customerId}`)).body.data[0];
    expect(listed.balance.amount).toBe(0);
  });

  it('20 concurrent debits of 100 on a balance of 1000: exactly 10 succeed and the balance ends at 0', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await fundedAccount(p, 1000);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => inTx((m) => move(m, p, uuidOf(account.id), -100, 'CARD_AUTHORIZATION'))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    for (const o of outcomes)
      if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    const entries = await ledgerOf(account.id);
    expect(entries).toHaveLength(11);
    expect(entries[entries.length - 1].balanceAfter).toBe('0');
  });

  it('rolls back with the caller: a failure after posting leaves no entry and no balance change', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await customerWithAccount(p);
    const ledger = t.app.get(LedgerService);
    const failing = inTx(async (m) => {
      await move(m, p, uuidOf(account.id), 5, 'TEST');
      throw new Error('caller failed');
    });
    await expect(failing).rejects.toThrow('caller failed');
    expect(await ledgerOf(account.id)).toEqual([]);
    // Outside a transaction it refuses to run.
    const lines = (accountId: string) => [
      { account: { internalAccountId: accountId }, amount: 5n },
      { account: settlement(p), amount: -5n },
    ];
    await expect(
      ledger.transfer(t.app.get(DataSource).manager, { lines: lines(uuidOf(account.id)), reason: 'TEST' }),
    ).rejects.toThrow(/inside a transaction/);
    const unknown = inTx((m) => move(m, p, '00000000-0000-7000-8000-000000000000', 5, 'TEST'));
    await expect(unknown).rejects.toMatchObject({ code: 'ACCOUNT_NOT_FOUND' });
    // Unbalanced lines are a programming error, refused before anything is written.
    const unbalanced = inTx((m) =>
      ledger.transfer(m, {
        lines: [
          { account: { internalAccountId: uuidOf(account.id) }, amount: 5n },
          { account: settlement(p), amount: -4n },
        ],
        reason: 'TEST',
      }),
    );
    await expect(unbalanced).rejects.toThrow(/unbalanced ledger movement: the USD lines/);
    const otherCurrency = inTx((m) =>
      ledger.transfer(m, {
        lines: [
          { account: { internalAccountId: uuidOf(account.id) }, amount: 5n },
          { account: systemAccount('FX', parseId('Platform', p.platformId)!, 'EUR'), amount: -5n },
        ],
        reason: 'TEST',
      }),
    );
    await expect(otherCurrency).rejects.toThrow(/unbalanced/);
    const tooLarge = inTx((m) => move(m, p, uuidOf(account.id), BigInt(MAX) + 1n, 'TEST'));
    await expect(tooLarge).rejects.toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', status: 400 });
    expect(await ledgerOf(account.id)).toEqual([]);
  });

  it('the ledger is append-only in the database itself', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await customerWithAccount(p);
    await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 5 });
    const db = t.app.get(DataSource);
    await expect(
      db.query('UPDATE ledger_entries SET amount = 6 WHERE account_id = $1', [uuidOf(account.id)]),
    ).rejects.toThrow(/append-only/);
    await expect(db.query('DELETE FROM ledger_entries WHERE account_id = $1', [uuidOf(account.id)])).rejects.toThrow(
      /append-only/,
    );
  });
});

describe('LedgerService holds (card authorizations)', () => {
  const accountView = async (p: TestPlatform, customerId: string) =>
    (await p.get(`/customers/internal-accounts?customerId=${customerId}`)).body.data[0] as Account;

  it('a hold lowers balance (available) but not totalBalance; capture debits, release frees; entries agree', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await fundedAccount(p, 1000);
    const ledger = t.app.get(LedgerService);
    const accountId = uuidOf(account.id);
    const { hold } = await inTx((m) =>
      ledger.placeHold(m, {
        platformId: parseId('Platform', p.platformId)!,
        accountId,
        amount: 300,
        reason: 'CARD_AUTHORIZATION',
      }),
    );
    expect(await accountView(p, account.customerId!)).toMatchObject({
      balance: { amount: 700 },
      totalBalance: { amount: 1000 },
    });
    // A debit or another hold may use only what is available.
    await expect(inTx((m) => move(m, p, accountId, -701, 'TEST_DEBIT'))).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    await expect(
      inTx((m) =>
        ledger.placeHold(m, {
          platformId: parseId('Platform', p.platformId)!,
          accountId,
          amount: 701,
          reason: 'CARD_AUTHORIZATION',
        }),
      ),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS', status: 400 });
    const second = await inTx((m) =>
      ledger.placeHold(m, {
        platformId: parseId('Platform', p.platformId)!,
        accountId,
        amount: 700,
        reason: 'CARD_AUTHORIZATION',
      }),
    );
    expect((await accountView(p, account.customerId!)).balance.amount).toBe(0);

    // Capture 100 of the first hold, keep the rest open; then capture 250 more (50 above the hold) and close it.
    await inTx((m) =>
      ledger.captureHold(m, hold, { amount: 100n, reason: 'CARD_CLEARING', close: false, counter: settlement(p) }),
    );
    expect(await accountView(p, account.customerId!)).toMatchObject({
      balance: { amount: 0 },
      totalBalance: { amount: 900 },
    });
    // Nothing is available beyond the holds: a capture above the hold fails and writes nothing.
    await expect(
      inTx((m) =>
        ledger.captureHold(m, hold, { amount: 250n, reason: 'CARD_CLEARING', close: true, counter: settlement(p) }),
      ),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await inTx((m) => ledger.releaseHold(m, second.hold, 100n));
    await inTx((m) =>
      ledger.captureHold(m, hold, { amount: 250n, reason: 'CARD_CLEARING', close: true, counter: settlement(p) }),
    );
    expect(await accountView(p, account.customerId!)).toMatchObject({
      balance: { amount: 50 },
      totalBalance: { amount: 650 },
    });
    await inTx((m) => ledger.releaseHold(m, second.hold));
    expect(await accountView(p, account.customerId!)).toMatchObject({
      balance: { amount: 650 },
      totalBalance: { amount: 650 },
    });

    const entries = await ledgerOf(account.id);
    expect(entries.map((e) => [e.amount, e.balanceAfter])).toEqual([
      ['1000', '1000'],
      ['-100', '900'],
      ['-250', '650'],
    ]);
    const holds = await inTx((m) => ledger.holds(m, accountId));
    expect(holds.map((h) => [h.amount, h.remaining, h.status])).toEqual([
      ['300', '0', 'CLOSED'],
      ['700', '0', 'CLOSED'],
    ]);
  });

  it('the database refuses more held than the balance', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await fundedAccount(p, 10);
    await expect(
      inTx((m) => m.query('UPDATE internal_accounts SET held = 11 WHERE id = $1', [uuidOf(account.id)])),
    ).rejects.toThrow(/internal_accounts_held_covered/);
  });

  it('30 concurrent holds of 100 on a balance of 1000: exactly 10 are placed', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await fundedAccount(p, 1000);
    const ledger = t.app.get(LedgerService);
    const accountId = uuidOf(account.id);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, () =>
        inTx((m) =>
          ledger.placeHold(m, {
            platformId: parseId('Platform', p.platformId)!,
            accountId,
            amount: 100,
            reason: 'CARD_AUTHORIZATION',
          }),
        ),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    expect(await accountView(p, account.customerId!)).toMatchObject({
      balance: { amount: 0 },
      totalBalance: { amount: 1000 },
    });
  });
});

describe('CustomersService.requireActive (for cards, agents and accounts)', () => {
  it('returns the active customer, 404 CUSTOMER_NOT_FOUND for unknown or foreign ids, 410 CUSTOMER_DELETED for deleted ones', async () => {
    const a = await TestPlatform.create(t, 'A');
    const b = await TestPlatform.create(t, 'B');
    const customers = t.app.get(CustomersService);
    const created = (await a.post('/customers', individual())).body;
    const id = parseId('Customer', created.id)!;
    const platformA = parseId('Platform', a.platformId)!;
    const platformB = parseId('Platform', b.platformId)!;
    const row = await inTx((m) => customers.requireActive(m, platformA, id));
    expect(row).toMatchObject({ id, isDeleted: false, platformCustomerId: created.platformCustomerId });
    await expect(inTx((m) => customers.requireActive(m, platformB, id))).rejects.toMatchObject({
      code: 'CUSTOMER_NOT_FOUND',
      status: 404,
    });
    await a.delete(`/customers/${created.id}`);
    const rejected = inTx((m) => customers.requireActive(m, platformA, id, 'update'));
    await expect(rejected).rejects.toBeInstanceOf(ApiError);
    await expect(rejected).rejects.toMatchObject({ code: 'CUSTOMER_DELETED', status: 410 });
  });

  it('holds a concurrent DELETE until the caller commits (the row is locked FOR SHARE)', async () => {
    const p = await TestPlatform.create(t);
    const c = (await p.post('/customers', individual())).body;
    const platformId = parseId('Platform', p.platformId)!;
    let deleted: { status: number } | undefined;
    let deletion: Promise<unknown> = Promise.resolve();
    await inTx(async (m) => {
      await t.app.get(CustomersService).requireActive(m, platformId, parseId('Customer', c.id)!);
      deletion = p.delete(`/customers/${c.id}`).then((res) => (deleted = res));
      await waitUntilBlockedBy(m, () => deleted !== undefined);
      // The DELETE waits for this transaction: what the caller creates for the customer meanwhile commits first.
      expect(deleted).toBeUndefined();
      await t.app.get(InternalAccountsService).openForCurrencies(m, platformId, ['CHF']);
    });
    await deletion;
    expect(deleted!.status).toBe(200);
    const accounts = (await p.get(`/customers/internal-accounts?customerId=${c.id}`)).body.data as Account[];
    expect(accounts.map((x) => x.balance.currency.code).sort()).toEqual(['CHF', 'USD']);
  });

  it('a deleted customer gets no new account through InternalAccountsService.openForCurrencies', async () => {
    const p = await TestPlatform.create(t);
    const c = (await p.post('/customers', individual())).body;
    await p.delete(`/customers/${c.id}`);
    const platformId = parseId('Platform', p.platformId)!;
    await inTx((m) => t.app.get(InternalAccountsService).openForCurrencies(m, platformId, ['USD', 'CHF']));
    const accounts = (await p.get(`/customers/internal-accounts?customerId=${c.id}`)).body.data as Account[];
    expect(accounts.map((x) => x.balance.currency.code)).toEqual(['USD']);
  });
});

describe('tenancy', () => {
  it("platform B cannot see or fund platform A's accounts (404)", async () => {
    const a = await TestPlatform.create(t, 'A');
    const b = await TestPlatform.create(t, 'B');
    const { account } = await customerWithAccount(a);
    const [own] = await platformAccounts(a);
    for (const id of [account.id, own.id])
      expectError(await b.post(`/sandbox/internal-accounts/${id}/fund`, { amount: 1 }), 404, 'ACCOUNT_NOT_FOUND');
    expect((await b.get('/customers/internal-accounts')).body.totalCount).toBe(0);
    const bOwn = await platformAccounts(b);
    expect(bOwn.map((x) => x.id)).not.toContain(own.id);
    expect(await ledgerOf(account.id)).toEqual([]);
  });
});
