import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { RAIL_SEND_LEASE_MS, RailWorker } from '../../src/payments/rail/rail-worker.service.js';
import { ChildServer } from '../support/child-server.js';
import { recordedEvents } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { isolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';
import { ModernTreasuryStandIn } from '../support/modern-treasury-stand-in.js';
import { payer, type Json } from '../support/payments.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * A payout through the service on PAYOUT_RAIL=modern-treasury with SANDBOX=false, against the
 * Modern Treasury stand-in (every request validated against its published OpenAPI subset,
 * webhooks signed as Modern Treasury signs them): COMPLETED only through the signed webhook, a
 * return refunds it, forged and replayed webhooks change nothing, duplicated and reordered ones
 * land once, and a worker process killed with SIGKILL between the provider call and recording its
 * answer leaves one payment order and a ledger that verifies. On a database of the file's own (the
 * killed worker claims every due payout). Customers are set up through a SANDBOX=true app on the
 * same database (its /sandbox routes fund and approve them); money moves only through the
 * production app.
 */
const clock = new FakeClock();
let db: IsolatedDatabase;
let setup: TestApp;
let t: TestApp;
let mt: ModernTreasuryStandIn;
const ORIGINATING = '0f8e8a3c-7d8b-4b8e-9f0c-5b6a7c8d9e01';

const mtEnv = () => ({
  SANDBOX: 'false',
  PAYOUT_RAIL: 'modern-treasury',
  MODERN_TREASURY_API_KEY: mt.apiKey,
  MODERN_TREASURY_ORGANIZATION_ID: mt.organizationId,
  MODERN_TREASURY_ORIGINATING_ACCOUNT_ID: ORIGINATING,
  MODERN_TREASURY_WEBHOOK_KEY: mt.webhookKey,
  MODERN_TREASURY_BASE_URL: mt.url,
  // SANDBOX=false binds no sandbox adapter: every other port is off, rates are the operator's.
  CARD_ISSUER: 'none',
  STABLECOIN_PROVIDER: 'none',
  BANK_LINK_PROVIDER: 'none',
  KYC_PROVIDER: 'none',
  EMAIL_TRANSPORT: 'none',
  SMS_TRANSPORT: 'none',
  RATE_SOURCE: 'static',
  FX_RATES: 'EUR=0.92',
});

beforeAll(async () => {
  mt = await ModernTreasuryStandIn.start();
  db = await isolatedDatabase();
  setup = await startTestApp({ SANDBOX: 'true' }, { clock, databaseUrl: db.url });
  t = await startTestApp(mtEnv(), { clock, databaseUrl: db.url });
  mt.webhookUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/webhooks/rails/modern-treasury`;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await setup?.close();
  await db?.close();
  await mt?.stop();
});
afterEach(() => {
  expect(mt.violations).toEqual([]);
  expect(mt.answerViolations).toEqual([]);
});

const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;
const worker = () => t.app.get(RailWorker);

/** A funded customer (set up on the sandbox app) paying out on the production app. */
async function production(funds = 100_000) {
  const p = await TestPlatform.create(setup);
  const a = await payer(p, funds);
  const live = p.on(t);
  const payout = async (amount: number) => {
    const quote = await a.quote(amount);
    const res = await live.post(`/quotes/${quote.id as string}/execute`);
    expect([res.status, (res.body as Json).status]).toEqual([200, 'PROCESSING']);
    return quote.transactionId as string;
  };
  const transaction = async (id: string) => (await live.get(`/transactions/${id}`)).body as Json;
  const events = async (id: string) =>
    (await recordedEvents(live))
      .filter((e) => e.type.startsWith('OUTGOING_PAYMENT.') && e.data.id === id)
      .map((e) => `${e.type}:${String(e.data.status)}`);
  return { p: live, a, payout, transaction, events };
}

it('a payout is handed to Modern Treasury after the commit (one payment order, our id its key) and reaches COMPLETED only through the signed webhook; a return refunds it', async () => {
  const { p, a, payout, transaction, events } = await production();
  const id = await payout(12_345);
  expect(await transaction(id)).toMatchObject({ status: 'PENDING' });
  expect(mt.orderFor(id)).toBeUndefined(); // nothing sent before the worker
  expect(await worker().runOnce({ platformId: uuidOf(p) })).toBe(1);
  const order = mt.orderFor(id)!;
  expect(order).toMatchObject({
    amount: 12_345,
    currency: 'USD',
    direction: 'credit',
    originating_account_id: ORIGINATING,
  });
  expect(mt.ordersCreatedFor(id)).toBe(1);
  expect(await transaction(id)).toMatchObject({ status: 'PROCESSING' });
  expect(await worker().runOnce({ platformId: uuidOf(p) })).toBe(0); // no news, no change
  await mt.advance(order.id as string, 'completed');
  expect(await transaction(id)).toMatchObject({ status: 'COMPLETED', settledAt: expect.any(String) });
  expect(await a.balance()).toBe(100_000 - 12_345);
  await mt.advance(order.id as string, 'returned', { returnCode: 'R01' });
  expect(await transaction(id)).toMatchObject({
    status: 'FAILED',
    failureReason: 'PAYOUT_RETURNED',
    refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
  });
  expect(await a.balance()).toBe(100_000);
  expect(await events(id)).toEqual([
    'OUTGOING_PAYMENT.PENDING:PENDING',
    'OUTGOING_PAYMENT.PROCESSING:PROCESSING',
    'OUTGOING_PAYMENT.COMPLETED:COMPLETED',
    'OUTGOING_PAYMENT.FAILED:FAILED',
    'OUTGOING_PAYMENT.REFUND_PENDING:FAILED',
    'OUTGOING_PAYMENT.REFUND_COMPLETED:FAILED',
  ]);
  expect(await verifyLedger(t.app.get(DataSource), uuidOf(p))).toMatchObject({ ok: true });
});

it('a forged webhook is 401 and a replayed one changes nothing; duplicated and reordered webhooks land once, in order', async () => {
  const { p, payout, transaction, events } = await production();
  const id = await payout(5_000);
  // The hand-off's answer is lost: the order exists at Modern Treasury, our payout is still PENDING.
  mt.failNext(
    { mode: 'drop', operationId: 'createPaymentOrder' },
    { mode: 'drop', operationId: 'createPaymentOrder' },
    {
      mode: 'drop',
      operationId: 'createPaymentOrder',
    },
  );
  expect(await worker().runOnce({ platformId: uuidOf(p) })).toBe(0);
  const order = mt.orderFor(id)!;
  expect(await transaction(id)).toMatchObject({ status: 'PENDING' });
  const processing = await mt.advance(order.id as string, 'processing', { deliver: false });
  const completed = await mt.advance(order.id as string, 'completed', { deliver: false });

  const forged = mt.webhook('payment_order', 'completed', { ...(JSON.parse(completed.body) as Json).data, amount: 1 });
  forged.headers['x-signature'] = mt.sign(forged.body, 'not-the-key');
  const refused = await mt.deliver(forged);
  expect(refused.status).toBe(401);
  expect((JSON.parse(refused.body) as Json).code).toBe('INVALID_SIGNATURE');
  const tampered = await mt.deliver({ ...completed, body: completed.body.replace('"completed"', '"failed"') });
  expect(tampered.status).toBe(401);
  expect(await transaction(id)).toMatchObject({ status: 'PENDING' });
  expect(await events(id)).toEqual(['OUTGOING_PAYMENT.PENDING:PENDING']);

  // COMPLETED before PROCESSING, twice; then the late PROCESSING.
  expect((await mt.deliver(completed)).status).toBe(200);
  expect((await mt.deliver(completed)).status).toBe(200); // a redelivery (the same X-Webhook-ID)
  expect((await mt.deliver(processing)).status).toBe(200);
  expect(await transaction(id)).toMatchObject({ status: 'COMPLETED' });
  // A replay of the whole (signed) webhook later: recorded once, nothing changes.
  expect((await mt.deliver(completed)).status).toBe(200);
  expect(await events(id)).toEqual([
    'OUTGOING_PAYMENT.PENDING:PENDING',
    'OUTGOING_PAYMENT.PROCESSING:PROCESSING',
    'OUTGOING_PAYMENT.COMPLETED:COMPLETED',
  ]);
  // The retried hand-off finds nothing to do: the news already named the provider's order.
  clock.advance(RAIL_SEND_LEASE_MS);
  expect(await worker().runOnce({ platformId: uuidOf(p) })).toBe(0);
  expect(mt.ordersCreatedFor(id)).toBe(1);
  expect(await verifyLedger(t.app.get(DataSource), uuidOf(p))).toMatchObject({ ok: true });
});

it('a failed payment order refunds the payout (ACCOUNT_CANNOT_RECEIVE); a rate-limited hand-off is retried with the same key', async () => {
  const { p, a, payout, transaction } = await production(20_000);
  const id = await payout(7_000);
  mt.failNext({ mode: 'status', status: 429, operationId: 'createPaymentOrder' });
  mt.failNext({ mode: 'status', status: 503, operationId: 'createPaymentOrder' });
  mt.failNext({ mode: 'status', status: 503, operationId: 'createPaymentOrder' });
  expect(await worker().runOnce({ platformId: uuidOf(p) })).toBe(0);
  expect(await transaction(id)).toMatchObject({ status: 'PENDING' });
  clock.advance(RAIL_SEND_LEASE_MS);
  expect(await worker().runOnce({ platformId: uuidOf(p) })).toBe(1);
  expect(mt.ordersCreatedFor(id)).toBe(1);
  await mt.advance(mt.orderFor(id)!.id as string, 'failed', { reason: 'Account closed' });
  expect(await transaction(id)).toMatchObject({
    status: 'FAILED',
    failureReason: 'ACCOUNT_CANNOT_RECEIVE',
    refund: { status: 'COMPLETED' },
  });
  expect(await a.balance()).toBe(20_000);
  expect(await verifyLedger(t.app.get(DataSource), uuidOf(p))).toMatchObject({ ok: true });
});

it('a payout with no news past its rail’s expected settlement is reconciled by polling Modern Treasury', async () => {
  const { p, payout, transaction } = await production();
  const id = await payout(3_000);
  expect(await worker().runOnce({ platformId: uuidOf(p) })).toBe(1);
  const order = mt.orderFor(id)!;
  await mt.advance(order.id as string, 'completed', { deliver: false }); // its webhook never arrives
  expect(await worker().runOnce({ platformId: uuidOf(p) })).toBe(0);
  clock.advance(5 * 86_400_000); // ACH: 5 days
  expect(await worker().runOnce({ platformId: uuidOf(p) })).toBe(1);
  expect(await transaction(id)).toMatchObject({ status: 'COMPLETED' });
});

it('kill -9 of a worker process between the provider call and recording its answer: one payment order, sent again with the same key, a ledger that verifies', async () => {
  // The worker process runs on real time: this test's clock is set back to it (the database's).
  clock.set(((await db.query('SELECT now() AS now')).rows as Array<{ now: Date }>)[0].now);
  const { p, payout, transaction } = await production();
  const id = await payout(9_000);
  // Modern Treasury creates the order but its answer never arrives (the SDK would retry it): the
  // worker process is killed in that window.
  mt.failNext({ mode: 'drop', operationId: 'createPaymentOrder' }, { mode: 'hang', operationId: 'createPaymentOrder' });
  const child = ChildServer.start(['node', 'dist/src/main.js'], {
    ...mtEnv(),
    DATABASE_URL: db.url,
    ROLE: 'worker',
  });
  try {
    await Promise.race([
      until(() => mt.ordersCreatedFor(id) === 1, 'the payment order at Modern Treasury'),
      child.exited.then(({ code }) => {
        throw new Error(`the worker exited (${code}): ${child.output.slice(-20).join('\n')}`);
      }),
    ]);
  } finally {
    child.child.kill('SIGKILL');
    await child.exited;
  }
  expect(await transaction(id)).toMatchObject({ status: 'PENDING' });
  expect(mt.orderFor(id)).toBeDefined();
  // The claim's lease runs out; the next pass sends again with the same Idempotency-Key.
  const [{ due }] = (
    await db.query('SELECT rail_due_real_at AS due FROM outgoing_transactions WHERE id = $1', [
      parseId('Transaction', id),
    ])
  ).rows as Array<{ due: Date }>;
  clock.set(new Date(due.getTime() + 1_000));
  expect(await worker().runOnce({ platformId: uuidOf(p) })).toBe(1);
  expect(mt.ordersCreatedFor(id)).toBe(1);
  await mt.advance(mt.orderFor(id)!.id as string, 'completed');
  expect(await transaction(id)).toMatchObject({ status: 'COMPLETED' });
  expect(await verifyLedger(t.app.get(DataSource), uuidOf(p))).toMatchObject({ ok: true });
}, 120_000);

it('an unconfigured Modern Treasury rail refuses to start, naming the variables', async () => {
  await expect(
    startTestApp({ ...mtEnv(), MODERN_TREASURY_API_KEY: '', MODERN_TREASURY_WEBHOOK_KEY: '' }, { databaseUrl: db.url }),
  ).rejects.toThrow(/MODERN_TREASURY_API_KEY.*\n?.*MODERN_TREASURY_WEBHOOK_KEY/s);
  expectError(await t.http.post('/webhooks/rails/sandbox').send({}), 404, 'NOT_FOUND');
});

/** Resolves once `test` holds (checked every 10 ms). */
async function until(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 6_000; i++) {
    if (test()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}
