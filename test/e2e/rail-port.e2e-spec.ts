import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { RailAdapter, type RailNews } from '../../src/payments/rail/rail.js';
import { RailNewsApplier } from '../../src/payments/rail/rail-news.service.js';
import { RAIL_SEND_BACKOFF_MS, RailWorker } from '../../src/payments/rail/rail-worker.service.js';
import { SANDBOX_RAIL_STEP_MS, SANDBOX_RAIL_GRACE_MS } from '../../src/payments/rail/sandbox-rail.js';
import { RailOverdue } from '../../src/payments/transactions/rail-overdue.service.js';
import { recordedEvents } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { driveRail, payer, type Json } from '../support/payments.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * The payout rail port on the sandbox adapter (docs/payments.md "The rail"): the hand-off after
 * the commit, idempotent on our transaction id across a lost answer; provider news deduplicated
 * and applied in status order whatever order it arrives in; the webhook route's refusals; the
 * overdue list; PAYOUT_RAIL=none refusing payouts before anything is written. The Modern Treasury
 * adapter's own scenarios: test/e2e/rail-modern-treasury.e2e-spec.ts.
 */
const clock = new FakeClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ QUOTE_TTL_SECONDS: '300' }, { clock });
});
afterAll(() => t.close());

const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;
const outgoing = async (p: TestPlatform, id: string) =>
  (await recordedEvents(p))
    .filter((e) => e.type.startsWith('OUTGOING_PAYMENT.') && e.data.id === id)
    .map((e) => `${e.type}:${String(e.data.status)}`);
const sandboxPayments = (transactionId: string) =>
  t.app
    .get(TransactionService)
    .query<Array<{ n: string | number }>>('SELECT count(*) AS n FROM sandbox_rail_payments WHERE transaction_id = $1', [
      parseId('Transaction', transactionId),
    ])
    .then((r) => Number(r[0].n));

it('a hand-off whose answer is lost is sent again with the same key after its backoff: one payment at the rail, news once', async () => {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 10_000);
  const q = await a.quote(1_004); // the slow rail: no news of its own before the retry
  await a.execute(q.id as string);
  const rail = t.app.get(RailAdapter);
  const worker = t.app.get(RailWorker);
  const send = rail.send.bind(rail);
  // The provider takes the payment, but its answer never reaches us (the connection drops).
  rail.send = async (payment) => {
    await send(payment);
    throw new Error('socket hang up');
  };
  try {
    expect(await worker.runOnce({ platformId: uuidOf(p) })).toBe(0);
  } finally {
    rail.send = send;
  }
  expect((await p.get(`/transactions/${q.transactionId as string}`)).body).toMatchObject({ status: 'PENDING' });
  // Not cancellable any more: the rail may hold it.
  expectError(
    await p.post(`/transactions/${q.transactionId as string}/cancel`, {}),
    409,
    'TRANSACTION_NOT_CANCELLABLE',
  );
  expect(await worker.runOnce({ platformId: uuidOf(p) })).toBe(0); // not before its backoff
  clock.advance(RAIL_SEND_BACKOFF_MS);
  // The retry answers the payment the rail already has (the same idempotency key), with its news.
  expect(await worker.runOnce({ platformId: uuidOf(p) })).toBe(1);
  expect(await sandboxPayments(q.transactionId as string)).toBe(1);
  expect(await driveRail(t, p, clock)).toBe(0);
  expect(await outgoing(p, q.transactionId as string)).toEqual([
    'OUTGOING_PAYMENT.PENDING:PENDING',
    'OUTGOING_PAYMENT.PROCESSING:PROCESSING',
  ]);
  expect(await verifyLedger(t.app.get(DataSource), uuidOf(p))).toMatchObject({ ok: true });
});

it('news out of order lands once, in order: COMPLETED before PROCESSING takes both steps; the late PROCESSING and a replay change nothing', async () => {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 10_000);
  const q = await a.quote(2_000);
  await a.execute(q.id as string);
  const apply = (news: RailNews[]) =>
    t.app.get(TransactionService).run((m) => t.app.get(RailNewsApplier).apply(m, news));
  const news = (status: RailNews['status'], eventId: string): RailNews => ({
    provider: 'sandbox',
    eventId,
    providerRef: 'ref-1',
    transactionId: q.transactionId as string,
    status,
    occurredAt: clock.now(),
  });
  expect(await apply([news('COMPLETED', 'e2')])).toBe(2);
  expect(await apply([news('COMPLETED', 'e2')])).toBe(0); // a replay
  expect(await apply([news('PROCESSING', 'e1')])).toBe(0); // late
  expect(await apply([news('RETURNED', 'e3'), news('RETURNED', 'e3')])).toBe(1); // duplicated in one delivery
  expect((await p.get(`/transactions/${q.transactionId as string}`)).body).toMatchObject({
    status: 'FAILED',
    failureReason: 'PAYOUT_RETURNED',
    refund: { status: 'COMPLETED' },
  });
  expect(await outgoing(p, q.transactionId as string)).toEqual([
    'OUTGOING_PAYMENT.PENDING:PENDING',
    'OUTGOING_PAYMENT.PROCESSING:PROCESSING',
    'OUTGOING_PAYMENT.COMPLETED:COMPLETED',
    'OUTGOING_PAYMENT.FAILED:FAILED',
    'OUTGOING_PAYMENT.REFUND_PENDING:FAILED',
    'OUTGOING_PAYMENT.REFUND_COMPLETED:FAILED',
  ]);
  expect(await a.balance()).toBe(10_000);
  // The provider's id came with the news: the worker has nothing left to hand off.
  clock.advance(SANDBOX_RAIL_STEP_MS);
  expect(await t.app.get(RailWorker).runOnce({ platformId: uuidOf(p) })).toBe(0);
  expect(await sandboxPayments(q.transactionId as string)).toBe(0);
  expect(await verifyLedger(t.app.get(DataSource), uuidOf(p))).toMatchObject({ ok: true });
});

it('the webhook route: only the bound adapter has one (404), and the sandbox takes no webhooks (401, nothing changed)', async () => {
  expectError(await t.http.post('/webhooks/rails/modern-treasury').send({ event: 'completed' }), 404, 'NOT_FOUND');
  const refused = await t.http
    .post('/webhooks/rails/sandbox')
    .set('Content-Type', 'application/json')
    .send('{"status":"COMPLETED"}');
  expectError(refused, 401, 'INVALID_SIGNATURE');
  expectError(await t.http.post(`${V}/webhooks/rails/sandbox`).send({}), 404, 'NOT_FOUND'); // outside the version prefix
});

it("a PROCESSING payout past its rail's expected settlement is overdue (RailOverdue, the rail_transactions_overdue gauge)", async () => {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 10_000);
  const slow = await a.quote(1_004);
  await a.execute(slow.id as string);
  await driveRail(t, p, clock);
  const body = (await p.get(`/transactions/${slow.transactionId as string}`)).body as Json;
  expect(body).toMatchObject({ status: 'PROCESSING', expectedSettlementAt: expect.any(String) });
  const overdue = t.app.get(RailOverdue);
  expect(await overdue.list(uuidOf(p))).toEqual([]);
  const seconds = 3 * 86_400 + (SANDBOX_RAIL_GRACE_MS + SANDBOX_RAIL_STEP_MS) / 1000 + 120;
  expect((await p.post('/sandbox/clock/advance', { seconds })).status).toBe(200);
  expect(await overdue.list(uuidOf(p))).toEqual([
    expect.objectContaining({ transactionId: slow.transactionId, overdueSeconds: expect.any(Number) }),
  ]);
  expect(await driveRail(t, p, clock)).toBe(1); // the sandbox settles it (3 days passed)
  expect(await overdue.list(uuidOf(p))).toEqual([]);
});

describe('PAYOUT_RAIL=none', () => {
  let none: TestApp;
  beforeAll(async () => {
    none = await startTestApp({ PAYOUT_RAIL: 'none' }, { clock });
  });
  afterAll(() => none.close());

  it('an execute, an immediate execute and a transfer-out to an external account answer 503 SERVICE_UNAVAILABLE with nothing written', async () => {
    const p = await TestPlatform.create(none);
    const a = await payer(p, 10_000);
    const q = await a.quote(1_000);
    expectError(await p.post(`/quotes/${q.id as string}/execute`), 503, 'SERVICE_UNAVAILABLE');
    expect((await p.get(`/quotes/${q.id as string}`)).body).toMatchObject({ status: 'PENDING' });
    expectError(await p.get(`/transactions/${q.transactionId as string}`), 404, 'TRANSACTION_NOT_FOUND');
    const immediate = await p.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: a.accountId },
      destination: { destinationType: 'ACCOUNT', accountId: a.externalAccountId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 500,
      immediatelyExecute: true,
    });
    expectError(immediate, 503, 'SERVICE_UNAVAILABLE');
    const out = await p.post('/transfer-out', {
      source: { accountId: a.accountId },
      destination: { accountId: a.externalAccountId, paymentRail: 'ACH' },
      amount: 700,
    });
    expectError(out, 503, 'SERVICE_UNAVAILABLE');
    expect(await a.balance()).toBe(10_000);
    expect((await p.get('/transactions')).body).toMatchObject({ data: [] });
    expectError(await none.http.post('/webhooks/rails/none').send({}), 404, 'NOT_FOUND');
  });
});
