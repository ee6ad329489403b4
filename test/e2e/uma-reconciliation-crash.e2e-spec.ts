import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { UmaReconciliationService } from '../../src/uma/uma-reconciliation.service.js';
import { UmaSettlementWorker } from '../../src/uma/uma-settlement.worker.js';
import { ChildServer } from '../support/child-server.js';
import { individual } from '../support/customers.js';
import { platformWithEndpoint, recordedEvents } from '../support/events.js';
import {
  customerAccount,
  fundedAccount,
  kycApprovedCustomer,
  newCustomer,
  supportCurrencies,
} from '../support/fixtures.js';
import { isolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';
import { payOverUma, type Json } from '../support/payments.js';
import { startTestApp, TestPlatform, type TestApp } from '../support/test-app.js';
import { UmaProxy } from '../support/uma-proxy.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * kill -9 during reconciliation (docs/uma.md, "Reconciliation"): the inquiries run in real worker
 * processes (`node dist/src/main.js`, ROLE=worker) on A's database; B answers from a real server
 * process behind a proxy that holds the answer once B has acted on an inquiry, so a process can be
 * killed exactly there. A's worker killed mid-inquiry, then B killed mid-inquiry: every payment is
 * still resolved exactly once, both ledgers exact. The payments are made old by moving their
 * `settling_since` back (the horizon passed: final inquiries) instead of waiting; nothing sleeps:
 * the test awaits the proxy and the workers' log lines.
 */
const ENV = {
  UMA_SETTLEMENT_RETRY_HORIZON_SECONDS: '3600',
  UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS: '0',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
};
const MAIN = [process.execPath, 'dist/src/main.js'];
const portOf = (t: TestApp) => (t.app.getHttpServer() as { address(): AddressInfo }).address().port;
const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;

describe('UMA settlement reconciliation survives kill -9', () => {
  let dbA: IsolatedDatabase;
  let dbB: IsolatedDatabase;
  let a: TestApp;
  let b: TestApp;
  let proxy: UmaProxy;
  let hooksB: WebhookReceiver;
  let pa: TestPlatform;
  let pb: TestPlatform;
  let alice: { customerId: string; accountId: string };
  let bob: { id: string; umaAddress: string };
  const children: ChildServer[] = [];

  const start = async (env: Record<string, string>) => {
    const child = ChildServer.start(MAIN, { ...ENV, ...env });
    children.push(child);
    const { port } = await child.listening();
    return { child, port };
  };
  const workerOfA = () => start({ DATABASE_URL: dbA.url, ROLE: 'worker', UMA_DOMAIN: `localhost:${portOf(a)}` });
  const serverOfB = () => start({ DATABASE_URL: dbB.url, ROLE: 'api', UMA_DOMAIN: proxy.domain });
  const kill9 = async (child: ChildServer) => {
    child.child.kill('SIGKILL');
    expect(await child.exited).toMatchObject({ signal: 'SIGKILL' });
  };
  const stop = async (child: ChildServer) => {
    child.child.kill('SIGTERM');
    await child.exited;
  };
  const resolved = (child: ChildServer, outgoingId: string) =>
    child.waitFor(
      (l) => l.msg === 'settlement resolved by inquiry' && l.transactionId === parseId('Transaction', outgoingId),
      `the resolution of ${outgoingId}`,
    );
  const balance = async (p: TestPlatform, customerId: string, currency: string) =>
    (await customerAccount(p, customerId, currency)).balance.amount;

  /** Alice quotes `amount` USD to Bob in EUR (B answers the pay request) and executes it. */
  const pay = (amount: number) => payOverUma(pa, alice, bob.umaAddress, amount);
  type Payment = Awaited<ReturnType<typeof pay>>;

  /**
   * The PAYMENT callbacks still pending are given up (as at the horizon) and every unresolved
   * payment is made older than the horizon: its next inquiry is final.
   */
  const pastTheHorizon = async () => {
    await dbA.query(`UPDATE uma_settlement_messages SET status = 'FAILED' WHERE status = 'PENDING'`);
    await dbA.query(
      `UPDATE uma_payments SET settling_since = settling_since - interval '4 days',
              inquiry_due_at = inquiry_due_at - interval '4 days' WHERE status = 'SETTLING'`,
    );
  };
  const retryNow = async (payments: Payment[]) => {
    for (const p of payments) await a.app.get(UmaReconciliationService).retryNow(uuidOf(pa), p.outgoingId);
  };

  /** Each payment resolved once on A (its events once), B credited exactly the completed ones. */
  const expectExactlyOnce = async (
    completed: Payment[],
    refunded: Payment[],
    before: { a: number; b: number },
  ): Promise<void> => {
    const events = await recordedEvents(pa);
    for (const [p, outcome] of [
      ...completed.map((p) => [p, 'COMPLETED'] as const),
      ...refunded.map((p) => [p, 'FAILED'] as const),
    ]) {
      expect(((await pa.get(`/transactions/${p.outgoingId}`)).body as Json).status).toBe(outcome);
      const types = events.filter((e) => (e.data as Json).id === p.outgoingId).map((e) => e.type);
      expect(types.filter((t) => t === 'OUTGOING_PAYMENT.COMPLETED')).toHaveLength(outcome === 'COMPLETED' ? 1 : 0);
      expect(types.filter((t) => t === 'OUTGOING_PAYMENT.REFUND_COMPLETED')).toHaveLength(outcome === 'FAILED' ? 1 : 0);
      const credits = await dbB.query(
        `SELECT count(*)::int AS n FROM incoming_transactions WHERE reference LIKE '%/' || $1 AND status = 'COMPLETED'`,
        [p.outgoingId],
      );
      expect((credits.rows[0] as { n: number }).n).toBe(outcome === 'COMPLETED' ? 1 : 0);
    }
    const sent = completed.reduce((sum, p) => sum + p.amount, 0);
    const received = completed.reduce((sum, p) => sum + p.received, 0);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(before.a - sent);
    expect(await balance(pb, bob.id, 'EUR')).toBe(before.b + received);
    expect(await verifyLedger(a.app.get(DataSource), uuidOf(pa))).toMatchObject({ ok: true });
    expect(await verifyLedger(b.app.get(DataSource), uuidOf(pb))).toMatchObject({ ok: true });
  };

  beforeAll(async () => {
    [dbA, dbB] = await Promise.all([isolatedDatabase(), isolatedDatabase()]);
    proxy = await UmaProxy.start();
    a = await startTestApp(ENV, { databaseUrl: dbA.url });
    b = await startTestApp({ ...ENV, UMA_DOMAIN: proxy.domain }, { databaseUrl: dbB.url });
    proxy.target = portOf(b);
    pa = await TestPlatform.create(a);
    hooksB = await WebhookReceiver.start();
    pb = await platformWithEndpoint(b, dbB, hooksB.url);
    await supportCurrencies(pb, ['USD', 'EUR']);
    const customer = await kycApprovedCustomer(pa, individual({ umaAddress: `$alice@localhost:${portOf(a)}` }));
    const { account } = await fundedAccount(pa, 100_000, { customer });
    alice = { customerId: customer.id, accountId: account.id };
    bob = <{ id: string; umaAddress: string }>(
      (<unknown>await newCustomer(pb, individual({ umaAddress: `$bob@${proxy.domain}` })))
    );
  }, 240_000);

  afterAll(async () => {
    for (const child of children)
      if (child.child.exitCode === null && child.child.signalCode === null) await stop(child);
    await proxy?.close();
    await hooksB?.stop();
    await a?.close();
    await b?.close();
    await dbA?.close();
    await dbB?.close();
  });

  it("A's worker killed while its inquiry is answered: each payment still resolved once", async () => {
    const before = { a: await balance(pa, alice.customerId, 'USD'), b: await balance(pb, bob.id, 'EUR') };
    // P1 and P2 reach B and are credited (B's decisions never leave: B runs no worker here);
    // P3 and P4 never reach B.
    const p1 = await pay(1_000);
    const p2 = await pay(2_000);
    expect(await a.app.get(UmaSettlementWorker).runOnce()).toBe(2);
    const p3 = await pay(3_000);
    const p4 = await pay(4_000);
    await pastTheHorizon();

    proxy.mode = 'hold-settlement-answers';
    const first = await workerOfA();
    await proxy.waitHeld(1); // B acted on an inquiry; its answer is held
    await kill9(first.child);
    proxy.releaseHeld();
    proxy.mode = 'forward';

    await retryNow([p1, p2, p3, p4]); // the dead worker's leases are taken back at once
    const second = await workerOfA();
    await Promise.all([p1, p2, p3, p4].map((p) => resolved(second.child, p.outgoingId)));
    await stop(second.child);
    await expectExactlyOnce([p1, p2], [p3, p4], before);
  }, 240_000);

  it('B killed after acting on an inquiry, before answering: each payment still resolved once', async () => {
    const before = { a: await balance(pa, alice.customerId, 'USD'), b: await balance(pb, bob.id, 'EUR') };
    const p5 = await pay(1_500);
    expect(await a.app.get(UmaSettlementWorker).runOnce()).toBe(1);
    const p6 = await pay(2_500);
    await pastTheHorizon();

    const firstB = await serverOfB();
    proxy.target = firstB.port;
    proxy.mode = 'hold-settlement-answers';
    const worker = await workerOfA();
    await proxy.waitHeld(1); // B acted (credited the answer, or tombstoned); it dies before answering
    await kill9(firstB.child);
    proxy.releaseHeld();
    await stop(worker.child);

    const secondB = await serverOfB();
    proxy.target = secondB.port;
    proxy.mode = 'forward';
    await retryNow([p5, p6]);
    const next = await workerOfA();
    await Promise.all([p5, p6].map((p) => resolved(next.child, p.outgoingId)));
    await stop(next.child);
    await stop(secondB.child);
    await expectExactlyOnce([p5], [p6], before);
  }, 240_000);
});
