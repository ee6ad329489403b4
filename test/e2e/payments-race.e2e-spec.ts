import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { LedgerService } from '../../src/customers/ledger.service.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { FakeClock } from '../support/fake-clock.js';
import { driveRail, payer } from '../support/payments.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * Concurrency of platform executions (issue #29): parallel executes against one balance lock the
 * account and never overdraw it; the ledger stays balanced through the rail's lifecycle, refunds
 * included (ledger:verify's check, verifyLedger).
 */
const clock = new FakeClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;
const railClearing = (p: TestPlatform) =>
  t.app
    .get(TransactionService)
    .run((m) => t.app.get(LedgerService).systemBalance(m, uuidOf(p), 'RAIL_CLEARING', 'USD'));

it('50 parallel executes against a balance that covers 20: exactly 20 succeed, 30 INSUFFICIENT_FUNDS, the balance exact, the ledger balanced', async () => {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 2_000);
  const quotes = [];
  for (let i = 0; i < 50; i++) quotes.push(await a.quote(100));
  const results = await Promise.all(quotes.map((q) => p.post(`/quotes/${q.id as string}/execute`)));
  const ok = results.filter((r) => r.status === 200);
  expect(ok).toHaveLength(20);
  for (const r of ok) expect(['PROCESSING', 'COMPLETED']).toContain((r.body as { status: string }).status);
  const refused = results.filter((r) => r.status !== 200);
  expect(refused).toHaveLength(30);
  for (const r of refused) expectError(r, 400, 'INSUFFICIENT_FUNDS');
  expect(await a.balance()).toBe(0);
  expect(await railClearing(p)).toBe(2_000n);
  await driveRail(t, p, clock);
  const list = (await p.get('/transactions?status=COMPLETED&limit=100').expect(200)).body as { totalCount: number };
  expect(list.totalCount).toBe(20);
  expect(await verifyLedger(t.app.get(DataSource), uuidOf(p))).toMatchObject({ ok: true });
});

it('a failed payout and a cancelled one are refunded exactly: the ledger stays balanced, RAIL_CLEARING back where it was', async () => {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 10_000);
  const failing = await a.quote(1_002);
  const cancelled = await a.quote(500);
  const fine = await a.quote(700);
  for (const q of [failing, cancelled, fine]) await a.execute(q.id as string);
  expect((await p.post(`/transactions/${cancelled.transactionId as string}/cancel`, {})).status).toBe(200);
  await driveRail(t, p, clock);
  expect(await a.balance()).toBe(10_000 - 700);
  expect(await railClearing(p)).toBe(700n);
  expect(await verifyLedger(t.app.get(DataSource), uuidOf(p))).toMatchObject({ ok: true });
});
