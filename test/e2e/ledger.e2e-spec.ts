import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { LedgerService } from '../../src/ledger/ledger.service.js';
import { MIGRATIONS } from '../../src/database/schema.js';
import { DoubleEntryLedger1767228300000 } from '../../src/database/migrations/1767228300000-DoubleEntryLedger.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { spendingAgent } from '../support/agent-quotes.js';
import { authorization, cardWithFunds, type TestCard } from '../support/card-transactions.js';
import { ChildServer } from '../support/child-server.js';
import { fundedAccount } from '../support/fixtures.js';
import { isolatedDatabase } from '../support/isolated-database.js';
import { StatementCounter } from '../support/statement-counter.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const db = () => t.app.get(DataSource);
const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;
const systemBalance = (p: TestPlatform, kind: 'SANDBOX_FUNDING' | 'CARD_SETTLEMENT' | 'RAIL_CLEARING') =>
  t.app.get(TransactionService).run((m) => t.app.get(LedgerService).systemBalance(m, uuidOf(p), kind, 'USD'));
const simulate = async (p: TestPlatform, card: TestCard, what: string, body: object) => {
  const res = await p.post(`/sandbox/cards/${card.id}/simulate/${what}`, body);
  if (res.status !== 202) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.cardTransaction as { id: string };
};
const cli = (...args: string[]) =>
  promisify(execFile)(process.execPath, ['dist/src/cli.js', ...args], {
    env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL!, LOG_LEVEL: 'silent' },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('double-entry movements', () => {
  it('funding, card clearings and returns are balanced journals against the system accounts; ledger:verify is clean', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const auth = await simulate(p, card, 'authorization', authorization(600));
    await simulate(p, card, 'clearing', { cardTransactionId: auth.id, amount: 600 });
    await simulate(p, card, 'return', { cardTransactionId: auth.id, amount: 250 });

    expect(await systemBalance(p, 'SANDBOX_FUNDING')).toBe(-1000n);
    expect(await systemBalance(p, 'CARD_SETTLEMENT')).toBe(350n);
    const journals = await db().query<Array<{ reason: string; postings: string; sum: string }>>(
      `SELECT MIN(reason) AS reason, COUNT(*)::text AS postings, SUM(amount)::text AS sum FROM ledger_entries
        WHERE platform_id = $1 GROUP BY journal_id ORDER BY MIN(created_at), MIN(reason)`,
      [uuidOf(p)],
    );
    expect(journals).toEqual([
      { reason: 'SANDBOX_FUNDING', postings: '2', sum: '0' },
      { reason: 'CARD_CLEARING', postings: '2', sum: '0' },
      { reason: 'CARD_RETURN', postings: '2', sum: '0' },
    ]);
    expect(await verifyLedger(db(), uuidOf(p))).toMatchObject({ ok: true, journals: 3, postings: 6 });
  });

  it('an agent execution to an external account debits the source and credits RAIL_CLEARING', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, {}, 10_000);
    const q = await a.quote(2_500);
    expect((await a.client.post(`/agents/me/quotes/${q.id}/execute`)).status).toBe(200);
    expect(await a.balance()).toBe(7_500);
    expect(await systemBalance(p, 'RAIL_CLEARING')).toBe(2_500n);
    expect((await verifyLedger(db(), uuidOf(p))).ok).toBe(true);
  });

  it('the database refuses to commit an unbalanced journal', async () => {
    const p = await TestPlatform.create(t);
    const journal = '01900000-0000-7000-8000-000000000001';
    const insert = db().transaction(async (m) => {
      await m.query(
        `INSERT INTO ledger_entries (id, journal_id, account_id, system_account, platform_id, currency, amount, reason)
         VALUES ($1, $2, NULL, 'FX', $3, 'USD', 5, 'TEST')`,
        ['01900000-0000-7000-8000-000000000002', journal, uuidOf(p)],
      );
    });
    await expect(insert).rejects.toThrow(/ledger journal .* does not balance in USD/);
    expect(await db().query('SELECT 1 FROM ledger_entries WHERE journal_id = $1', [journal])).toEqual([]);
  });
});

describe('races', () => {
  // A pool with a connection per request: 50 requests queue on the row locks inside the database,
  // not for a pool connection.
  it('50 parallel executes against a balance that covers 20: exactly 20 succeed, 30 INSUFFICIENT_FUNDS, balance exact', async () => {
    const own = await startTestApp({ DB_POOL_SIZE: '50' });
    try {
      const p = await TestPlatform.create(own);
      const a = await spendingAgent(p, {}, 2_000);
      const quotes = [];
      for (let i = 0; i < 50; i++) quotes.push(await a.quote(100));
      const results = await Promise.all(
        quotes.map((q) => a.client.post(`/agents/me/quotes/${q.id as string}/execute`)),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      const refused = results.filter((r) => r.status !== 200);
      expect(refused).toHaveLength(30);
      for (const r of refused) expectError(r, 400, 'INSUFFICIENT_FUNDS');
      expect(await a.balance()).toBe(0);
      expect(await systemBalance(p, 'RAIL_CLEARING')).toBe(2_000n);
      expect(await verifyLedger(db(), uuidOf(p))).toMatchObject({ ok: true, journals: 21 });
    } finally {
      await own.close();
    }
  }, 180_000);
});

describe('ledger:verify', () => {
  it('names the first violation and exits 3: an unbalanced journal, then a balance that is not the sum of its postings', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await fundedAccount(p, 700);
    const clean = await cli('ledger:verify', '--platform', p.platformId);
    expect({ code: clean.code, result: JSON.parse(clean.stdout) as unknown }).toEqual({
      code: 0,
      result: { ok: true, journals: 1, postings: 2, accounts: 2 },
    });
    expect((await cli('ledger:verify', '--platform', 'nope')).code).toBe(2);

    // A planted unbalanced posting (triggers off, in this transaction only). The run's database is
    // shared and verified whole after the run (global-teardown.js): both plants are undone below.
    const journal = '01900000-0000-7000-8000-0000000000aa';
    const planted = '01900000-0000-7000-8000-0000000000ab';
    let editedAccount: string | null = null;
    try {
      await db().transaction(async (m) => {
        await m.query('SET LOCAL session_replication_role = replica');
        await m.query(
          `INSERT INTO ledger_entries (id, journal_id, account_id, system_account, platform_id, currency, amount, reason)
         VALUES ($1, $2, NULL, 'FX', $3, 'USD', 7, 'PLANTED')`,
          [planted, journal, uuidOf(p)],
        );
      });
      const bad = await cli('ledger:verify', '--platform', p.platformId);
      expect(bad.code).toBe(3);
      expect(JSON.parse(bad.stdout)).toMatchObject({
        ok: false,
        violation: { rule: 'JOURNAL_UNBALANCED', journalId: journal, platformId: p.platformId, currency: 'USD' },
      });
      expect(bad.stderr).toContain(`journal ${journal} does not balance: its USD postings sum to 7`);

      // Another platform: a cached balance edited in place.
      const q = await TestPlatform.create(t);
      const funded = await fundedAccount(q, 300);
      editedAccount = parseId('InternalAccount', funded.account.id)!;
      await db().query('UPDATE internal_accounts SET balance = balance + 1 WHERE id = $1', [editedAccount]);
      const edited = await verifyLedger(db(), uuidOf(q));
      expect(edited).toMatchObject({
        ok: false,
        violation: { rule: 'BALANCE_NOT_SUM_OF_POSTINGS', accountId: funded.account.id },
      });
      expect(edited.violation!.problem).toBe(
        `${funded.account.id} has balance 301 (ledger_seq 1) but its 1 postings sum to 300`,
      );
      expect((await verifyLedger(db(), uuidOf(p))).violation!.rule).toBe('JOURNAL_UNBALANCED');
      expect(account.id).toMatch(/^InternalAccount:/);
    } finally {
      await db().transaction(async (m) => {
        await m.query('SET LOCAL session_replication_role = replica');
        await m.query('DELETE FROM ledger_entries WHERE id = $1', [planted]);
        if (editedAccount)
          await m.query('UPDATE internal_accounts SET balance = balance - 1 WHERE id = $1', [editedAccount]);
      });
    }
    expect((await verifyLedger(db(), uuidOf(p))).ok).toBe(true);
    expect((await verifyLedger(db())).ok).toBe(true);
  }, 180_000);
});

describe('the double-entry migration', () => {
  it('keeps every existing balance: single-sided entries get OPENING_BALANCE contra postings', async () => {
    const own = await isolatedDatabase({ migrated: false });
    try {
      const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(DoubleEntryLedger1767228300000));
      const data = new DataSource({ type: 'postgres', url: own.url, migrations: before, migrationsRun: false });
      await data.initialize();
      await data.runMigrations({ transaction: 'each' });
      const platform = '01900000-0000-7000-8000-0000000000c1';
      const account = '01900000-0000-7000-8000-0000000000c2';
      await data.query(`INSERT INTO platforms (id, name) VALUES ($1, 'old')`, [platform]);
      await data.query(
        `INSERT INTO internal_accounts (id, platform_id, customer_id, type, status, currency, balance, ledger_seq)
         VALUES ($1, $2, NULL, 'INTERNAL_FIAT', 'ACTIVE', 'EUR', 650, 3)`,
        [account, platform],
      );
      for (const [seq, amount, after] of [
        [1, 1000, 1000],
        [2, -400, 600],
        [3, 50, 650],
      ])
        await data.query(
          `INSERT INTO ledger_entries (id, account_id, platform_id, seq, amount, balance_after, reason)
           VALUES ($1, $2, $3, $4, $5, $6, 'OLD')`,
          [`01900000-0000-7000-8000-0000000000d${seq}`, account, platform, seq, amount, after],
        );
      await data.destroy();

      const all = new DataSource({ type: 'postgres', url: own.url, migrations: MIGRATIONS, migrationsRun: false });
      await all.initialize();
      try {
        await all.runMigrations({ transaction: 'each' });
        const rows = await all.query<Array<{ journal_id: string; system_account: string | null; amount: string }>>(
          `SELECT journal_id, system_account, amount::text FROM ledger_entries ORDER BY journal_id, system_account NULLS FIRST`,
        );
        expect(rows.map((r) => [r.system_account, r.amount])).toEqual([
          [null, '1000'],
          ['OPENING_BALANCE', '-1000'],
          [null, '-400'],
          ['OPENING_BALANCE', '400'],
          [null, '50'],
          ['OPENING_BALANCE', '-50'],
        ]);
        expect(await verifyLedger(all)).toEqual({ ok: true, journals: 3, postings: 6, accounts: 1 });
        const [{ balance }] = await all.query<Array<{ balance: string }>>(
          'SELECT balance::text FROM internal_accounts WHERE id = $1',
          [account],
        );
        expect(balance).toBe('650');
      } finally {
        await all.destroy();
      }
    } finally {
      await own.close();
    }
  });
});

describe('statements per movement', () => {
  it('an authorization and a clearing are two statements each (4 with START and COMMIT)', async () => {
    const own = await startTestApp({ TOKEN_CACHE_TTL_MS: '60000' }); // counts assume the token stays cached
    try {
      const counter = new StatementCounter(own.app);
      const p = await TestPlatform.create(own);
      const card = await cardWithFunds(p, 10_000);
      await simulate(p, card, 'authorization', authorization(1)); // token cached
      let auth: { id: string } | undefined;
      const authorizing = await counter.during(async () => {
        auth = await simulate(p, card, 'authorization', authorization(100));
      });
      const clearing = await counter.during(() =>
        simulate(p, card, 'clearing', { cardTransactionId: auth!.id, amount: 100 }),
      );
      const ledgerStatements = (s: string[]) =>
        s.filter((q) => /ledger_entries|internal_accounts|ledger_holds/.test(q));
      process.stdout.write(
        `[ledger] statements: authorization ${authorizing.length} (ledger ${ledgerStatements(authorizing).length}), ` +
          `clearing ${clearing.length} (ledger ${ledgerStatements(clearing).length})\n`,
      );
      // Two statements each (docs/ledger.md, "The two-statement path"): START, the locking
      // statement, the one write statement (its audit event a CTE of it), COMMIT.
      expect(authorizing).toHaveLength(4);
      expect(clearing).toHaveLength(4);
      for (const s of [authorizing, clearing]) {
        expect(s[0]).toMatch(/^(START TRANSACTION|BEGIN)/);
        expect(s[1]).toMatch(/FOR UPDATE/);
        expect(s[2]).toMatch(/audit_event AS \(INSERT INTO audit_events/);
        expect(s[3]).toBe('COMMIT');
      }
      // The clearing writes its two postings in one INSERT, the authorization none (a hold).
      expect(clearing[2].match(/INSERT INTO ledger_entries/g)).toHaveLength(1);
      expect(authorizing.filter((q) => q.includes('ledger_entries'))).toEqual([]);
      // The day's usage is the card's counters, not an aggregate of its transactions.
      expect(authorizing.filter((q) => /FROM card_transactions/.test(q))).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe('kill -9 during a stream of movements', () => {
  it('loses no acknowledged movement and leaves the ledger balanced', async () => {
    const p = await TestPlatform.create(t);
    const { account } = await fundedAccount(p, 1);
    const server = ChildServer.start(['node', 'dist/src/main.js'], { SANDBOX: 'true' });
    const { port } = await server.listening();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    const acknowledged: number[] = [];
    let next = 2;
    let reached: () => void;
    const enough = new Promise<void>((resolve) => (reached = resolve));
    const client = async () => {
      for (;;) {
        const amount = next++;
        try {
          const status = await fund(
            port,
            agent,
            `${V}/sandbox/internal-accounts/${account.id}/fund`,
            p.authorization,
            amount,
          );
          if (status === 200) acknowledged.push(amount);
          if (acknowledged.length === 30) reached();
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = Promise.all(Array.from({ length: 6 }, client));
    await enough;
    server.child.kill('SIGKILL');
    await clients;
    agent.destroy();
    expect((await server.exited).signal).toBe('SIGKILL');

    const amounts = (
      await db().query<Array<{ amount: string }>>('SELECT amount::text FROM ledger_entries WHERE account_id = $1', [
        parseId('InternalAccount', account.id),
      ])
    ).map((r) => Number(r.amount));
    for (const amount of acknowledged) expect(amounts).toContain(amount);
    expect(acknowledged.length).toBeGreaterThanOrEqual(30);
    expect(await verifyLedger(db(), uuidOf(p))).toMatchObject({ ok: true });
    const verified = await cli('ledger:verify', '--platform', p.platformId);
    expect(verified.code).toBe(0);
  }, 180_000);
});

function fund(port: number, agent: http.Agent, path: string, authorization: string, amount: number): Promise<number> {
  const text = JSON.stringify({ amount });
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      agent,
      method: 'POST',
      path,
      headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}
