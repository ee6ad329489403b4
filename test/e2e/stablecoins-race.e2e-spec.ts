import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { LedgerService, systemAccount } from '../../src/ledger/ledger.service.js';
import { SANDBOX_PROVIDER_STEP_MS } from '../../src/stablecoins/provider/sandbox-stablecoin-provider.js';
import { StablecoinOperationsWorker } from '../../src/stablecoins/stablecoin-operations.worker.js';
import { FakeClock } from '../support/fake-clock.js';
import { achMint, burnBody, driveProvider, issuer, Json, keyed, wireMint } from '../support/stablecoins.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * Concurrency on one coin (issue #39): parallel mints, burns racing for the outstanding supply,
 * parallel workers, parallel funds reports; and ledger:verify catching a supply that is not exact.
 */
const clock = new FakeClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

const db = () => t.app.get(DataSource);
const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;
const supply = async (p: TestPlatform, symbol: string) => {
  const [row] = await db().query<Array<{ s: string }>>(
    `SELECT COALESCE(SUM(amount), 0)::text AS s FROM ledger_entries
      WHERE platform_id = $1 AND system_account = 'STABLECOIN_SUPPLY' AND currency = $2`,
    [uuidOf(p), symbol],
  );
  return row.s;
};

it('20 parallel mints, advanced by three worker passes at once: each posted exactly once, the supply exact', async () => {
  const p = await TestPlatform.create(t);
  const { coin, wallet, bank } = await issuer(p);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      keyed(p, `/stablecoins/${coin.id}/mints`, achMint(bank, wallet, String((i + 1) * 1_000_000))),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
  const worker = t.app.get(StablecoinOperationsWorker);
  for (let i = 0; i < 6; i++) {
    clock.advance(SANDBOX_PROVIDER_STEP_MS);
    const mine = { platformId: uuidOf(p) };
    await Promise.all([worker.runOnce(mine), worker.runOnce(mine), worker.runOnce(mine)]);
  }
  const ops = (await p.get(`/stablecoins/${coin.id}/operations?limit=100`)).body as Json;
  expect((ops.data as Json[]).every((o) => o.status === 'COMPLETED')).toBe(true);
  expect(await supply(p, 'ACME')).toBe(String(210 * 1_000_000));
  const [{ journals }] = await db().query<Array<{ journals: string }>>(
    `SELECT COUNT(DISTINCT journal_id)::text AS journals FROM ledger_entries WHERE platform_id = $1 AND reason = 'STABLECOIN_MINT'`,
    [uuidOf(p)],
  );
  expect(journals).toBe('20');
  expect((await verifyLedger(db(), uuidOf(p))).ok).toBe(true);
});

it('30 parallel burns of 1 against an outstanding 10: exactly 10 accepted, 20 INSUFFICIENT_FUNDS; the supply ends at 0', async () => {
  const p = await TestPlatform.create(t);
  const { coin, wallet, bank } = await issuer(p);
  await keyed(p, `/stablecoins/${coin.id}/mints`, achMint(bank, wallet, '10000000'));
  await driveProvider(t, p, clock);
  const answers = await Promise.all(
    Array.from({ length: 30 }, () => keyed(p, `/stablecoins/${coin.id}/burns`, burnBody(bank, '1000000'))),
  );
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses.filter((s) => s === 201)).toHaveLength(10);
  for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 400, 'INSUFFICIENT_FUNDS');
  await driveProvider(t, p, clock);
  expect(await supply(p, 'ACME')).toBe('0');
  expect((await verifyLedger(db(), uuidOf(p))).ok).toBe(true);
});

it('10 parallel funds reports of one wire: one moves it, the others are 409; it completes once', async () => {
  const p = await TestPlatform.create(t);
  const { coin, wallet } = await issuer(p);
  const op = (await keyed(p, `/stablecoins/${coin.id}/mints`, wireMint(wallet, '3000000'))).body as Json;
  const answers = await Promise.all(
    Array.from({ length: 10 }, () => p.post(`/sandbox/stablecoin-operations/${op.id}/funds-received`)),
  );
  expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 409, 'CONFLICT');
  await driveProvider(t, p, clock);
  expect(await supply(p, 'ACME')).toBe('3000000');
});

it('ledger:verify names an operation that moved money twice, a supply and a reserve that are not exact', async () => {
  const p = await TestPlatform.create(t);
  const { coin, wallet, bank } = await issuer(p);
  const op = (await keyed(p, `/stablecoins/${coin.id}/mints`, achMint(bank, wallet, '4000000'))).body as Json;
  await driveProvider(t, p, clock);
  const opUuid = parseId('StablecoinOperation', op.id as string)!;
  expect((await verifyLedger(db(), uuidOf(p))).ok).toBe(true);

  // The supply: an operation's recorded amount no longer matches its postings.
  await db().query('UPDATE stablecoin_operations SET amount = amount + 10000 WHERE id = $1', [opUuid]);
  try {
    const bad = await verifyLedger(db(), uuidOf(p));
    expect(bad).toMatchObject({ ok: false, violation: { rule: 'STABLECOIN_SUPPLY_MISMATCH', stablecoinId: coin.id } });
    expect(bad.violation!.problem).toContain(
      'completed mints minus burns are 4010000, its STABLECOIN_SUPPLY is 4000000',
    );
  } finally {
    await db().query('UPDATE stablecoin_operations SET amount = amount - 10000 WHERE id = $1', [opUuid]);
  }
  await db().query('UPDATE stablecoin_operations SET fiat_amount = fiat_amount + 1 WHERE id = $1', [opUuid]);
  try {
    expect((await verifyLedger(db(), uuidOf(p))).violation).toMatchObject({
      rule: 'STABLECOIN_RESERVE_MISMATCH',
      currency: 'USD',
    });
  } finally {
    await db().query('UPDATE stablecoin_operations SET fiat_amount = fiat_amount - 1 WHERE id = $1', [opUuid]);
  }

  // Posted twice: a second journal naming the operation.
  const ledger = t.app.get(LedgerService);
  const { journalId } = await t.app.get(TransactionService).run((m) =>
    ledger.transfer(m, {
      lines: [
        { account: systemAccount('STABLECOIN_SUPPLY', uuidOf(p), 'ACME'), amount: 1n },
        { account: systemAccount('RAIL_CLEARING', uuidOf(p), 'ACME'), amount: -1n },
      ],
      reason: 'STABLECOIN_MINT',
      reference: op.id as string,
    }),
  );
  try {
    expect((await verifyLedger(db(), uuidOf(p))).violation).toMatchObject({
      rule: 'STABLECOIN_OPERATION_POSTINGS',
      operationId: op.id,
    });
  } finally {
    await db().transaction(async (m) => {
      await m.query('SET LOCAL session_replication_role = replica');
      await m.query('DELETE FROM ledger_entries WHERE journal_id = $1', [journalId]);
    });
  }
  expect((await verifyLedger(db(), uuidOf(p))).ok).toBe(true);
});
