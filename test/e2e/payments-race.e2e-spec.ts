import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { LedgerService } from '../../src/ledger/ledger.service.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { FakeClock } from '../support/fake-clock.js';
import { driveRail, payer, type Json } from '../support/payments.js';
import { ChildServer, killMidBurst } from '../support/child-server.js';
import { StatementCounter } from '../support/statement-counter.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * Concurrency of platform executions (issue #29): parallel executes against one balance lock the
 * account and never overdraw it; the ledger stays balanced through the rail's lifecycle, refunds
 * included (ledger:verify's check, verifyLedger).
 */
const clock = new FakeClock();
let t: TestApp;
beforeAll(async () => {
  // The statement counts below assume the token cached by the warm-up request is still cached:
  // the longest TTL, so a loaded machine's slow quote in between never adds the token lookup.
  t = await startTestApp({ TOKEN_CACHE_TTL_MS: '60000' }, { clock });
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

/** The database round trips of one execute (docs/performance.md explains each). */
it('one execute to an external account is the pinned statements, in one transaction', async () => {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 10_000);
  await a.execute((await a.quote(100)).id as string); // the token cached, the accounts' first postings written
  const quote = await a.quote(100);
  const counter = new StatementCounter(t.app);
  const statements = await counter.during(() => a.execute(quote.id as string));
  process.stdout.write(`[payments] one execute: ${statements.length} statements\n  ${statements.join('\n  ')}\n`);
  expect(statements[0]).toMatch(/^(START TRANSACTION|BEGIN)/);
  expect(statements[statements.length - 1]).toBe('COMMIT');
  expect(statements.length).toBe(4);
  // The locking statement (quote, accounts, customer), then one write statement with the audit event.
  expect(statements[1]).toMatch(/FOR UPDATE/);
  expect(statements[2]).toMatch(/audit_event AS \(INSERT INTO audit_events/);
});

it('the same with an Idempotency-Key adds the key (lock and lookup) and its record: 6 statements; a replay is the same body', async () => {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 10_000);
  await a.execute((await a.quote(100)).id as string);
  const quote = await a.quote(100);
  const counter = new StatementCounter(t.app);
  const send = () =>
    p.post(`/quotes/${quote.id as string}/execute`).set('Idempotency-Key', `exec-${quote.id as string}`);
  let first: { status: number; body: unknown } | undefined;
  const statements = await counter.during(async () => (first = await send()));
  process.stdout.write(`[payments] one execute with an Idempotency-Key: ${statements.length} statements\n`);
  expect(first!.status).toBe(200);
  expect(statements[0]).toMatch(/^(START TRANSACTION|BEGIN)/);
  expect(statements[statements.length - 1]).toBe('COMMIT');
  expect(statements.length).toBe(6);
  let again: { status: number; body: unknown } | undefined;
  const replay = await counter.during(async () => (again = await send()));
  expect(again!.status).toBe(200);
  expect(again!.body).toEqual(first!.body);
  // A replay touches neither the quote nor an account (the interceptor's own path, unchanged).
  expect(replay.filter((q) => /internal_accounts|quotes/.test(q))).toEqual([]);
});

/**
 * A real server process (`node dist/src/main.js`) killed with SIGKILL while executes stream in,
 * then started again on the same database: every execute it acknowledged (200) is a transaction
 * the restarted service serves, nothing executed twice, the payer's balance exactly its funds
 * minus what the stored transactions took, and `ledger:verify` (the CLI) clean.
 */
it('kill -9 during executes loses no acknowledged transaction and leaves the ledger balanced', async () => {
  const p = await TestPlatform.create(t);
  const funds = 1_000_000;
  const a = await payer(p, funds);
  const quotes: Json[] = [];
  for (let i = 0; i < 60; i++) quotes.push(await a.quote(100 + i));
  const first = ChildServer.start(['node', 'dist/src/main.js'], { SANDBOX: 'true' });
  const { port } = await first.listening();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const acknowledged = await killMidBurst(first, quotes, async (quote) => {
    const res = await call(port, agent, 'POST', `${V}/quotes/${quote.id as string}/execute`, p.authorization);
    return res.status === 200 ? quote : null;
  });
  agent.destroy();
  expect(acknowledged.length).toBeGreaterThanOrEqual(15);

  const second = ChildServer.start(['node', 'dist/src/main.js'], { SANDBOX: 'true' });
  try {
    const { port: again } = await second.listening();
    const agent2 = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const stored = new Map<string, Json>();
    for (const quote of quotes) {
      const res = await call(
        again,
        agent2,
        'GET',
        `${V}/transactions/${quote.transactionId as string}`,
        p.authorization,
      );
      expect([200, 404]).toContain(res.status);
      if (res.status === 200) stored.set(quote.id as string, res.body as Json);
    }
    for (const quote of acknowledged) {
      const txn = stored.get(quote.id as string);
      expect(txn).toMatchObject({ id: quote.transactionId, quoteId: quote.id });
      expect(['PENDING', 'PROCESSING', 'COMPLETED']).toContain(txn!.status);
      // Executed once: executing it again on the restarted service is the reference's 409.
      const twice = await call(again, agent2, 'POST', `${V}/quotes/${quote.id as string}/execute`, p.authorization);
      expect(twice.status).toBe(409);
    }
    const taken = quotes
      .filter((q) => stored.has(q.id as string))
      .reduce((sum, q) => sum + Number(q.totalSendingAmount), 0);
    expect(await a.balance()).toBe(funds - taken);
    expect(await railClearing(p)).toBe(BigInt(taken));
    // The restarted service goes on executing.
    const fresh = quotes.find((q) => !stored.has(q.id as string));
    if (fresh) {
      const res = await call(again, agent2, 'POST', `${V}/quotes/${fresh.id as string}/execute`, p.authorization);
      expect(res.status).toBe(200);
    }
    agent2.destroy();
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
  expect(await verifyLedger(t.app.get(DataSource), uuidOf(p))).toMatchObject({ ok: true });
  const verified = await promisify(execFile)(process.execPath, ['dist/src/cli.js', 'ledger:verify'], {
    env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL!, LOG_LEVEL: 'silent' },
  });
  expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
}, 300_000);

function call(
  port: number,
  agent: http.Agent,
  method: string,
  path: string,
  authorization: string,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, agent, method, path, headers: { authorization } });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
