import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SystemClock } from '../../src/common/clock.js';
import { spendingAgent, type Json } from '../support/agent-quotes.js';
import { activeCard } from '../support/cards.js';
import { newBusiness, newDocument, ownerBody } from '../support/documents.js';
import { kycApprovedCustomer } from '../support/fixtures.js';
import { signedSubscriber, stopSubscribers } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { driveRail, payer } from '../support/payments.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import type { ReceivedWebhook } from '../support/webhook-receiver.js';

/**
 * The operator console in a real browser: Chromium from the operating system's packages, driven by
 * playwright-core, against the real app on a database of this file's own (the outbox worker is
 * driven by the tests, delivering to a real local receiver). Every page is checked with axe-core
 * (no serious or critical violation) and photographed into docs/console/. Without a browser the
 * file is skipped on a developer's machine and fails in CI (CI=true): .ci/run installs chromium.
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
const SHOTS = path.resolve('docs/console');
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
    await shoot(admin, 'overview');
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
    await admin.getByRole('button', { exact: true, name: 'Filter' }).click();
    await row(admin, paid.transactionId as string).waitFor({ ...WAIT, state: 'detached' });
    await row(admin, failing.transactionId as string).waitFor(WAIT);
    // Only failed ones (the platform's other tests leave failed incoming payments too): the header
    // is the one row without FAILED.
    expect(await admin.getByRole('main').getByRole('row').filter({ hasNotText: 'FAILED' }).count()).toBe(1);

    await admin.getByLabel('Status').selectOption('');
    await admin.getByLabel('Customer').fill(other.customer.id);
    await admin.getByRole('button', { exact: true, name: 'Filter' }).click();
    await row(admin, failing.transactionId as string).waitFor({ ...WAIT, state: 'detached' });
    expect(await admin.getByRole('main').getByRole('row').count()).toBe(1 + 1);
    await admin.getByLabel('Customer').fill(a.customer.id);
    await admin.getByRole('button', { exact: true, name: 'Filter' }).click();
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
