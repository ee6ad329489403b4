import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SystemClock } from '../../src/common/clock.js';
import { spendingAgent, type Json } from '../support/agent-quotes.js';
import { CSV_COLUMNS } from '../../src/console/console-search.service.js';
import { activeCard } from '../support/cards.js';
import { moneyPlatform, UMA_SENDER } from '../support/console-money.js';
import { newBusiness, newDocument, ownerBody } from '../support/documents.js';
import { kycApprovedCustomer } from '../support/fixtures.js';
import { recordedEvents, signedSubscriber, stopSubscribers } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { driveRail, payer } from '../support/payments.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import type { ReceivedWebhook } from '../support/webhook-receiver.js';
import { walletWithSession } from '../support/wallet-client.js';
import { wantOwnEvents } from '../support/own-events.js';

/**
 * The operator console in a real browser: Chromium from the operating system's packages, driven by
 * playwright-core, against the real app on a database of this file's own (the outbox worker is
 * driven by the tests, delivering to a real local receiver). Every page is checked with axe-core
 * (no serious or critical violation) and photographed: into docs/console/ with UPDATE_SCREENSHOTS=1
 * (the docs' pictures), else into a temporary folder (a run leaves the tree as it was). Without a
 * browser the file is skipped on a developer's machine and fails in CI (CI=true): .ci/run installs
 * chromium.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser && process.env.CI) {
  throw new Error(`No Chromium at ${CHROMIUM}: the console's browser tests must run in CI (apt-get install chromium)`);
}
const maybe = hasBrowser ? describe : describe.skip;
if (!hasBrowser) process.stderr.write(`console.e2e-spec.ts skipped: no Chromium at ${CHROMIUM}\n`);

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/console') : mkdtempSync(path.join(tmpdir(), 'console-'));
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WAIT = { timeout: 15_000 };

const clock = new FakeClock();
let db: IsolatedDatabase;
let t: TestApp;
let browser: Browser;
let base: string;
let p: TestPlatform;
let deliver: () => Promise<ReceivedWebhook[]>;
let receiver: { respondWith: (...r: Array<{ status: number; body?: string }>) => unknown };
const contexts: BrowserContext[] = [];
const cspViolations: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!hasBrowser) return;
  db = await isolatedDatabase();
  t = await startTestApp({}, { databaseUrl: db.url, clock });
  const address = t.app.getHttpServer().address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
  const subscriber = await signedSubscriber(t);
  p = subscriber.p;
  deliver = subscriber.deliver;
  receiver = subscriber.capture.receiver;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  if (!hasBrowser) return;
  for (const c of contexts) await c.close();
  await browser?.close();
  await t?.close();
  await stopSubscribers();
  await db?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  return page;
}

async function signIn(page: Page, clientId: string, clientSecret: string): Promise<void> {
  await page.goto('/console/');
  await page.getByLabel('Client ID').fill(clientId);
  await page.getByLabel('Client secret').fill(clientSecret);
  await page.getByRole('button', { exact: true, name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor(WAIT);
}

/** axe-core in the page (evaluated over the DevTools protocol: the page's CSP still forbids inline scripts). */
async function accessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate<Array<{ id: string; impact: string; nodes: number; help: string }>>(
    `axe.run({ resultTypes: ['violations'] }).then((r) =>
       r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help })))`,
  );
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

async function shoot(page: Page, name: string): Promise<void> {
  await accessible(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

const nav = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });
const dialog = (page: Page) => page.getByRole('dialog');

/** The signed-in session as the page's own cookie shows it. */
const session = (page: Page) => page.request.get('/console/api/session').then((r) => r.json() as Promise<Json>);

maybe('operator console (browser)', () => {
  let admin: Page;

  it('signs in with an API token; the cookie is HttpOnly and SameSite=Strict; pages carry a CSP without unsafe-inline', async () => {
    admin = await newPage();
    const res = await admin.request.get('/console/');
    const csp = res.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers()['x-frame-options']).toBe('DENY');
    expect(res.headers()['cache-control']).toBe('no-cache');

    await admin.goto('/console/');
    await shoot(admin, 'sign-in');
    await admin.getByLabel('Client ID').fill(p.clientId);
    await admin.getByLabel('Client secret').fill('wrong');
    await admin.getByRole('button', { exact: true, name: 'Sign in' }).click();
    await admin.getByRole('alert').filter({ hasText: 'Sign-in failed' }).waitFor(WAIT);

    await signIn(admin, p.clientId, p.clientSecret);
    const [cookie] = await admin.context().cookies();
    expect(cookie).toMatchObject({ name: 'console_session', httpOnly: true, sameSite: 'Strict', secure: false });
    // nothing secret where a script could read it: no readable cookie, nothing stored
    expect(await admin.evaluate('document.cookie')).toBe('');
    expect(await admin.evaluate('localStorage.length + sessionStorage.length')).toBe(0);
    expect(admin.url()).not.toContain(p.clientSecret);
    await admin.getByText('SANDBOX', { exact: true }).waitFor(WAIT);
    await admin.getByRole('heading', { name: 'Balances' }).waitFor(WAIT);
    await accessible(admin);
  });

  it('approves one pending action and rejects another with a reason; new ones appear, decided ones leave, a race is a clear 409', async () => {
    const a = await spendingAgent(p, { defaultExecutionMode: 'APPROVAL_REQUIRED' }, 100_000);
    const pending = async (amount: number): Promise<Json> => {
      const q = await a.quote(amount);
      const res = await a.client.post(`/agents/me/quotes/${q.id}/execute`);
      expect(res.body.status).toBe('PENDING_APPROVAL');
      return res.body as Json;
    };
    const first = await pending(1_000);
    const second = await pending(2_000);
    await deliver(); // the setup's webhooks

    await nav(admin, 'Approvals');
    await row(admin, first.id).waitFor(WAIT);
    await row(admin, second.id).waitFor(WAIT);
    // a new pending action appears without a reload
    const third = await pending(3_000);
    await row(admin, third.id).waitFor(WAIT);
    await shoot(admin, 'approvals');

    await row(admin, first.id).getByRole('button', { exact: true, name: 'Approve' }).click();
    await dialog(admin).getByRole('button', { exact: true, name: 'Approve' }).click();
    await row(admin, first.id).waitFor({ state: 'detached', ...WAIT });
    expect((await a.client.get(`/agents/me/actions/${first.id}`)).body).toMatchObject({
      status: 'APPROVED',
      // A payout to an external account: PENDING on the rail (test apps run no rail worker).
      transaction: { status: 'PENDING' },
    });
    // the money moved: the signed balance webhook at the receiver (the third action's PENDING_APPROVAL came too)
    const afterApprove = await deliver();
    const balances = afterApprove.filter((w) => w.body.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED');
    expect(balances.map((w) => (w.body.data as { balance: { amount: number } }).balance.amount)).toEqual([99_000]);

    await row(admin, second.id).getByRole('button', { exact: true, name: 'Reject' }).click();
    await dialog(admin).getByLabel('Reason').fill('Not this vendor');
    await dialog(admin).getByRole('button', { exact: true, name: 'Reject' }).click();
    await row(admin, second.id).waitFor({ state: 'detached', ...WAIT });
    expect((await a.client.get(`/agents/me/actions/${second.id}`)).body).toMatchObject({
      status: 'REJECTED',
      rejectionReason: 'Not this vendor',
    });
    expect((await deliver()).map((w) => w.body.type)).toEqual([]); // nothing moved, nothing announced

    // decided elsewhere while the operator hesitates: one wins, the other sees the API's 409
    await row(admin, third.id).getByRole('button', { exact: true, name: 'Approve' }).click();
    expect((await p.post(`/agents/${a.agent.id}/actions/${third.id}/reject`, { reason: 'elsewhere' })).status).toBe(
      200,
    );
    await dialog(admin).getByRole('button', { exact: true, name: 'Approve' }).click();
    await dialog(admin)
      .getByRole('alert')
      .filter({ hasText: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL' })
      .waitFor(WAIT);
    await dialog(admin).getByRole('button', { exact: true, name: 'Cancel' }).click();
    await row(admin, third.id).waitFor({ state: 'detached', ...WAIT });
    expect((await a.client.get(`/agents/me/actions/${third.id}`)).body.status).toBe('REJECTED');
  });

  it('lists incoming payments awaiting the platform’s decision beside agent actions; approves one, rejects another', async () => {
    const customer = await kycApprovedCustomer(p);
    const incoming = async (amount: number): Promise<Json> => {
      receiver.respondWith({ status: 202 }); // the platform decides later, in the console
      const res = await p.post('/sandbox/uma/receive', {
        senderUmaAddress: '$success.usd@sandbox.grid.uma.money',
        customerId: customer.id,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: amount,
      });
      expect(res.body).toMatchObject({ status: 'PENDING' });
      return res.body as Json;
    };
    const first = await incoming(1_500);
    const second = await incoming(2_500);

    await nav(admin, 'Approvals');
    await admin.getByRole('heading', { name: 'Incoming payments' }).waitFor(WAIT);
    await row(admin, first.id).waitFor(WAIT);
    await row(admin, second.id).getByText('$success.usd@sandbox.grid.uma.money').waitFor(WAIT);
    await shoot(admin, 'approvals-incoming');

    await row(admin, first.id).getByRole('button', { exact: true, name: 'Approve' }).click();
    await dialog(admin).getByRole('button', { exact: true, name: 'Approve' }).click();
    await row(admin, first.id).waitFor({ state: 'detached', ...WAIT });
    expect((await p.get(`/transactions/${first.id}`)).body).toMatchObject({ status: 'COMPLETED' });

    await row(admin, second.id).getByRole('button', { exact: true, name: 'Reject' }).click();
    await dialog(admin).getByLabel('Reason').fill('Unknown sender');
    await dialog(admin).getByRole('button', { exact: true, name: 'Reject' }).click();
    await row(admin, second.id).waitFor({ state: 'detached', ...WAIT });
    expect((await p.get(`/transactions/${second.id}`)).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'COMPLIANCE_REJECTED',
    });
    const account = (await p.get(`/customers/internal-accounts?customerId=${customer.id}&currency=USD`)).body as Json;
    expect(account.data[0].balance.amount).toBe(1_500);
    await admin.getByText('No incoming payment is waiting for a decision.').waitFor(WAIT);
    await deliver(); // the payments' webhooks, so later tests start from an empty backlog
  });

  it('freezes and unfreezes a card (the history names the token), sets and clears a limit, closes it and the controls go', async () => {
    const { card } = await activeCard(p);
    const me = await session(admin);
    await nav(admin, 'Cards');
    await admin.getByRole('searchbox', { name: 'Search cards' }).fill(card.last4 as string);
    await admin.getByRole('button', { exact: true, name: 'Search' }).click();
    await admin.getByRole('link', { name: card.id }).click();
    await admin.getByRole('button', { exact: true, name: 'Freeze card' }).waitFor(WAIT);
    await shoot(admin, 'card');

    await admin.getByRole('button', { exact: true, name: 'Freeze card' }).click();
    await dialog(admin).getByLabel('Substatus').selectOption('LOST');
    await dialog(admin).getByLabel('Reason').fill('Reported lost by phone');
    await shoot(admin, 'card-freeze-dialog');
    await dialog(admin).getByRole('button', { exact: true, name: 'Freeze card' }).click();
    await admin.getByRole('button', { exact: true, name: 'Unfreeze card' }).waitFor(WAIT);
    expect((await p.get(`/cards/${card.id}`)).body.status).toBe('FROZEN');
    await row(admin, 'Reported lost by phone')
      .filter({ hasText: me.token.id as string })
      .waitFor(WAIT);

    await admin.getByRole('button', { exact: true, name: 'Unfreeze card' }).click();
    await dialog(admin).getByLabel('Substatus').selectOption('OTHER');
    await dialog(admin).getByLabel('Reason').fill('Found it');
    await dialog(admin).getByRole('button', { exact: true, name: 'Unfreeze card' }).click();
    await admin.getByRole('button', { exact: true, name: 'Freeze card' }).waitFor(WAIT);
    const history = (await p.get(`/cards/${card.id}/status-history`)).body.data as Json[];
    expect(history.slice(-2)).toEqual([
      expect.objectContaining({ toStatus: 'FROZEN', actor: me.token.id, substatus: 'LOST' }),
      expect.objectContaining({ toStatus: 'ACTIVE', actor: me.token.id, reason: 'Found it' }),
    ]);

    // limits: a field error next to its control, then set, then clear
    const perDay = admin.getByRole('textbox', { name: 'Max spend per day' });
    await perDay.fill('-5');
    await admin.getByRole('button', { exact: true, name: 'Save limits' }).click();
    await admin.locator('#limit-maxSpendPerDay-error').waitFor(WAIT);
    await perDay.fill('5000');
    await admin.getByRole('button', { exact: true, name: 'Save limits' }).click();
    await admin.getByRole('status').filter({ hasText: 'Limits saved.' }).waitFor(WAIT);
    expect((await p.get(`/cards/${card.id}`)).body.maxSpendPerDay).toBe(5000);
    await admin.getByRole('textbox', { name: 'Max spend per day' }).fill('');
    await admin.getByRole('button', { exact: true, name: 'Save limits' }).click();
    await admin.getByRole('status').filter({ hasText: 'Limits saved.' }).waitFor(WAIT);
    expect((await p.get(`/cards/${card.id}`)).body.maxSpendPerDay).toBeNull();

    await admin.getByRole('button', { exact: true, name: 'Close card' }).click();
    await dialog(admin).getByLabel('Substatus').selectOption('END_USER_REQUEST');
    await dialog(admin).getByLabel('Reason').fill('Offboarding');
    await dialog(admin).getByRole('button', { exact: true, name: 'Close card' }).click();
    await admin.getByText('CLOSED_BY_PLATFORM').waitFor(WAIT);
    expect((await p.get(`/cards/${card.id}`)).body.status).toBe('CLOSED');
    for (const name of ['Freeze card', 'Unfreeze card', 'Close card', 'Save limits']) {
      expect(await admin.getByRole('button', { name, exact: true }).count()).toBe(0);
    }
  });

  it('redelivers an event the receiver failed at first', async () => {
    const { card } = await activeCard(p);
    await deliver();
    receiver.respondWith({ status: 500, body: 'try again later' });
    expect((await p.patch(`/cards/${card.id}`, { status: 'FROZEN', substatus: 'OTHER', reason: 'r' })).status).toBe(
      200,
    );
    const failed = await deliver();
    expect(failed.map((w) => w.body.type)).toEqual(['CARD.STATUS_CHANGE']);
    const eventId = failed[0].body.id;
    expect((await p.get(`/webhook-events/${eventId}`)).body).toMatchObject({ status: 'PENDING' });

    await nav(admin, 'Webhooks');
    const eventRow = row(admin, eventId);
    await eventRow.waitFor(WAIT);
    await eventRow.getByRole('button', { exact: true, name: 'Attempts' }).click();
    await admin.getByText('try again later').waitFor(WAIT);
    await shoot(admin, 'webhooks');
    await eventRow.getByRole('button', { exact: true, name: 'Redeliver' }).click();
    await admin.getByRole('status').filter({ hasText: 'queued for redelivery' }).waitFor(WAIT);
    const again = await deliver();
    expect(again.map((w) => w.body.id)).toEqual([eventId]);
    expect((await p.get(`/webhook-events/${eventId}`)).body.status).toBe('DELIVERED');
    await eventRow.filter({ hasText: 'DELIVERED' }).waitFor(WAIT);
  });

  it('shows agents and customers read-only pages', async () => {
    await nav(admin, 'Agents');
    const agentLink = admin.getByRole('main').getByRole('link').first();
    await agentLink.waitFor(WAIT);
    await shoot(admin, 'agents');
    await agentLink.click();
    await admin.getByRole('heading', { name: 'Usage against the limits' }).waitFor(WAIT);
    await admin.getByRole('button', { exact: true, name: 'Pause agent' }).click();
    await admin.getByRole('button', { exact: true, name: 'Resume agent' }).waitFor(WAIT);
    await shoot(admin, 'agent');
    await admin.getByRole('button', { exact: true, name: 'Resume agent' }).click();
    await admin.getByRole('button', { exact: true, name: 'Pause agent' }).waitFor(WAIT);

    await nav(admin, 'Customers');
    const customerLink = admin.getByRole('main').getByRole('link').first();
    await customerLink.waitFor(WAIT);
    await shoot(admin, 'customers');
    await customerLink.click();
    await admin.getByRole('heading', { name: 'Internal accounts' }).waitFor(WAIT);
    await shoot(admin, 'customer');
    await nav(admin, 'Overview');
    await admin.getByRole('heading', { name: 'Pending approvals' }).waitFor(WAIT);
  });

  it('lists transactions filtered by status and customer; a transaction shows its status timeline and ledger postings; the customer page lists its quotes', async () => {
    const a = await payer(p, 10_000);
    const paid = await a.quote(700);
    const failing = await a.quote(1_002); // the sandbox rail's magic amount: FAILED after PROCESSING, refunded
    await a.execute(paid.id as string);
    await a.execute(failing.id as string);
    await driveRail(t, p, clock);
    const other = await payer(p, 5_000);
    await other.execute((await other.quote(300)).id as string);
    await driveRail(t, p, clock);

    await nav(admin, 'Transactions');
    await admin.getByRole('heading', { name: 'Transactions', level: 1 }).waitFor(WAIT);
    await row(admin, failing.transactionId as string).waitFor(WAIT);
    await shoot(admin, 'transactions');

    await admin.getByLabel('Status').selectOption('FAILED');
    await admin.getByRole('button', { exact: true, name: 'Search' }).click();
    await row(admin, paid.transactionId as string).waitFor({ ...WAIT, state: 'detached' });
    await row(admin, failing.transactionId as string).waitFor(WAIT);
    // Only failed ones (the platform's other tests leave failed incoming payments too): the header
    // is the one row without FAILED.
    expect(await admin.getByRole('main').getByRole('row').filter({ hasNotText: 'FAILED' }).count()).toBe(1);

    // One customer's transactions (the customer page's link): only theirs.
    await admin.goto(`/console/customers/${encodeURIComponent(other.customer.id)}`);
    await admin.getByRole('link', { name: 'Transactions of this customer' }).click();
    await admin.getByRole('status').filter({ hasText: '1 transaction matches' }).waitFor(WAIT);
    expect(await admin.getByRole('main').getByRole('row').count()).toBe(1 + 1);
    await admin.goto(`/console/transactions?customerId=${encodeURIComponent(a.customer.id)}`);
    await row(admin, paid.transactionId as string).waitFor(WAIT);

    await admin.getByRole('link', { name: failing.transactionId as string }).click();
    const timeline = admin.getByRole('region', { name: 'Status timeline' });
    await timeline.getByText('REFUNDED').waitFor(WAIT);
    expect((await timeline.getByRole('listitem').allTextContents()).map((s) => /[A-Z_]{4,}/.exec(s)?.[0])).toEqual([
      'PENDING',
      'PROCESSING',
      'FAILED',
      'REFUNDED',
    ]);
    const postings = admin.getByRole('region', { name: 'Ledger postings' });
    const amounts = await postings.getByRole('row').allTextContents();
    // The payment (the account -10.02, RAIL_CLEARING +10.02) and its exact refund.
    expect(amounts.slice(1).map((r) => (/-?\d+\.\d{2} USD/.exec(r) ?? [])[0])).toEqual([
      '-10.02 USD',
      '10.02 USD',
      '10.02 USD',
      '-10.02 USD',
    ]);
    expect(amounts.filter((r) => r.includes('RAIL_CLEARING'))).toHaveLength(2);
    await shoot(admin, 'transaction');

    // The console's own route answers the console session only, and only for the platform's transactions.
    expect(
      (await admin.request.get(`/console/api/transactions/${failing.transactionId as string}/history`)).status(),
    ).toBe(200);
    const unknown = await admin.request.get(
      '/console/api/transactions/Transaction:01900000-0000-7000-8000-000000000001/history',
    );
    expect({ status: unknown.status(), code: ((await unknown.json()) as Json).code }).toEqual({
      status: 404,
      code: 'TRANSACTION_NOT_FOUND',
    });
    const basic = await t.http
      .get(`/console/api/transactions/${failing.transactionId as string}/history`)
      .set('Authorization', p.authorization);
    expect(basic.status).toBe(401);

    await admin.goto(`/console/customers/${encodeURIComponent(a.customer.id)}`);
    const quotes = admin.getByRole('region', { name: 'Quotes' });
    await quotes
      .getByRole('row')
      .filter({ hasText: paid.id as string })
      .waitFor(WAIT);
    await quotes.getByRole('link', { name: paid.transactionId as string }).click();
    await admin.getByRole('heading', { name: `Transaction ${paid.transactionId as string}` }).waitFor(WAIT);
  });

  it("a business customer's page shows its verification, documents (each a download) and beneficial owners", async () => {
    const biz = await newBusiness(p);
    const owner = (await p.post('/beneficial-owners', ownerBody(biz.id)).expect(201)).body as Json;
    await newDocument(p, biz.id, 'CERTIFICATE_OF_INCORPORATION');
    await newDocument(p, biz.id, 'UTILITY_BILL', { documentNumber: 'REJECT_EXPIRED' });
    await newDocument(p, owner.id as string, 'PASSPORT');
    await p.post('/verifications', { customerId: biz.id }).expect(200);

    await admin.goto(`/console/customers/${encodeURIComponent(biz.id)}`);
    const section = admin.getByRole('region', { name: 'Verification and documents' });
    await section.getByRole('row').filter({ hasText: 'CERTIFICATE_OF_INCORPORATION' }).waitFor(WAIT);
    await section.getByText('RESOLVE_ERRORS').waitFor(WAIT);
    await row(admin, 'UTILITY_BILL').getByText('EXPIRED').first().waitFor(WAIT);
    expect(await row(admin, 'PASSPORT').textContent()).toContain('Jane Smith');
    await section.getByText('UBO, CONTROL_PERSON · 51%').waitFor(WAIT);
    await shoot(admin, 'customer-onboarding');

    // The operator opens a document: a download (attachment, octet-stream), never rendered inline.
    const link = row(admin, 'CERTIFICATE_OF_INCORPORATION').getByRole('link', { name: /^Download/ });
    const [download] = await Promise.all([admin.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('scan.pdf');
    const file = await admin.request.get((await link.getAttribute('href'))!);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-disposition']).toMatch(/^attachment;/);
    expect(file.headers()['content-type']).toBe('application/octet-stream');
    expect(file.headers()['x-content-type-options']).toBe('nosniff');
    expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("a customer's page shows its wallet's credentials and sessions; Revoke ends a live session", async () => {
    // A platform of its own: turning embedded wallets on gives every customer of a platform a wallet.
    const w8 = await wantOwnEvents(await TestPlatform.create(t));
    const wallet = await walletWithSession(w8);
    const page = await newPage();
    await signIn(page, w8.clientId, w8.clientSecret);
    await page.goto(`/console/customers/${encodeURIComponent(wallet.customerId)}`);
    const panel = page.getByRole('region', { name: 'Wallet' });
    await panel.getByRole('row').filter({ hasText: 'EMAIL_OTP' }).first().waitFor(WAIT);
    expect(await panel.textContent()).toContain('w•••@example.com');
    expect(await panel.textContent()).not.toContain(wallet.email);
    const live = row(page, wallet.session.id);
    await live.getByText('ACTIVE', { exact: true }).waitFor(WAIT);
    await shoot(page, 'customer-wallet');

    await live.getByRole('button', { exact: true, name: 'Revoke' }).click();
    await dialog(page).getByRole('button', { exact: true, name: 'Revoke session' }).click();
    await live.getByText('REVOKED', { exact: true }).waitFor(WAIT);
    expect(await live.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    expect((await w8.get(`/auth/sessions?accountId=${wallet.accountId}`)).body.data).toEqual([]);
    expect((await recordedEvents(w8, 'AUTH_SESSION.REVOKED')).map((e) => e.data.id)).toEqual([wallet.session.id]);
    const audit = (
      (await w8.get(`/audit-events?resourceId=${encodeURIComponent(wallet.session.id)}`)).body as {
        data: Json[];
      }
    ).data.filter((e) => e.action === 'consoleRevokeWalletSession');
    expect(audit).toHaveLength(1);
  });

  describe('money, names and search', () => {
    let q: TestPlatform;
    let money: Awaited<ReturnType<typeof moneyPlatform>>;
    let operator: Page;
    let attempts = 0;
    let succeeded = 0;
    let failedEvents = 0;
    let pendingEvents = 0;

    beforeAll(async () => {
      if (!hasBrowser) return;
      const s = await signedSubscriber(t);
      q = s.p;
      money = await moneyPlatform(t, q, clock, {
        // the platform answers the 4.00 payment's webhook with 202 (it decides later, in the console)
        beforeIncoming: (pending) => s.capture.receiver.respondWith({ status: pending ? 202 : 200 }),
      });
      await s.deliver();
      s.capture.receiver.respondWith({ status: 500, body: 'down for maintenance' });
      await q.post('/sandbox/webhooks/test', {}); // one more event, refused once
      await s.deliver();
      const events = (await q.get('/webhook-events?limit=100')).body.data as Json[];
      failedEvents = events.filter((e) => e.status === 'FAILED').length;
      pendingEvents = events.filter((e) => e.status === 'PENDING').length;
      for (const e of events)
        for (const a of e.attempts as Json[]) {
          attempts++;
          if (a.responseStatus >= 200 && a.responseStatus < 300) succeeded++;
        }
      operator = await newPage();
      await signIn(operator, q.clientId, q.clientSecret);
    });

    it('the overview: balances, payment volume per day by status, failed and stuck payments, webhook delivery and the oldest approval, as charts with text alternatives, at 1280 px and on a phone', async () => {
      const main = operator.getByRole('main');
      const balances = operator.getByRole('region', { name: 'Balances' });
      // Customers: Ada 100.00 - 7.00 - 3.00 (10.02 refunded), Grace 50.00 - 25.00 + 15.00
      await balances.getByRole('row').filter({ hasText: 'USD' }).filter({ hasText: '130.00 USD' }).waitFor(WAIT);
      await expect(operator.getByTestId('week-totals').textContent()).resolves.toBe(
        'Last 7 days: sent 35.00 USD in 3 payments, received 19.00 USD in 2 (not counting failed or expired).',
      );
      const sent = operator.getByRole('img', { name: /^Sent per day in USD/ });
      expect(await sent.getAttribute('aria-label')).toMatch(
        /: 45\.02 USD in 4 payments; by status: COMPLETED 32\.00 \(2\), PENDING 3\.00 \(1\), FAILED 10\.02 \(1\)\.$/,
      );
      expect(await sent.locator('canvas').count()).toBeGreaterThan(0);
      // The figures as a table for screen readers: the day of the payments, each status's amount.
      const day = ((await q.get(`/transactions/${money.failing}`)).body.createdAt as string).slice(0, 10);
      const figures = operator.getByRole('table', { name: 'Sent (USD), by status: the figures' });
      expect(await figures.getByRole('columnheader').allTextContents()).toEqual([
        'Day (UTC)',
        'COMPLETED',
        'PENDING',
        'FAILED',
      ]);
      expect(await figures.getByRole('row').filter({ hasText: day }).getByRole('cell').allTextContents()).toEqual([
        '32',
        '3',
        '10.02',
      ]);
      expect(await figures.getByRole('row').count()).toBe(1 + 30);
      const received = operator.getByRole('img', { name: /^Received per day in USD/ });
      expect(await received.getAttribute('aria-label')).toContain('19.00 USD in 2 payments');

      const attention = operator.getByRole('region', { name: 'Failed and stuck payments' });
      await attention.getByText('Failed in the last 30 days: 1').waitFor(WAIT);
      await attention.getByText(/no change for over 60 min: 2$/).waitFor(WAIT);
      const failedRow = attention.getByRole('row').filter({ hasText: money.failing });
      await failedRow.getByRole('link', { name: 'Sent 10.02 USD' }).waitFor(WAIT);
      await failedRow.getByRole('link', { name: 'Ada Lovelace' }).waitFor(WAIT);

      // The platform's clock moved 2 h on after the 4.00 payment arrived.
      await operator
        .getByRole('region', { name: 'Pending approvals' })
        .getByText(/^2 h \d+ min$/)
        .waitFor(WAIT);

      const success = operator.getByRole('img', { name: /delivery attempts succeeded/ });
      expect(succeeded).toBeLessThan(attempts);
      expect(await success.getAttribute('aria-label')).toContain(
        `${succeeded} of ${attempts} delivery attempts succeeded`,
      );
      await operator.getByRole('img', { name: /95th percentile was \d+ ms/ }).waitFor(WAIT);
      await main
        .getByRole('paragraph')
        .filter({ hasText: `Failed events: ${failedEvents} · Still pending: ${pendingEvents}` })
        .waitFor(WAIT);
      await shoot(operator, 'overview');

      // On a phone: nothing wider than the screen, the charts redrawn to its width.
      await operator.setViewportSize({ width: 390, height: 844 });
      // Frame by frame until the charts' resize observers have redrawn them (waitForFunction would
      // evaluate its predicate with eval, which the console's CSP refuses; evaluate() is not eval).
      const fits = `new Promise((resolve) => requestAnimationFrame(() => resolve(
        [...document.querySelectorAll('figure.chart canvas')].every((c) => c.getBoundingClientRect().right <= window.innerWidth))))`;
      let fitted = false;
      for (let frame = 0; frame < 600 && !fitted; frame++) fitted = await operator.evaluate<boolean>(fits);
      expect(fitted).toBe(true);
      // (anything wider scrolls inside its own box: .scroll around the tables)
      const wider = await operator.evaluate(`[...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.parentElement.closest('.scroll, .visually-hidden'))
        .map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`);
      expect(wider).toEqual([]);
      expect(await operator.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await shoot(operator, 'overview-phone');
      await operator.setViewportSize({ width: 1280, height: 900 });
    });

    it("names where people look: a transaction's page reads Ada Lovelace, USD account and Chase Bank ••••1234, the ids copyable beside them", async () => {
      await operator.goto(`/console/transactions/${encodeURIComponent(money.failing)}`);
      await operator.getByRole('heading', { name: /^Sent 10\.02 USD · Ada Lovelace/, level: 1 }).waitFor(WAIT);
      const facts = operator.locator('dl.facts');
      await facts.getByRole('link', { name: 'Ada Lovelace' }).waitFor(WAIT);
      await facts.getByText('USD account').waitFor(WAIT);
      await facts.getByText('Chase Bank ••••1234').waitFor(WAIT);
      await facts.getByText('for Ada Lovelace, of Ada Lovelace').waitFor(WAIT);
      // the ids stay on the page, as secondary text with a copy button
      await facts.getByText(money.ada.customer.id, { exact: true }).waitFor(WAIT);
      await facts.getByText(money.chaseId, { exact: true }).waitFor(WAIT);
      await operator.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await facts.getByRole('button', { name: `Copy ${money.chaseId}` }).click();
      await facts.getByRole('status').filter({ hasText: 'Copied' }).waitFor(WAIT);
      expect(await operator.evaluate('navigator.clipboard.readText()')).toBe(money.chaseId);
      // the postings name the customer's account
      const postings = operator.getByRole('region', { name: 'Ledger postings' });
      expect(await postings.getByRole('rowheader').filter({ hasText: 'USD account' }).count()).toBe(2);
      await shoot(operator, 'transaction');

      // a UMA payment's counterparty by its address
      await operator.goto(`/console/transactions/${encodeURIComponent(money.received)}`);
      await operator.locator('dl.facts').getByText(UMA_SENDER).waitFor(WAIT);
      await operator.locator('dl.facts').getByRole('link', { name: 'Grace Hopper' }).waitFor(WAIT);
      await accessible(operator);

      // webhooks: what each event is about, by name
      await nav(operator, 'Webhooks');
      await operator
        .getByRole('cell', { name: /^Sent 7\.00 USD/ })
        .first()
        .waitFor(WAIT);
      await accessible(operator);

      // approvals, cards and agents of the other platform: customers by name, destinations by bank
      const a = await spendingAgent(p, { defaultExecutionMode: 'APPROVAL_REQUIRED' }, 10_000);
      const pendingAction = (await a.client.post(`/agents/me/quotes/${(await a.quote(800)).id as string}/execute`))
        .body as Json;
      await nav(admin, 'Approvals');
      const actionRow = row(admin, pendingAction.id as string);
      await actionRow.getByRole('link', { name: 'Jane Smith' }).waitFor(WAIT);
      await actionRow.getByText(/^Chase Bank ••••\d{4}$/).waitFor(WAIT);
      await actionRow.getByRole('link', { name: a.agent.name }).waitFor(WAIT);
      await shoot(admin, 'approvals');
      await nav(admin, 'Cards');
      await admin.getByRole('button', { exact: true, name: 'Search' }).click();
      await admin.getByRole('main').getByRole('row').nth(1).getByRole('link', { name: 'Jane Smith' }).waitFor(WAIT);
      await accessible(admin);
      await nav(admin, 'Agents');
      await row(admin, a.agent.name).first().getByRole('link', { name: 'Jane Smith' }).waitFor(WAIT);
      await accessible(admin);
      expect((await p.post(`/agents/${a.agent.id}/actions/${pendingAction.id as string}/reject`, {})).status).toBe(200);
    });

    it('searches transactions by customer name, amount range and date range; the filtered list downloads as CSV', async () => {
      await nav(operator, 'Transactions');
      await operator.getByLabel('Customer name').fill('ada');
      await operator.getByRole('button', { exact: true, name: 'Search' }).click();
      await operator.getByRole('status').filter({ hasText: '3 transactions match' }).waitFor(WAIT);
      for (const id of [money.paid, money.failing, money.stuck]) await row(operator, id).waitFor(WAIT);
      await row(operator, money.paid).getByText('Chase Bank ••••1234').waitFor(WAIT);
      await row(operator, money.paid).getByRole('link', { name: 'Ada Lovelace' }).waitFor(WAIT);

      await operator.getByLabel('Currency').selectOption('USD');
      await operator.getByLabel('Amount from').fill('5.00');
      await operator.getByLabel('Amount to').fill('8');
      await operator.getByRole('button', { exact: true, name: 'Search' }).click();
      await operator.getByRole('status').filter({ hasText: '1 transaction matches' }).waitFor(WAIT);
      await row(operator, money.paid).waitFor(WAIT);
      await shoot(operator, 'transactions-search');

      // a contradictory range: the API's FieldError next to its field
      await operator.getByLabel('Amount from').fill('9');
      await operator.getByRole('button', { exact: true, name: 'Search' }).click();
      await operator
        .locator('#error-minAmount')
        .filter({ hasText: 'minAmount must not be more than maxAmount' })
        .waitFor(WAIT);
      await accessible(operator);

      // dates: the payments were made today (UTC); nothing from tomorrow on
      const today = ((await q.get(`/transactions/${money.paid}`)).body.createdAt as string).slice(0, 10);
      await operator.getByLabel('Amount from').fill('');
      await operator.getByLabel('Amount to').fill('');
      await operator.getByLabel('Created from').fill(today);
      await operator.getByLabel('Created to').fill(today);
      await operator.getByRole('button', { exact: true, name: 'Search' }).click();
      await operator.getByRole('status').filter({ hasText: '3 transactions match' }).waitFor(WAIT);
      const next = String(Number(today.slice(8, 10)) + 1).padStart(2, '0');
      if (next !== '32') {
        await operator.getByLabel('Created to').fill('');
        await operator.getByLabel('Created from').fill(`${today.slice(0, 8)}${next}`);
        await operator.getByRole('button', { exact: true, name: 'Search' }).click();
        await operator.getByText('No transaction matches.').waitFor(WAIT);
        await operator.getByLabel('Created from').fill(today);
        await operator.getByRole('button', { exact: true, name: 'Search' }).click();
        await operator.getByRole('status').filter({ hasText: '3 transactions match' }).waitFor(WAIT);
      }

      // the CSV: the same filters, every match, the reference's field names as columns
      const [download] = await Promise.all([
        operator.waitForEvent('download'),
        operator.getByRole('link', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^transactions-\d{8}-\d{6}\.csv$/);
      const lines = readFileSync(await download.path(), 'utf8')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe(CSV_COLUMNS.join(','));
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual([money.stuck, money.failing, money.paid]);
      expect(lines[2].split(',')[CSV_COLUMNS.indexOf('sentAmount.amount')]).toBe('1002');
    });

    it('no page broke the Content-Security-Policy or threw', () => {
      expect({ cspViolations, pageErrors }).toEqual({ cspViolations: [], pageErrors: [] });
    });
  });

  it('a VIEW token sees no action buttons and its forged POST is refused; a POST without the CSRF token is refused', async () => {
    const a = await spendingAgent(p, { defaultExecutionMode: 'APPROVAL_REQUIRED' }, 10_000);
    const q = await a.quote(500);
    const action = (await a.client.post(`/agents/me/quotes/${q.id}/execute`)).body as Json;
    const { card } = await activeCard(p);
    const viewer = await p.token(['VIEW']);
    const page = await newPage();
    await signIn(page, viewer.clientId, viewer.clientSecret);

    await nav(page, 'Approvals');
    await row(page, action.id).waitFor(WAIT);
    expect(await page.getByRole('button', { exact: true, name: 'Approve' }).count()).toBe(0);
    expect(await page.getByRole('button', { exact: true, name: 'Reject' }).count()).toBe(0);
    await page.goto(`/console/cards/${encodeURIComponent(card.id)}`);
    await page.getByRole('heading', { name: 'Status history' }).waitFor(WAIT);
    for (const name of ['Freeze card', 'Close card', 'Save limits']) {
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    }
    await nav(page, 'Webhooks');
    await page.getByRole('heading', { name: 'Events' }).waitFor(WAIT);
    expect(await page.getByRole('button', { exact: true, name: 'Redeliver' }).count()).toBe(0);

    // forged from the page, with its own cookie and CSRF token: the API's permission check refuses it
    const forged = await page.evaluate(
      async ({ path, csrf }) => {
        const res = await fetch(path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
          body: '{}',
        });
        return { status: res.status, body: (await res.json()) as { code: string } };
      },
      { path: `/2025-10-13/agents/${a.agent.id}/actions/${action.id}/approve`, csrf: (await session(page)).csrfToken },
    );
    expect(forged).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });

    // the full token's session, without the CSRF header
    const noCsrf = await admin.evaluate(async (path) => {
      const res = await fetch(path, { method: 'POST' });
      return { status: res.status, body: (await res.json()) as { code: string } };
    }, `/2025-10-13/agents/${a.agent.id}/actions/${action.id}/approve`);
    expect(noCsrf).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    expect((await a.client.get(`/agents/me/actions/${action.id}`)).body.status).toBe('PENDING_APPROVAL');
  });

  it('deleting the token signs its sessions out', async () => {
    const operator = await p.token(['VIEW', 'TRANSACT']);
    const page = await newPage();
    await signIn(page, operator.clientId, operator.clientSecret);
    expect((await p.delete(`/tokens/${operator.id}`)).status).toBe(204);
    // the overview's next refresh (every 5 s) is refused: back to sign-in, with no click
    await page.getByRole('button', { exact: true, name: 'Sign in' }).waitFor(WAIT);
    await page.getByText('Your session has ended').waitFor(WAIT);
  });

  it('signing out ends the session; an idle session goes back to sign-in', async () => {
    const page = await newPage();
    await signIn(page, p.clientId, p.clientSecret);
    await page.getByRole('button', { exact: true, name: 'Sign out' }).click();
    await page.getByRole('button', { exact: true, name: 'Sign in' }).waitFor(WAIT);
    expect((await session(page)).code).toBe('UNAUTHORIZED');

    await signIn(page, p.clientId, p.clientSecret);
    clock.advance(31 * 60 * 1000); // past the 30-minute idle timeout
    try {
      // the overview's next refresh (every 5 s) is refused: back to sign-in
      await page.getByRole('button', { exact: true, name: 'Sign in' }).waitFor(WAIT);
      await page.getByText('Your session has ended').waitFor(WAIT);
    } finally {
      clock.set(new SystemClock().now());
    }
    expect({ cspViolations, pageErrors }).toEqual({ cspViolations: [], pageErrors: [] });
  });
});
