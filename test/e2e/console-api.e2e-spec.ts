import { CSV_COLUMNS } from '../../src/console/console-search.service.js';
import { OVERVIEW_CACHE_MS } from '../../src/console/console-overview.service.js';
import { moneyPlatform } from '../support/console-money.js';
import { FakeClock } from '../support/fake-clock.js';
import { recordedEvents } from '../support/events.js';
import { type Json } from '../support/payments.js';
import { walletWithSession } from '../support/wallet-client.js';
import { basicAuth, expectError, invalidFields, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import { wantOwnEvents } from '../support/own-events.js';

/**
 * The console's own read routes over HTTP (the browser tests are console.e2e-spec.ts): the
 * overview's panels, names for ids, the transaction search and its CSV. Session cookie only, scoped
 * to the session's platform, 400 INVALID_INPUT with every FieldError, never a 5xx.
 */
const clock = new FakeClock();
let t: TestApp;
let p: TestPlatform;
let other: TestPlatform;
let money: Awaited<ReturnType<typeof moneyPlatform>>;
let cookie: string;
let otherCookie: string;

async function signIn(q: TestPlatform): Promise<string> {
  const res = await t.http.post('/console/api/session').send({ clientId: q.clientId, clientSecret: q.clientSecret });
  expect(res.status).toBe(200);
  return String(([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]).split(';')[0];
}

const get = (path: string, as = cookie) => t.http.get(`/console/api${path}`).set('Cookie', as);

beforeAll(async () => {
  t = await startTestApp({}, { clock });
  p = await TestPlatform.create(t);
  other = await TestPlatform.create(t);
  money = await moneyPlatform(t, p, clock);
  await moneyPlatform(t, other, clock); // a bystander with the same kind of data
  cookie = await signIn(p);
  otherCookie = await signIn(other);
});
afterAll(() => t.close());

describe('console API', () => {
  it('answers a console session only: Basic credentials and no cookie are 401 on every route', async () => {
    for (const path of ['/overview', '/names?ids=' + money.ada.customer.id, '/transactions', '/transactions/csv']) {
      expectError(await t.http.get(`/console/api${path}`).set('Authorization', p.authorization), 401, 'UNAUTHORIZED');
      expectError(await t.http.get(`/console/api${path}`), 401, 'UNAUTHORIZED');
    }
    // read only: another method is 404, with or without the session
    expectError(await t.http.post('/console/api/overview').set('Cookie', cookie), 404, 'NOT_FOUND');
    expectError(await t.http.delete('/console/api/transactions/csv').set('Cookie', cookie), 404, 'NOT_FOUND');
  });

  it('overview: balances from the ledger, volume per day by status and currency, failed and stuck payments, the oldest approval', async () => {
    const res = await get('/overview');
    expect(res.status).toBe(200);
    const o = res.body as Json;
    const usd = (o.balances as Json[]).find((b) => b.currency.code === 'USD')!;
    // Ada 100.00 - 7.00 - 3.00 (the 10.02 refunded); Grace 50.00 - 25.00 + 15.00 (the 4.00 still pending)
    expect(usd.customers).toMatchObject({ total: 9_000 + 4_000, available: 9_000 + 4_000 });
    expect(usd.currency.decimals).toBe(2);
    const accounts = (await p.get('/customers/internal-accounts?currency=USD&limit=100')).body.data as Json[];
    expect(usd.customers.total).toBe(accounts.reduce((sum, a) => sum + (a.totalBalance.amount as number), 0));
    const platformAccount = (await p.get('/platform/internal-accounts?currency=USD')).body.data as Json[];
    expect(usd.platform.total).toBe(platformAccount.reduce((s, a) => s + (a.totalBalance.amount as number), 0));

    const rows = (o.volume.rows as Json[]).map(({ direction, status, currency, count, amount }) => ({
      direction,
      status,
      currency,
      count,
      amount,
    }));
    expect(rows.sort((a, b) => `${a.direction}${a.status}`.localeCompare(`${b.direction}${b.status}`))).toEqual([
      { direction: 'RECEIVED', status: 'COMPLETED', currency: 'USD', count: 1, amount: 1_500 },
      { direction: 'RECEIVED', status: 'PENDING', currency: 'USD', count: 1, amount: 400 },
      { direction: 'SENT', status: 'COMPLETED', currency: 'USD', count: 2, amount: 3_200 },
      { direction: 'SENT', status: 'FAILED', currency: 'USD', count: 1, amount: 1_002 },
      { direction: 'SENT', status: 'PENDING', currency: 'USD', count: 1, amount: 300 },
    ]);
    expect(o.volume.days).toHaveLength(30);
    expect(o.volume.days).toContain((o.volume.rows as Json[])[0].day);

    // Stuck: the 3.00 left PENDING, and the 4.00 incoming payment whose approval window (5 s) has
    // passed without a decision (the worker that fails it does not run here).
    expect(o.attention).toMatchObject({ failed: 1, stuck: 2, stuckAfterMinutes: 60 });
    expect(
      (o.attention.rows as Json[]).map((r): unknown[] => [r.reason, r.id, r.customerName, r.amount.amount]),
    ).toEqual([
      ['FAILED', money.failing, 'Ada Lovelace', 1_002],
      ['STUCK', money.waiting, 'Grace Hopper', 400],
      ['STUCK', money.stuck, 'Ada Lovelace', 300],
    ]);
    expect(o.approvals).toMatchObject({ pendingActions: 0, pendingIncoming: 1 });
    // the platform's test clock is 2 h ahead: the payment has waited 2 h (and the few seconds the test took)
    expect(o.approvals.oldestAgeSeconds).toBeGreaterThanOrEqual(7200);
    expect(o.approvals.oldestAgeSeconds).toBeLessThan(7200 + 600);
    expect(o.webhooks.days).toHaveLength(14);

    // The other platform's overview is its own (the same data made the same way, its own ids).
    const theirs = (await get('/overview', otherCookie)).body as Json;
    expect((theirs.attention.rows as Json[]).map((r): unknown => r.id)).not.toContain(money.failing);
  });

  it('overview is cached briefly: a new payment shows once the cache expires', async () => {
    const before = (await get('/overview')).body as Json;
    await money.grace.execute((await money.grace.quote(100)).id as string);
    expect((await get('/overview')).body).toEqual(before);
    clock.advance(OVERVIEW_CACHE_MS + 1);
    const after = (await get('/overview')).body as Json;
    const pending = (after.volume.rows as Json[]).find((r) => r.direction === 'SENT' && r.status === 'PENDING')!;
    expect(pending).toMatchObject({ count: 2, amount: 400 });
  });

  it('names: customers, internal and external accounts, agents, cards and transactions; another platform’s ids have none', async () => {
    const account = (await p.get(`/customers/internal-accounts?customerId=${money.ada.customer.id}&currency=USD`)).body
      .data[0] as Json;
    const theirCustomer = ((await other.get('/customers?limit=1')).body.data as Json[])[0].id as string;
    const ids = [money.ada.customer.id, account.id, money.chaseId, money.failing, theirCustomer].join(',');
    const res = await get(`/names?ids=${encodeURIComponent(ids)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      [money.ada.customer.id]: {
        id: money.ada.customer.id,
        label: 'Ada Lovelace',
        detail: money.ada.customer.platformCustomerId,
      },
      [account.id]: { id: account.id, label: 'USD account', detail: 'Ada Lovelace' },
      [money.chaseId]: { id: money.chaseId, label: 'Chase Bank ••••1234', detail: 'for Ada Lovelace, of Ada Lovelace' },
      [money.failing]: { id: money.failing, label: 'Sent 10.02 USD', detail: 'Ada Lovelace' },
    });
    expect(invalidFields(await get('/names?ids=Customer:nope,Quote:01900000-0000-7000-8000-000000000001'))).toEqual([
      'ids',
      'ids',
    ]);
    const many = Array.from(
      { length: 201 },
      (_, i) => `Customer:01900000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    );
    expect(invalidFields(await get(`/names?ids=${many.join(',')}`))).toEqual(['ids']);
    expect(invalidFields(await get('/names'))).toEqual(['ids']);
  });

  it('search: by customer name, amount range, date range and status; another platform’s transactions never', async () => {
    const ids = async (query: string) => {
      const res = await get(`/transactions${query}`);
      expect(res.status).toBe(200);
      return (res.body.data as Json[]).map((r) => r.id as string);
    };
    const ada = await ids('?customerName=ada%20LOVE');
    expect(ada.sort()).toEqual([money.paid, money.failing, money.stuck].sort());
    expect(await ids('?customerName=lovelace&status=FAILED')).toEqual([money.failing]);
    expect(await ids('?customerName=Ada&minAmount=500&maxAmount=800')).toEqual([money.paid]);
    expect(await ids('?currency=USD&minAmount=1500&maxAmount=1500')).toEqual([money.received]);
    expect(await ids('?type=INCOMING&customerName=Grace')).toEqual([money.waiting, money.received]);
    expect(await ids('?customerName=%25')).toEqual([]); // a literal %, not a wildcard
    const { body: first } = await get('/transactions?customerName=Ada&limit=2');
    expect(first).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(first.data[0]).toMatchObject({
      id: money.stuck,
      type: 'OUTGOING',
      status: 'PENDING',
      customerName: 'Ada Lovelace',
      customerId: money.ada.customer.id,
      destination: { destinationType: 'ACCOUNT', accountId: money.chaseId },
      sentAmount: { amount: 300, currency: { code: 'USD', decimals: 2 } },
    });
    expect(await ids(`?customerName=Ada&limit=2&cursor=${first.nextCursor as string}`)).toEqual([money.paid]);
    expect(await ids('?createdAfter=2999-01-01T00:00:00Z')).toEqual([]);
    expect((await ids('?createdBefore=2999-01-01T00:00:00Z&customerName=Ada')).length).toBe(3);
    expect(await ids('?createdBefore=2000-01-01T00:00:00Z')).toEqual([]);
    // every match belongs to this platform
    const all = await ids('?limit=100');
    const theirs = (await t.http.get('/console/api/transactions?limit=100').set('Cookie', otherCookie)).body
      .data as Json[];
    expect(all.filter((id) => theirs.some((r) => r.id === id))).toEqual([]);
  });

  it('search and CSV refuse bad filters with every FieldError (400 INVALID_INPUT), never a 5xx', async () => {
    const bad =
      '?status=NOPE&minAmount=-1&maxAmount=abc&createdAfter=yesterday&currency=usd&limit=0&cursor=x&type=SIDEWAYS';
    const fields = ['createdAfter', 'currency', 'limit', 'maxAmount', 'minAmount', 'status', 'type'];
    expect(invalidFields(await get(`/transactions${bad}`))).toEqual(fields);
    expect(invalidFields(await get(`/transactions/csv${bad}`))).toEqual(fields);
    expect(invalidFields(await get('/transactions?minAmount=10&maxAmount=5'))).toEqual(['minAmount']);
    expect(
      invalidFields(
        await get('/transactions/csv?createdAfter=2026-02-01T00:00:00Z&createdBefore=2026-01-01T00:00:00Z'),
      ),
    ).toEqual(['createdAfter']);
    expect(invalidFields(await get('/transactions?cursor=bm9wZQ'))).toEqual(['cursor']);
    expect(invalidFields(await get('/transactions?customerId=Customer:x'))).toEqual(['customerId']);
    expect(invalidFields(await get('/transactions?unknown=1'))).toEqual(['unknown']);
    const hostile = await get(`/transactions?customerName=${encodeURIComponent("'; DROP TABLE customers; --\\")}`);
    expect(hostile.status).toBe(200);
    expect(hostile.body.data).toEqual([]);
    expect(invalidFields(await get('/transactions/csv?customerName=a%00b'))).toEqual(['customerName']);
    expect(invalidFields(await get('/names?ids=Customer%3A%00'))).toEqual(['ids']);
    expect(invalidFields(await get('/names?ids=a&ids=b'))).toEqual(['ids']);
    expect(invalidFields(await get('/transactions?minAmount=9007199254740992&limit=101'))).toEqual([
      'limit',
      'minAmount',
    ]);
    expectError(await get('/transactions/Transaction:nope/history'), 400, 'INVALID_INPUT');
    expectError(await get(`/transactions/${money.failing}/history`, otherCookie), 404, 'TRANSACTION_NOT_FOUND');
  });

  it('CSV: the same filters, streamed, the reference’s field names as columns', async () => {
    const res = await get('/transactions/csv?customerName=Ada');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="transactions-\d{8}-\d{6}\.csv"$/);
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines[0]).toBe(
      'id,type,status,customerId,platformCustomerId,source.sourceType,source.accountId,source.umaAddress,' +
        'destination.destinationType,destination.accountId,destination.umaAddress,sentAmount.amount,' +
        'sentAmount.currency.code,receivedAmount.amount,receivedAmount.currency.code,exchangeRate,fees,quoteId,' +
        'paymentRail,description,failureReason,createdAt,updatedAt,settledAt',
    );
    const rows = lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [CSV_COLUMNS[i], v])));
    expect(rows.map((r) => r.id)).toEqual([money.stuck, money.failing, money.paid]);
    const failing = (await p.get(`/transactions/${money.failing}`)).body as Json;
    expect(rows[1]).toMatchObject({
      type: 'OUTGOING',
      status: failing.status,
      customerId: money.ada.customer.id,
      platformCustomerId: money.ada.customer.platformCustomerId,
      'source.sourceType': 'ACCOUNT',
      'source.accountId': failing.source.accountId,
      'destination.accountId': money.chaseId,
      'sentAmount.amount': '1002',
      'sentAmount.currency.code': 'USD',
      'receivedAmount.amount': String(failing.receivedAmount.amount),
      quoteId: failing.quoteId,
      failureReason: failing.failureReason,
      createdAt: failing.createdAt,
    });
    const incoming = await get('/transactions/csv?type=INCOMING&status=COMPLETED');
    const [, line] = incoming.text.trimEnd().split('\r\n');
    expect(Object.fromEntries(line.split(',').map((v, i) => [CSV_COLUMNS[i], v]))).toMatchObject({
      id: money.received,
      type: 'INCOMING',
      'source.sourceType': 'UMA_ADDRESS',
      'source.umaAddress': '$success.usd@sandbox.grid.uma.money',
      'sentAmount.amount': '',
      'receivedAmount.amount': '1500',
    });
    // Nothing matches: the header only.
    expect((await get('/transactions/csv?customerName=Nobody')).text).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
  });
});

describe("console API: a customer's wallet", () => {
  it('shows credentials and sessions; MANAGE revokes a live session (audited, AUTH_SESSION.REVOKED); VIEW is 403, another platform is 404', async () => {
    const q = await wantOwnEvents(await TestPlatform.create(t));
    const w = await walletWithSession(q);
    const qCookie = await signIn(q);
    const session = await t.http.get('/console/api/session').set('Cookie', qCookie);
    const csrf = session.body.csrfToken as string;

    const view = await get(`/wallets/${w.accountId}`, qCookie);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ accountId: w.accountId });
    expect(view.body.credentials).toEqual([
      expect.objectContaining({ id: w.credentialId, type: 'EMAIL_OTP', contact: `w•••@example.com` }),
    ]);
    expect(view.body.sessions).toEqual([
      expect.objectContaining({
        id: w.session.id,
        authMethodId: w.credentialId,
        type: 'EMAIL_OTP',
        state: 'ACTIVE',
        revokedAt: null,
      }),
    ]);
    expect(JSON.stringify(view.body)).not.toContain(w.email); // the contact is masked

    // Another platform: its wallet is 404, its session is 404 and stays live.
    expectError(await get(`/wallets/${w.accountId}`), 404, 'ACCOUNT_NOT_FOUND');
    const revoke = (id: string, as: string, csrfToken: string) =>
      t.http.post(`/console/api/wallet-sessions/${id}/revoke`).set('Cookie', as).set('X-CSRF-Token', csrfToken);
    const pCsrf = (await t.http.get('/console/api/session').set('Cookie', cookie)).body.csrfToken as string;
    expectError(await revoke(w.session.id, cookie, pCsrf), 404, 'SESSION_NOT_FOUND');
    // A VIEW token may read, not revoke; the cookie without its CSRF token is refused.
    const viewer = (await q.post('/tokens', { name: 'viewer', permissions: ['VIEW'] })).body as Json;
    const viewerAuth = basicAuth(`${viewer.clientId as string}:${viewer.clientSecret as string}`);
    expect((await t.http.get(`/console/api/wallets/${w.accountId}`).set('Authorization', viewerAuth)).status).toBe(200);
    expectError(
      await t.http.post(`/console/api/wallet-sessions/${w.session.id}/revoke`).set('Authorization', viewerAuth),
      403,
      'FORBIDDEN',
    );
    expectError(await revoke(w.session.id, qCookie, `${csrf}x`), 403, 'FORBIDDEN');
    expectError(await revoke('Session:nope', qCookie, csrf), 400, 'INVALID_INPUT');
    expect((await q.get(`/auth/sessions?accountId=${w.accountId}`)).body.data).toHaveLength(1);

    const done = await revoke(w.session.id, qCookie, csrf);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: w.session.id, accountId: w.accountId });
    expect(typeof done.body.revokedAt).toBe('string');

    // The public list no longer has it; the console's shows it revoked; revoking again is 404.
    expect((await q.get(`/auth/sessions?accountId=${w.accountId}`)).body.data).toEqual([]);
    const after = (await get(`/wallets/${w.accountId}`, qCookie)).body as Json;
    expect(after.sessions).toEqual([
      expect.objectContaining({ id: w.session.id, state: 'REVOKED', revokedAt: done.body.revokedAt }),
    ]);
    expectError(await revoke(w.session.id, qCookie, csrf), 404, 'SESSION_NOT_FOUND');

    // The webhook event, once, and the audit record by the console session's token.
    const events = await recordedEvents(q, 'AUTH_SESSION.REVOKED');
    expect(events.map((e) => e.data.id)).toEqual([w.session.id]);
    const audit = (
      (await q.get(`/audit-events?resourceId=${encodeURIComponent(w.session.id)}`)).body as { data: Json[] }
    ).data.filter((e) => e.action === 'consoleRevokeWalletSession');
    // the revocation, and the second attempt's refusal
    expect(audit.map((e): unknown => e.outcome)).toEqual([
      { status: 404, code: 'SESSION_NOT_FOUND' },
      { status: 200, code: null },
    ]);
    expect(audit[1]).toMatchObject({
      actor: { type: 'api_token' },
      resourceIds: expect.arrayContaining([w.session.id]),
    });
  });
});
