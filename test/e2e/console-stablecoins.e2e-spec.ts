import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { FakeClock } from '../support/fake-clock.js';
import { achMint, driveProvider, issuer, keyed } from '../support/stablecoins.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * The console's Stablecoins page in a real browser (as console.e2e-spec.ts: Chromium from the
 * system, playwright-core, axe-core): the coins, a coin's operations, and the operator's
 * enablement buttons. Skipped without a browser, except in CI.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser && process.env.CI) throw new Error(`No Chromium at ${CHROMIUM}`);
const maybe = hasBrowser ? describe : describe.skip;
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
const SHOTS = path.resolve('docs/console');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WAIT = { timeout: 15_000 };

const clock = new FakeClock();
let t: TestApp;
let browser: Browser;
let base: string;

beforeAll(async () => {
  if (!hasBrowser) return;
  t = await startTestApp({}, { clock });
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  if (!hasBrowser) return;
  await browser?.close();
  await t?.close();
});

async function accessible(page: Page): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate<Array<{ id: string; impact: string }>>(
    `axe.run({ resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact })))`,
  );
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

maybe('console: stablecoins (browser)', () => {
  it('lists the coins; a coin shows its operations; the operator drives its enablement', async () => {
    const p = await TestPlatform.create(t);
    const { coin, wallet, bank } = await issuer(p);
    await keyed(p, `/stablecoins/${coin.id}/mints`, achMint(bank, wallet, '25000000'));
    await driveProvider(t, p, clock);
    expect((await p.post(`/stablecoins/${coin.id}/grid-operations/enablement`)).status).toBe(200);

    const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/console/');
    await page.getByLabel('Client ID').fill(p.clientId);
    await page.getByLabel('Client secret').fill(p.clientSecret);
    await page.getByRole('button', { exact: true, name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor(WAIT);

    await page.getByRole('navigation').getByRole('link', { name: 'Stablecoins', exact: true }).click();
    await page.getByRole('heading', { name: 'Stablecoins', level: 1 }).waitFor(WAIT);
    const row = page.getByRole('row').filter({ hasText: 'ACME' });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('PENDING_APPROVAL');
    await accessible(page);
    await page.screenshot({ path: path.join(SHOTS, 'stablecoins.png'), fullPage: true });

    await row.getByRole('link', { name: 'Acme Dollar' }).click();
    await page.getByRole('heading', { name: 'Stablecoin Acme Dollar', level: 1 }).waitFor(WAIT);
    const op = page.getByRole('row').filter({ hasText: 'MINT' });
    await op.waitFor(WAIT);
    expect(await op.textContent()).toContain('25 ACME');
    expect(await op.textContent()).toContain('COMPLETED');
    await page.getByRole('button', { name: 'Set ENABLING' }).click();
    await page.getByRole('button', { name: 'Set ENABLED' }).click();
    await page.getByText('ENABLED', { exact: true }).first().waitFor(WAIT);
    await page.getByRole('button', { name: 'Set DISABLED' }).waitFor(WAIT);
    await accessible(page);
    await page.screenshot({ path: path.join(SHOTS, 'stablecoin.png'), fullPage: true });
    expect((await p.get(`/stablecoins/${coin.id}`)).body).toMatchObject({
      gridOperationsStatus: 'ENABLED',
      currency: 'ACME',
    });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
