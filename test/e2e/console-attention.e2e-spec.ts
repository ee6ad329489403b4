import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { UmaReconciliationWorker } from '../../src/uma/uma-reconciliation.worker.js';
import { UmaSettlementWorker } from '../../src/uma/uma-settlement.worker.js';
import { individual } from '../support/customers.js';
import { customerAccount, fundedAccount, kycApprovedCustomer } from '../support/fixtures.js';
import { isolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';
import {
  basicAuth,
  expectError,
  startTestApp,
  TEST_WEBHOOK_KEY,
  TestPlatform,
  type TestApp,
} from '../support/test-app.js';
import { FakeCounterparty } from '../support/uma-counterparty.js';
import { FakeClock } from '../support/fake-clock.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { driveRail, payer, type Json } from '../support/payments.js';

/**
 * The console's Needs attention page in a real browser (Chromium from the system, playwright-core):
 * a payment to a counterparty that takes the PAYMENT callback but never answers the settlement
 * inquiry (a fake UMA deployment built on @uma-sdk/core) is listed with its age, amount,
 * counterparty and last error; a MANAGE token resolves it (refund, with a reason): the sender is
 * refunded exactly once, the reason is on the timeline, the audit trail has the operator's action.
 * The same routes refuse a VIEW token (403) and another platform's payment (404).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser && process.env.CI) throw new Error(`No Chromium at ${CHROMIUM}`);
const maybe = hasBrowser ? describe : describe.skip;
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
const WAIT = { timeout: 15_000 };
const SHOTS = path.resolve('docs/console');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const clock = new FakeClock();

maybe('console: Needs attention', () => {
  let db: IsolatedDatabase;
  let t: TestApp;
  let fake: FakeCounterparty;
  let browser: Browser;
  let p: TestPlatform;
  let alice: { customerId: string; accountId: string };
  let stuck: { transactionId: string; amount: number };

  beforeAll(async () => {
    db = await isolatedDatabase();
    t = await startTestApp({ UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS: '0' }, { databaseUrl: db.url, clock });
    fake = await FakeCounterparty.start();
    p = await TestPlatform.create(t);
    const port = (t.app.getHttpServer() as { address(): AddressInfo }).address().port;
    const customer = await kycApprovedCustomer(p, individual({ umaAddress: `$alice@localhost:${port}` }));
    const { account } = await fundedAccount(p, 50_000, { customer });
    alice = { customerId: customer.id, accountId: account.id };
    stuck = await stuckPayment(7_000);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
    mkdirSync(SHOTS, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await fake?.close();
    await t?.close();
    await db?.close();
  });

  /** A payment to the fake counterparty: it takes the callback and never answers the inquiry. */
  const stuckPayment = async (amount: number) => {
    const receiver = `$zoe@${fake.domain}`;
    const lookup = await p.get(`/receiver/uma/${encodeURIComponent(receiver)}?customerId=${alice.customerId}`);
    const quote = (
      await p.post('/quotes', {
        lookupId: (lookup.body as Json).lookupId,
        source: { sourceType: 'ACCOUNT', accountId: alice.accountId },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver, currency: 'EUR' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: amount,
      })
    ).body as Json;
    expect((await p.post(`/quotes/${quote.id as string}/execute`)).status).toBe(200);
    expect(await t.app.get(UmaSettlementWorker).runOnce()).toBe(1);
    expect((await t.app.get(UmaReconciliationWorker).runOnce()).map((r) => r.resolved)).toEqual([null]);
    return { transactionId: quote.transactionId as string, amount };
  };

  /** The operator CLI on this file's database: exit code and stdout's JSON. */
  const cli = (args: string[]) =>
    new Promise<{ code: number; out: Json; err: string }>((resolve) => {
      execFile(
        process.execPath,
        ['dist/src/cli.js', ...args],
        {
          env: {
            PATH: process.env.PATH ?? '',
            DATABASE_URL: db.url,
            KEY_ENCRYPTION_KEYS: TEST_WEBHOOK_KEY,
            LOG_LEVEL: 'error',
          },
        },
        (error, stdout, stderr) => {
          const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
          resolve({ code, out: stdout.trim() ? (JSON.parse(stdout) as Json) : {}, err: stderr });
        },
      );
    });

  const signIn = async (clientId: string, clientSecret: string): Promise<Page> => {
    const address = t.app.getHttpServer().address() as AddressInfo;
    const context = await browser.newContext({
      baseURL: `http://127.0.0.1:${address.port}`,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/console/');
    await page.getByLabel('Client ID').fill(clientId);
    await page.getByLabel('Client secret').fill(clientSecret);
    await page.getByRole('button', { exact: true, name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor(WAIT);
    await page.getByRole('navigation').getByRole('link', { name: 'Needs attention', exact: true }).click();
    await page.getByRole('heading', { name: 'Needs attention', level: 1 }).waitFor(WAIT);
    return page;
  };

  it('lists the stuck payment and resolves it by refund, with the audit record', async () => {
    const before = (await customerAccount(p, alice.customerId, 'USD')).balance.amount;
    const page = await signIn(p.clientId, p.clientSecret);
    const row = page.getByRole('row').filter({ hasText: stuck.transactionId });
    await row.waitFor(WAIT);
    await expect(row.textContent()).resolves.toContain(`$zoe@${fake.domain}`);
    await expect(row.textContent()).resolves.toContain('70.00 USD');
    await expect(row.textContent()).resolves.toContain('(overdue)');
    await expect(row.textContent()).resolves.toMatch(/kind, payload and callback/); // the fake's answer is no status

    await page.evaluate(axeSource);
    const violations = await page.evaluate<Array<{ id: string; impact: string }>>(
      `axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact })))`,
    );
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'attention.png'), fullPage: true });

    await row.getByRole('button', { name: 'Resolve' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/Refund the sender/).check();
    await dialog.getByLabel(/Reason/).fill('the partner confirmed it never credited the payment');
    await dialog.getByRole('button', { name: 'Resolve payment' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${stuck.transactionId} is FAILED` })
      .waitFor(WAIT);
    await page.getByText('None: every payment to another deployment is resolved.').waitFor(WAIT);

    const tx = (await p.get(`/transactions/${stuck.transactionId}`)).body as Json;
    expect(tx).toMatchObject({ status: 'FAILED', refund: expect.objectContaining({ status: 'COMPLETED' }) });
    expect((await customerAccount(p, alice.customerId, 'USD')).balance.amount).toBe(before + stuck.amount);
    const [stored] = await t.app
      .get(DataSource)
      .query<Array<{ timeline: Array<{ status: string; note?: string }> }>>(
        `SELECT timeline FROM outgoing_transactions WHERE id = $1`,
        [parseId('Transaction', stuck.transactionId)],
      );
    expect(stored.timeline.find((s) => s.status === 'FAILED')?.note).toContain(
      'resolved by an operator (refund): the partner confirmed it never credited the payment',
    );
    const audit = (
      (await p.get(`/audit-events?resourceId=${encodeURIComponent(stuck.transactionId)}`)).body as { data: Json[] }
    ).data.filter((e) => e.action === 'consoleResolveSettlement');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: { type: 'api_token' }, outcome: { status: 200 } });
    expect(await verifyLedger(t.app.get(DataSource), parseId('Platform', p.platformId))).toMatchObject({ ok: true });

    // Once only: resolving it again is refused, and nothing moves.
    expectError(
      await t.http
        .post(`/console/api/attention/settlements/${stuck.transactionId}/resolve`)
        .set('Authorization', basicAuth(`${p.clientId}:${p.clientSecret}`))
        .send({ action: 'COMPLETE', reason: 'again' }),
      409,
      'CONFLICT',
    );
    expect((await customerAccount(p, alice.customerId, 'USD')).balance.amount).toBe(before + stuck.amount);
  }, 120_000);

  it('refuses a VIEW token (no actions shown, 403) and another platform (404)', async () => {
    const token = (await p.post('/tokens', { name: 'viewer', permissions: ['VIEW'] })).body as Json;
    const viewer = `${token.clientId as string}:${token.clientSecret as string}`;
    const page = await signIn(token.clientId as string, token.clientSecret as string);
    await page.getByRole('heading', { name: /Unresolved settlements/ }).waitFor(WAIT);
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
    const url = `/console/api/attention/settlements/${stuck.transactionId}/retry`;
    expectError(await t.http.post(url).set('Authorization', basicAuth(viewer)), 403, 'FORBIDDEN');
    const other = await TestPlatform.create(t, 'Another platform');
    expectError(
      await t.http.post(url).set('Authorization', basicAuth(`${other.clientId}:${other.clientSecret}`)),
      404,
      'TRANSACTION_NOT_FOUND',
    );
    const list = await t.http
      .get('/console/api/attention')
      .set('Authorization', basicAuth(`${other.clientId}:${other.clientSecret}`));
    expect(list.body).toEqual({ settlements: [], railTransactions: [] });
  }, 120_000);

  it("a rail transaction past its rail's expected time is listed and counted", async () => {
    const q = await TestPlatform.create(t, 'Rail platform');
    const a = await payer(q);
    const quote = await a.quote(4_004); // ...004: the slow sandbox rail
    await a.execute(quote.id as string);
    const slow = { id: quote.transactionId as string };
    await driveRail(t, q, clock);
    expect(((await q.get(`/transactions/${slow.id}`)).body as Json).status).toBe('PROCESSING');
    const attention = (creds: TestPlatform) =>
      t.http.get('/console/api/attention').set('Authorization', basicAuth(`${creds.clientId}:${creds.clientSecret}`));
    expect((await attention(q)).body).toEqual({ settlements: [], railTransactions: [] });
    // Three days (the slow rail's settlement) and the rail's grace pass on the platform's clock; the
    // rail never reports (its worker does not run here).
    expect((await q.post('/sandbox/clock/advance', { seconds: 3 * 86_400 + 11 * 60 })).status).toBe(200);
    const listed = (await attention(q)).body as { railTransactions: Json[] };
    expect(listed.railTransactions).toEqual([
      expect.objectContaining({ transactionId: slow.id, amount: { amount: 4_004, currency: 'USD' } }),
    ]);
    expect(listed.railTransactions[0].overdueSeconds).toBeGreaterThanOrEqual(60);
    expect((await attention(p)).body).toMatchObject({ railTransactions: [] }); // another platform's: not listed
    const { body } = await t.app.get(MetricsService).scrape();
    expect(body).toMatch(/^rail_transactions_overdue 1$/m);
    const page = await signIn(q.clientId, q.clientSecret);
    await page.getByRole('row').filter({ hasText: slow.id }).waitFor(WAIT);
  }, 120_000);

  it('the same from the CLI: settlements:list, settlements:resolve (audited, exactly once)', async () => {
    const payment = await stuckPayment(3_000);
    const listed = await cli(['settlements:list', '--platform', p.platformId]);
    expect(listed.code).toBe(0);
    expect((listed.out.settlements as Array<{ transactionId: string }>).map((x) => x.transactionId)).toEqual([
      payment.transactionId,
    ]);
    expect(
      (await cli(['settlements:retry', '--platform', p.platformId, '--transaction', payment.transactionId])).code,
    ).toBe(0);
    const args = ['settlements:resolve', '--platform', p.platformId, '--transaction', payment.transactionId];
    expect((await cli([...args, '--action', 'SOMETIMES', '--reason', 'x'])).code).toBe(2);
    const resolved = await cli([...args, '--action', 'COMPLETE', '--reason', 'the partner confirmed the credit']);
    expect(resolved).toMatchObject({ code: 0, out: { transactionId: payment.transactionId, status: 'COMPLETED' } });
    const again = await cli([...args, '--action', 'REFUND', '--reason', 'changed my mind']);
    expect(again.code).toBe(3);
    expect(again.err).toContain('CONFLICT');
    expect(((await p.get(`/transactions/${payment.transactionId}`)).body as Json).status).toBe('COMPLETED');
    const actions = (
      (await p.get(`/audit-events?resourceId=${encodeURIComponent(payment.transactionId)}`)).body as { data: Json[] }
    ).data.map((e) => e.action as string);
    expect(actions).toEqual(expect.arrayContaining(['cli:settlements:retry', 'cli:settlements:resolve']));
    expect(await verifyLedger(t.app.get(DataSource), parseId('Platform', p.platformId))).toMatchObject({ ok: true });
  }, 120_000);
});
