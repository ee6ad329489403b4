import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { SystemClock } from '../../src/common/clock.js';
import { parseId } from '../../src/common/ids.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { UmaReconciliationService } from '../../src/uma/uma-reconciliation.service.js';
import { UmaReconciliationWorker } from '../../src/uma/uma-reconciliation.worker.js';
import { UmaSettlementService } from '../../src/uma/uma-settlement.service.js';
import { UmaSettlementWorker } from '../../src/uma/uma-settlement.worker.js';
import { individual } from '../support/customers.js';
import { platformWithEndpoint, recordedEvents } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
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
 * Reconciliation of UMA payments between two deployments (docs/uma.md, "Reconciliation: the
 * settlement inquiry"): A on the run's database, B on its own behind a real proxy (B's UMA domain
 * is the proxy's, so every message of A reaches B through it: the proxy takes B down, or lets B
 * act and loses its answers). Both run on one fake real clock, moved past the inquiry age and the
 * retry horizon (shortened here to an hour) instead of waiting; the workers run as the tests drive
 * them. B's platform's webhook is a real receiver answering 200 (approve) unless a test says.
 */
const HORIZON_S = 3600;
const INQUIRY_AFTER_S = 600;
const ENV = {
  UMA_SETTLEMENT_RETRY_HORIZON_SECONDS: String(HORIZON_S),
  UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS: String(INQUIRY_AFTER_S),
};
const portOf = (t: TestApp) => (t.app.getHttpServer() as { address(): AddressInfo }).address().port;
const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;

describe('UMA settlement reconciliation between deployments', () => {
  const clock = new FakeClock();
  let a: TestApp;
  let b: TestApp;
  let dbB: IsolatedDatabase;
  let proxy: UmaProxy;
  let hooksB: WebhookReceiver;
  let pa: TestPlatform;
  let pb: TestPlatform;
  let alice: { customerId: string; accountId: string };
  let bob: { id: string; umaAddress: string };

  const startB = async () => {
    b = await startTestApp({ ...ENV, UMA_DOMAIN: proxy.domain }, { databaseUrl: dbB.url, clock });
    proxy.target = portOf(b);
    if (pb) pb = pb.on(b);
  };
  const deliverA = () => a.app.get(UmaSettlementWorker).runOnce();
  const deliverB = () => b.app.get(UmaSettlementWorker).runOnce();
  const reconcileA = () => a.app.get(UmaReconciliationWorker).runOnce();
  const unresolvedOnA = () => a.app.get(UmaReconciliationService).unresolved(uuidOf(pa));
  const balance = async (p: TestPlatform, customerId: string, currency: string) =>
    (await customerAccount(p, customerId, currency)).balance.amount;
  const statusOf = async (p: TestPlatform, id: string) => (await p.get(`/transactions/${id}`)).body as Json;
  const eventsOfA = async (id: string) =>
    (await recordedEvents(pa)).filter((e) => (e.data as Json).id === id).map((e) => e.type);
  const gauges = async (t: TestApp) => {
    const { body } = await t.app.get(MetricsService).scrape();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(body)?.[1]);
    return {
      unresolved: value('uma_settlement_unresolved'),
      oldest: value('uma_settlement_oldest_unresolved_seconds'),
    };
  };
  const ledgersClean = async () => {
    expect(await verifyLedger(a.app.get(DataSource), uuidOf(pa))).toMatchObject({ ok: true });
    expect(await verifyLedger(b.app.get(DataSource), uuidOf(pb))).toMatchObject({ ok: true });
  };
  const incomingOnB = async (outgoingId: string) =>
    (await dbB.query(`SELECT id, status FROM incoming_transactions WHERE reference LIKE '%/' || $1`, [outgoingId]))
      .rows as Array<{ id: string; status: string }>;
  /** Makes A's PAYMENT callback of `outgoingId` due again (a late retry), as the worker's clock reads. */
  const replayPayment = async (outgoingId: string): Promise<void> => {
    await a.app
      .get(DataSource)
      .query(
        `UPDATE uma_settlement_messages SET status = 'PENDING', next_attempt_at = $2 WHERE kind = 'PAYMENT' AND reference = $1`,
        [outgoingId, new Date(0)],
      );
  };

  /** Alice quotes `amount` USD to Bob in EUR (B answers the pay request) and executes it. */
  const pay = (amount: number) => payOverUma(pa, alice, bob.umaAddress, amount);
  type Payment = Awaited<ReturnType<typeof pay>>;

  /** Exactly one outcome on A, with its events once; the resolution in the timeline and the audit trail. */
  const expectResolvedOnce = async (p: Payment, outcome: 'COMPLETED' | 'FAILED', note: RegExp) => {
    const tx = await statusOf(pa, p.outgoingId);
    expect(tx.status).toBe(outcome);
    const types = await eventsOfA(p.outgoingId);
    const count = (t: string) => types.filter((x) => x === t).length;
    expect(count('OUTGOING_PAYMENT.COMPLETED')).toBe(outcome === 'COMPLETED' ? 1 : 0);
    expect(count('OUTGOING_PAYMENT.FAILED')).toBe(outcome === 'FAILED' ? 1 : 0);
    expect(count('OUTGOING_PAYMENT.REFUND_COMPLETED')).toBe(outcome === 'FAILED' ? 1 : 0);
    if (outcome === 'FAILED') expect(tx.refund).toMatchObject({ status: 'COMPLETED' });
    const [row] = await a.app
      .get(DataSource)
      .query<Array<{ timeline: Array<{ status: string; note?: string }> }>>(
        `SELECT timeline FROM outgoing_transactions WHERE id = $1`,
        [parseId('Transaction', p.outgoingId)],
      );
    const step = row.timeline.find((s) => s.status === outcome)!;
    expect(step.note).toMatch(note);
    const audit = (
      (await pa.get(`/audit-events?resourceId=${encodeURIComponent(p.outgoingId)}`)).body as { data: Json[] }
    ).data.filter((e) => e.action === 'umaSettlementInquiry');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: { type: 'system' } });
  };

  beforeAll(async () => {
    dbB = await isolatedDatabase();
    proxy = await UmaProxy.start();
    a = await startTestApp(ENV, { clock });
    await startB();
    pa = await TestPlatform.create(a);
    hooksB = await WebhookReceiver.start();
    pb = await platformWithEndpoint(b, dbB, hooksB.url);
    await supportCurrencies(pb, ['USD', 'EUR']);
    const domainA = `localhost:${portOf(a)}`;
    const customer = await kycApprovedCustomer(pa, individual({ umaAddress: `$alice@${domainA}` }));
    const { account } = await fundedAccount(pa, 100_000, { customer });
    alice = { customerId: customer.id, accountId: account.id };
    bob = <{ id: string; umaAddress: string }>(
      (<unknown>await newCustomer(pb, individual({ umaAddress: `$bob@${proxy.domain}` })))
    );
  }, 240_000);

  // @uma-sdk/core signs lookups and pay requests with the system's time: each test starts there.
  beforeEach(() => clock.set(new SystemClock().now()));

  afterAll(async () => {
    await hooksB?.stop();
    await a?.close();
    await b?.close();
    await proxy?.close();
    await dbB?.close();
  });

  it('B down longer than the horizon, then back: each payment resolves once, both ledgers exact', async () => {
    const aStart = await balance(pa, alice.customerId, 'USD');
    const bStart = await balance(pb, bob.id, 'EUR');
    // P1 reaches B and is credited; B's decision never leaves (B goes down before its worker runs).
    const p1 = await pay(3_000);
    expect(await deliverA()).toBe(1);
    expect(await incomingOnB(p1.outgoingId)).toEqual([expect.objectContaining({ status: 'COMPLETED' })]);
    // P2 and P3 are executed, then B goes down before their callbacks leave.
    const p2 = await pay(2_000);
    const p3 = await pay(1_000);
    proxy.mode = 'down';
    await b.close();
    expect(await deliverA()).toBe(2); // unreachable: retried
    expect(await balance(pa, alice.customerId, 'USD')).toBe(aStart - 6_000);

    // Past the inquiry age: A asks, nobody answers; the payments are unresolved, and said so.
    clock.advance((INQUIRY_AFTER_S + 1) * 1000);
    expect((await reconcileA()).map((r) => r.resolved)).toEqual([null, null, null]);
    const listed = await unresolvedOnA();
    expect(listed.map((u) => u.transactionId).sort()).toEqual([p1.outgoingId, p2.outgoingId, p3.outgoingId].sort());
    expect(listed.every((u) => u.overdue && u.lastError !== null && u.counterparty.domain === proxy.domain)).toBe(true);
    expect(await gauges(a)).toEqual({ unresolved: 3, oldest: expect.any(Number) });
    expect((await gauges(a)).oldest).toBeGreaterThanOrEqual(INQUIRY_AFTER_S);

    // Past the horizon: the callbacks are given up, the final inquiries still get no answer.
    clock.advance(HORIZON_S * 1000);
    expect(await deliverA()).toBe(2);
    const given = await a.app
      .get(DataSource)
      .query<Array<{ status: string }>>(
        `SELECT status FROM uma_settlement_messages WHERE kind = 'PAYMENT' AND reference = ANY($1)`,
        [[p2.outgoingId, p3.outgoingId]],
      );
    expect(given.map((g) => g.status)).toEqual(['FAILED', 'FAILED']);
    expect((await reconcileA()).map((r) => r.resolved)).toEqual([null, null, null]);
    expect((await unresolvedOnA()).length).toBe(3);
    for (const p of [p1, p2, p3]) expect(await statusOf(pa, p.outgoingId)).toMatchObject({ status: 'PENDING' });

    // B is back: the next inquiries resolve every payment, each once.
    await startB();
    proxy.mode = 'forward';
    clock.advance(301_000);
    const results = await reconcileA();
    expect(results.map((r) => r.resolved).sort()).toEqual(['COMPLETED', 'FAILED', 'FAILED']);
    await expectResolvedOnce(p1, 'COMPLETED', /the receiver credited it/);
    await expectResolvedOnce(p2, 'FAILED', /unknown to the receiver after the retry horizon/);
    await expectResolvedOnce(p3, 'FAILED', /unknown to the receiver after the retry horizon/);
    expect(await unresolvedOnA()).toEqual([]);
    expect(await gauges(a)).toEqual({ unresolved: 0, oldest: 0 });
    expect(await balance(pa, alice.customerId, 'USD')).toBe(aStart - 3_000);
    expect(await balance(pb, bob.id, 'EUR')).toBe(bStart + p1.received);
    expect(await incomingOnB(p2.outgoingId)).toEqual([]);
    await ledgersClean();

    // Late messages change nothing: B's decision on P1 arrives; P2's callback is retried and B's
    // tombstone refuses it.
    expect(await deliverB()).toBe(1);
    await replayPayment(p2.outgoingId);
    expect(await deliverA()).toBe(1);
    const [late] = await a.app
      .get(DataSource)
      .query<Array<{ status: string; last_error: string }>>(
        `SELECT status, last_error FROM uma_settlement_messages WHERE kind = 'PAYMENT' AND reference = $1`,
        [p2.outgoingId],
      );
    expect(late.status).toBe('FAILED');
    expect(late.last_error).toContain('CONFLICT');
    expect(await incomingOnB(p2.outgoingId)).toEqual([]);
    await expectResolvedOnce(p1, 'COMPLETED', /the receiver credited it/);
    await expectResolvedOnce(p2, 'FAILED', /retry horizon/);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(aStart - 3_000);
    expect(await balance(pb, bob.id, 'EUR')).toBe(bStart + p1.received);
    await ledgersClean();
  }, 240_000);

  it("answers lost until the horizon: B credits once, the inquiry completes A's payment, nothing refunded", async () => {
    const aStart = await balance(pa, alice.customerId, 'USD');
    const bStart = await balance(pb, bob.id, 'EUR');
    const p = await pay(2_500);
    proxy.mode = 'drop-settlement-answers';
    const dropped = proxy.dropped;
    expect(await deliverA()).toBe(1); // B credits; its answer is lost
    expect(proxy.dropped).toBe(dropped + 1);
    expect(await incomingOnB(p.outgoingId)).toEqual([expect.objectContaining({ status: 'COMPLETED' })]);
    clock.advance((INQUIRY_AFTER_S + 1) * 1000);
    expect(await deliverA()).toBe(1); // retried: B answers the same transaction, lost again
    expect((await reconcileA()).map((r) => r.resolved)).toEqual([null]); // the inquiry's answer lost too
    clock.advance(HORIZON_S * 1000);
    expect(await deliverA()).toBe(1); // given up
    expect((await reconcileA()).map((r) => r.resolved)).toEqual([null]);
    expect(await statusOf(pa, p.outgoingId)).toMatchObject({ status: 'PENDING' });
    expect(proxy.dropped).toBe(dropped + 5);

    proxy.mode = 'forward';
    clock.advance(301_000);
    expect((await reconcileA()).map((r) => r.resolved)).toEqual(['COMPLETED']);
    await expectResolvedOnce(p, 'COMPLETED', /the receiver credited it/);
    expect(await incomingOnB(p.outgoingId)).toHaveLength(1);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(aStart - 2_500);
    expect(await balance(pb, bob.id, 'EUR')).toBe(bStart + p.received);
    expect(await deliverB()).toBe(1); // B's decision, late: nothing changes
    await expectResolvedOnce(p, 'COMPLETED', /the receiver credited it/);
    await ledgersClean();
  }, 240_000);

  it("B's platform refuses while the answers are lost: A refunds once after asking; late callbacks move nothing", async () => {
    const aStart = await balance(pa, alice.customerId, 'USD');
    const bStart = await balance(pb, bob.id, 'EUR');
    const p = await pay(1_500);
    hooksB.reset().respondWith({ status: 403, body: '{"code": "FORBIDDEN", "reason": "RESTRICTED_JURISDICTION"}' });
    proxy.mode = 'drop-settlement-answers';
    expect(await deliverA()).toBe(1);
    expect(await incomingOnB(p.outgoingId)).toEqual([expect.objectContaining({ status: 'FAILED' })]);
    clock.advance(HORIZON_S * 1000 + 1000);
    expect(await deliverA()).toBe(1); // given up at the horizon
    proxy.mode = 'forward';
    expect((await reconcileA()).map((r) => r.resolved)).toEqual(['FAILED']);
    await expectResolvedOnce(p, 'FAILED', /the receiver refused it \(COMPLIANCE_REJECTED\)/);
    // B's decision and A's callback, late: no second refund, no credit.
    expect(await deliverB()).toBe(1);
    await replayPayment(p.outgoingId);
    expect(await deliverA()).toBe(1);
    await expectResolvedOnce(p, 'FAILED', /COMPLIANCE_REJECTED/);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(aStart);
    expect(await balance(pb, bob.id, 'EUR')).toBe(bStart);
    await ledgersClean();
  }, 240_000);

  it('racing resolvers (two inquiries, the decision callback, an operator): exactly one resolution', async () => {
    hooksB.reset();
    const aStart = await balance(pa, alice.customerId, 'USD');
    const p = await pay(1_200);
    expect(await deliverA()).toBe(1); // credited on B
    const service = a.app.get(UmaReconciliationService);
    const uuid = parseId('Transaction', p.outgoingId)!;
    const credited = { reference: p.outgoingId, outcome: 'CREDITED' as const, tombstoned: false };
    const [inquiry1, inquiry2, , operator] = await Promise.allSettled([
      service.apply(uuid, credited),
      service.apply(uuid, credited),
      deliverB(),
      service.resolveByOperator(uuidOf(pa), p.outgoingId, 'COMPLETE', 'confirmed with the partner', 'test'),
    ]);
    const resolvedByInquiry = [inquiry1, inquiry2].filter(
      (s) => s.status === 'fulfilled' && s.value.resolved === 'COMPLETED',
    ).length;
    const resolvedByOperator = operator.status === 'fulfilled' ? 1 : 0;
    if (operator.status === 'rejected') {
      expect((operator.reason as { code?: string }).code).toBe('CONFLICT');
    }
    expect(resolvedByInquiry + resolvedByOperator).toBeLessThanOrEqual(1);
    expect(await statusOf(pa, p.outgoingId)).toMatchObject({ status: 'COMPLETED' });
    const types = await eventsOfA(p.outgoingId);
    expect(types.filter((t) => t === 'OUTGOING_PAYMENT.COMPLETED')).toHaveLength(1);
    expect(types).not.toContain('OUTGOING_PAYMENT.FAILED');
    const [row] = await a.app
      .get(DataSource)
      .query<Array<{ resolution: string }>>(`SELECT resolution FROM uma_payments WHERE transaction_id = $1`, [uuid]);
    expect(['DECISION', 'INQUIRY', 'OPERATOR']).toContain(row.resolution);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(aStart - 1_200);
    await ledgersClean();
  }, 240_000);

  it('a PAYMENT racing a final inquiry at B: either credited or tombstoned, never both, and A follows B', async () => {
    hooksB.reset();
    proxy.mode = 'forward';
    const aStart = await balance(pa, alice.customerId, 'USD');
    const bStart = await balance(pb, bob.id, 'EUR');
    const payments = [await pay(1_001), await pay(1_002), await pay(1_003)];
    const messages = a.app.get(DataSource);
    const settlement = a.app.get(UmaSettlementService);
    const reconciliation = a.app.get(UmaReconciliationService);
    const outcomes = await Promise.all(
      payments.map(async (p) => {
        const [row] = await messages.query<Array<{ payload: Json }>>(
          `SELECT payload FROM uma_settlement_messages WHERE kind = 'PAYMENT' AND reference = $1`,
          [p.outgoingId],
        );
        const envelope = await settlement.sign('PAYMENT', row.payload);
        const uuid = parseId('Transaction', p.outgoingId)!;
        // The callback (straight to B) and A's final inquiry (through the proxy) at once.
        const [callback, raced] = await Promise.all([
          b.http.post('/.well-known/uma-settlement').send(envelope),
          reconciliation.inquire(proxy.domain, uuid, true),
        ]);
        const credited = (await incomingOnB(p.outgoingId)).length === 1;
        let status = raced;
        if (callback.status === 200) {
          expect(credited).toBe(true);
          // Seen while B's platform was still deciding: PENDING; asked again once it decided: CREDITED.
          expect(['CREDITED', 'PENDING']).toContain(raced.outcome);
          if (raced.outcome === 'PENDING') status = await reconciliation.inquire(proxy.domain, uuid, true);
          expect(status).toMatchObject({ outcome: 'CREDITED', tombstoned: false });
        } else {
          expect([callback.status, (callback.body as Json).code]).toEqual([409, 'CONFLICT']);
          expect(credited).toBe(false);
          expect(status).toMatchObject({ outcome: 'UNKNOWN', tombstoned: true });
        }
        await messages.query(`UPDATE uma_settlement_messages SET status = 'FAILED' WHERE reference = $1`, [
          p.outgoingId,
        ]);
        return { p, resolved: (await reconciliation.apply(uuid, status)).resolved };
      }),
    );
    // A's outcome is B's, each once; the money matches on both sides.
    const completed = outcomes.filter((o) => o.resolved === 'COMPLETED').map((o) => o.p);
    const refunded = outcomes.filter((o) => o.resolved === 'FAILED').map((o) => o.p);
    expect(completed.length + refunded.length).toBe(payments.length);
    for (const p of completed) expect(await statusOf(pa, p.outgoingId)).toMatchObject({ status: 'COMPLETED' });
    for (const p of refunded) expect(await statusOf(pa, p.outgoingId)).toMatchObject({ status: 'FAILED' });
    expect(await balance(pa, alice.customerId, 'USD')).toBe(aStart - completed.reduce((n, p) => n + p.amount, 0));
    expect(await balance(pb, bob.id, 'EUR')).toBe(bStart + completed.reduce((n, p) => n + p.received, 0));
    await ledgersClean();
  }, 240_000);
});
