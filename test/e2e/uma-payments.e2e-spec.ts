import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { AppConfig } from '../../src/config/app-config.js';
import { ConsoleTransactionsService } from '../../src/console/console-transactions.service.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { OutboxDispatcher } from '../../src/outbox/outbox.dispatcher.js';
import { IncomingPaymentsWorker } from '../../src/payments/incoming/incoming-payments.worker.js';
import { UmaSettlementWorker } from '../../src/uma/uma-settlement.worker.js';
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
import type { Json } from '../support/payments.js';
import { expectError, startTestApp, TestPlatform, type TestApp } from '../support/test-app.js';
import { FakeCounterparty } from '../support/uma-counterparty.js';
import { WebhookReceiver, type ScriptedResponse } from '../support/webhook-receiver.js';

/**
 * UMA payments between two deployments (A on the run's database, B on its own; docs/uma.md): the
 * pay-request exchange prices a quote to `$bob@<B>`, executing it moves the sender's money into
 * A's UMA_SETTLEMENT, the sandbox settlement layer carries a signed callback to B (which credits
 * Bob through IncomingPaymentsService once B's platform's webhook, a real local receiver, decides:
 * 200, 202 then approve, 403, 422, or nothing within B's window on B's clock) and B's decision
 * back to A (completed, or failed and refunded exactly). The settlement workers run as
 * the tests drive them (`runOnce`). A fake counterparty built on @uma-sdk/core provokes each
 * failure of the exchange and of the callbacks.
 */
const domainOf = (t: TestApp) => `localhost:${(t.app.getHttpServer() as { address(): AddressInfo }).address().port}`;
const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;

describe('UMA payments between deployments', () => {
  let a: TestApp;
  let b: TestApp;
  let dbB: IsolatedDatabase;
  let fake: FakeCounterparty;
  /**
   * B's platform's webhook endpoint (a real local receiver): it answers 200 (approving incoming
   * payments) unless a test scripts another answer.
   */
  let hooksB: WebhookReceiver;
  let pa: TestPlatform;
  let pb: TestPlatform;
  let alice: { customerId: string; accountId: string; umaAddress: string };
  let bob: { id: string; umaAddress: string };

  const deliver = (t: TestApp) => t.app.get(UmaSettlementWorker).runOnce();
  const balance = async (p: TestPlatform, customerId: string, currency: string) =>
    (await customerAccount(p, customerId, currency)).balance.amount;
  const lookup = async (receiver: string, customerId = alice.customerId) => {
    const res = await pa.get(`/receiver/uma/${encodeURIComponent(receiver)}?customerId=${customerId}`);
    expect(res.status).toBe(200);
    return (res.body as { lookupId: string }).lookupId;
  };
  const quoteBody = (lookupId: string, receiver: string, amount: number, accountId = alice.accountId) => ({
    lookupId,
    source: { sourceType: 'ACCOUNT', accountId },
    destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver, currency: 'EUR' },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });

  /**
   * A customer on A pays `amount` USD to `$bob@B` (looked up, quoted in EUR, executed) and the
   * PAYMENT callback reaches B, whose platform's webhook gets INCOMING_PAYMENT.PENDING and answers
   * `answer`. Answers the two transactions and the balances before.
   */
  const payBob = async (amount: number, answer: ScriptedResponse) => {
    hooksB.reset().respondWith(answer);
    const lookupId = await lookup(bob.umaAddress);
    const created = await pa.post('/quotes', quoteBody(lookupId, bob.umaAddress, amount));
    expect([created.status, JSON.stringify(created.body)]).toEqual([201, expect.any(String)]);
    const quote = created.body as Json;
    const aBefore = await balance(pa, alice.customerId, 'USD');
    const bBefore = await balance(pb, bob.id, 'EUR');
    expect((await pa.post(`/quotes/${quote.id as string}/execute`)).status).toBe(200);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(aBefore - amount);
    expect(await deliver(a)).toBeGreaterThanOrEqual(1); // the PAYMENT callback: B asks its platform
    const [pending] = await hooksB.waitFor(1);
    expect(pending.body.type).toBe('INCOMING_PAYMENT.PENDING');
    expect(pending.body.data).toMatchObject({
      type: 'INCOMING',
      status: 'PENDING',
      receivedAmount: { amount: quote.totalReceivingAmount, currency: expect.objectContaining({ code: 'EUR' }) },
    });
    return {
      outgoingId: quote.transactionId as string,
      incomingId: pending.body.data.id as string,
      received: quote.totalReceivingAmount as number,
      aBefore,
      bBefore,
    };
  };

  /** B's webhooks about `incomingId` once B's outbox is drained (the PENDING one went at once). */
  const webhooksOfB = async (incomingId: string) => {
    await b.app.get(OutboxDispatcher).drain();
    return hooksB.received.filter((w) => w.body.data.id === incomingId).map((w) => w.body.type);
  };
  const eventsOfA = async (outgoingId: string) =>
    (await recordedEvents(pa)).filter((e) => (e.data as Json).id === outgoingId).map((e) => e.type);
  const statusOf = async (p: TestPlatform, id: string) => (await p.get(`/transactions/${id}`)).body as Json;
  const ledgersClean = async () => {
    expect(await verifyLedger(a.app.get(DataSource), uuidOf(pa))).toMatchObject({ ok: true });
    expect(await verifyLedger(b.app.get(DataSource), uuidOf(pb))).toMatchObject({ ok: true });
  };

  /** The payment completed on both sides: Bob credited exactly, Alice debited exactly, both told. */
  const expectCompleted = async (pay: Awaited<ReturnType<typeof payBob>>, amount: number) => {
    expect(await statusOf(pa, pay.outgoingId)).toMatchObject({ status: 'COMPLETED' });
    expect(await statusOf(pb, pay.incomingId)).toMatchObject({ status: 'COMPLETED' });
    expect(await balance(pa, alice.customerId, 'USD')).toBe(pay.aBefore - amount);
    expect(await balance(pb, bob.id, 'EUR')).toBe(pay.bBefore + pay.received);
    const aTypes = await eventsOfA(pay.outgoingId);
    expect(aTypes).toContain('OUTGOING_PAYMENT.COMPLETED');
    expect(aTypes).not.toContain('OUTGOING_PAYMENT.FAILED');
    expect(await webhooksOfB(pay.incomingId)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED']);
    await ledgersClean();
  };

  /** The payment failed on both sides: Alice refunded exactly, Bob not credited, both told. */
  const expectRefunded = async (pay: Awaited<ReturnType<typeof payBob>>, bReason: string) => {
    const outgoing = await statusOf(pa, pay.outgoingId);
    expect(outgoing).toMatchObject({ status: 'FAILED', refund: expect.objectContaining({ status: 'COMPLETED' }) });
    expect(await statusOf(pb, pay.incomingId)).toMatchObject({ status: 'FAILED', failureReason: bReason });
    expect(await balance(pa, alice.customerId, 'USD')).toBe(pay.aBefore);
    expect(await balance(pb, bob.id, 'EUR')).toBe(pay.bBefore);
    const aTypes = await eventsOfA(pay.outgoingId);
    expect(aTypes).toEqual(
      expect.arrayContaining([
        'OUTGOING_PAYMENT.FAILED',
        'OUTGOING_PAYMENT.REFUND_PENDING',
        'OUTGOING_PAYMENT.REFUND_COMPLETED',
      ]),
    );
    expect(aTypes).not.toContain('OUTGOING_PAYMENT.COMPLETED');
    expect(await webhooksOfB(pay.incomingId)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']);
    await ledgersClean();
    return outgoing;
  };
  /** The FAILED step of the sender's status timeline (what the console shows). */
  const failedStepOnA = async (outgoingId: string) => {
    const history = await a.app
      .get(ConsoleTransactionsService)
      .history(uuidOf(pa), parseId('Transaction', outgoingId)!);
    return history.timeline.find((step) => step.status === 'FAILED')!;
  };

  beforeAll(async () => {
    dbB = await isolatedDatabase();
    a = await startTestApp();
    b = await startTestApp({}, { databaseUrl: dbB.url });
    fake = await FakeCounterparty.start();
    pa = await TestPlatform.create(a);
    hooksB = await WebhookReceiver.start();
    pb = await platformWithEndpoint(b, dbB, hooksB.url);
    await supportCurrencies(pb, ['USD', 'EUR']);
    const customer = await kycApprovedCustomer(pa, individual({ umaAddress: `$alice@${domainOf(a)}` }));
    const { account } = await fundedAccount(pa, 100_000, { customer });
    alice = { customerId: customer.id, accountId: account.id, umaAddress: `$alice@${domainOf(a)}` };
    bob = <{ id: string; umaAddress: string }>(
      (<unknown>await newCustomer(pb, individual({ umaAddress: `$bob@${domainOf(b)}` })))
    );
  }, 240_000); // two apps and a second database migrated from scratch: slow on a loaded machine

  afterAll(async () => {
    await fake?.close();
    await hooksB?.stop();
    await a?.close();
    await b?.close();
    await dbB?.close();
  });

  it('A pays $bob@B in EUR from USD: priced by B, settled by callbacks, both ledgers exact', async () => {
    const lookupId = await lookup(bob.umaAddress);
    const created = await pa.post('/quotes', quoteBody(lookupId, bob.umaAddress, 10_000));
    expect([created.status, JSON.stringify(created.body)]).toEqual([201, expect.any(String)]);
    const quote = created.body as Json;
    expect(quote.destination).toEqual({ destinationType: 'UMA_ADDRESS', umaAddress: bob.umaAddress, currency: 'EUR' });
    expect(quote.totalSendingAmount).toBe(10_000);
    expect(quote.totalReceivingAmount).toBeGreaterThan(0);
    expect(quote.exchangeRate).toBeCloseTo(0.92, 4);

    const executed = await pa.post(`/quotes/${quote.id as string}/execute`);
    expect(executed.status).toBe(200);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(90_000);
    const pending = await pa.get(`/transactions/${quote.transactionId as string}`);
    expect((pending.body as Json).status).toBe('PENDING');
    expect((pending.body as Json).destination).toMatchObject({
      destinationType: 'UMA_ADDRESS',
      umaAddress: bob.umaAddress,
    });

    expect(await deliver(a)).toBe(1); // the PAYMENT callback to B: B credits Bob
    expect(await balance(pb, bob.id, 'EUR')).toBe(quote.totalReceivingAmount);
    expect(await deliver(b)).toBe(1); // B's DECISION back to A
    const done = await pa.get(`/transactions/${quote.transactionId as string}`);
    expect((done.body as Json).status).toBe('COMPLETED');
    const events = await recordedEvents(pa, 'OUTGOING_PAYMENT.COMPLETED');
    expect(events.map((e) => (e.data as Json).id as string)).toContain(quote.transactionId);

    expect(await verifyLedger(a.app.get(DataSource), uuidOf(pa))).toMatchObject({ ok: true });
    expect(await verifyLedger(b.app.get(DataSource), uuidOf(pb))).toMatchObject({ ok: true });

    // The PAYMENT callback delivered again (a retry after a lost answer): Bob is credited once.
    // Due at once by the worker's clock (the app's RealClock, not the database server's now()).
    await a.app
      .get(DataSource)
      .query(`UPDATE uma_settlement_messages SET status = 'PENDING', next_attempt_at = $2 WHERE reference = $1`, [
        quote.transactionId,
        new Date(0),
      ]);
    expect(await deliver(a)).toBe(1);
    expect(await balance(pb, bob.id, 'EUR')).toBe(quote.totalReceivingAmount);
    expect(await deliver(b)).toBe(0); // no second decision either
    expect(await verifyLedger(b.app.get(DataSource), uuidOf(pb))).toMatchObject({ ok: true });
  }, 120_000);

  it("B's platform answers 202 and approves through POST /transactions/{id}/approve: completed on both sides", async () => {
    const pay = await payBob(4_000, { status: 202 });
    // B waits for its platform: nothing decided, nothing goes back to A.
    expect(await statusOf(pb, pay.incomingId)).toMatchObject({ status: 'PENDING' });
    expect(await statusOf(pa, pay.outgoingId)).toMatchObject({ status: 'PENDING' });
    expect(await balance(pb, bob.id, 'EUR')).toBe(pay.bBefore);
    expect(await deliver(b)).toBe(0);

    const approved = await pb.post(`/transactions/${pay.incomingId}/approve`, {
      receiverCustomerInfo: { FULL_NAME: 'Bob' },
    });
    expect([approved.status, (approved.body as Json).status]).toEqual([200, 'COMPLETED']);
    expect(await deliver(b)).toBe(1); // B's DECISION back to A
    await expectCompleted(pay, 4_000);
    expectError(
      await pb.post(`/transactions/${pay.incomingId}/approve`),
      409,
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    );
  }, 120_000);

  it("B's platform answers 200: approved at once, completed on both sides", async () => {
    const pay = await payBob(2_500, { status: 200, body: '{"receiverCustomerInfo": {"FULL_NAME": "Bob"}}' });
    expect(await statusOf(pb, pay.incomingId)).toMatchObject({ status: 'COMPLETED' });
    expect(await deliver(b)).toBe(1);
    await expectCompleted(pay, 2_500);
    // Both callbacks moved money: each is in its receiving platform's audit trail, by the transaction.
    const auditOf = async (p: TestPlatform, id: string) =>
      ((await p.get(`/audit-events?resourceId=${encodeURIComponent(id)}`)).body as { data: Json[] }).data.filter(
        (e) => e.action === 'receiveUmaSettlement',
      );
    for (const [p, id] of [
      [pb, pay.incomingId],
      [pa, pay.outgoingId],
    ] as const) {
      const events = await auditOf(p, id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ actor: { type: 'anonymous' }, outcome: { status: 200 } });
      expect(events[0].resourceIds).toContain(id);
    }
  }, 120_000);

  it("B's platform answers 403: A fails the payment COMPLIANCE_REJECTED and refunds it exactly", async () => {
    const pay = await payBob(1_500, {
      status: 403,
      body: '{"code": "FORBIDDEN", "reason": "RESTRICTED_JURISDICTION"}',
    });
    expect(await deliver(b)).toBe(1);
    const outgoing = await expectRefunded(pay, 'COMPLIANCE_REJECTED');
    expect(outgoing.failureReason).toBe('COMPLIANCE_REJECTED');
    expect((await failedStepOnA(pay.outgoingId)).note).toContain('COMPLIANCE_REJECTED');
  }, 120_000);

  it("B's platform answers 422: A fails the payment with the fields B's platform asked for, refunded exactly", async () => {
    const pay = await payBob(1_200, {
      status: 422,
      body: '{"code": "UNPROCESSABLE", "requiredFields": ["TAX_ID", "BIRTH_DATE"]}',
    });
    expect(await statusOf(pb, pay.incomingId)).toMatchObject({ status: 'FAILED' });
    expect(await deliver(b)).toBe(1);
    const outgoing = await expectRefunded(pay, 'MISSING_MANDATORY_PAYEE_DATA');
    expect(outgoing.failureReason).toBe('ACCOUNT_CANNOT_RECEIVE');
    const step = await failedStepOnA(pay.outgoingId);
    expect(step.note).toContain('MISSING_MANDATORY_PAYEE_DATA');
    expect(step.note).toContain('TAX_ID, BIRTH_DATE');
  }, 120_000);

  it("B's platform decides nothing: B's window passes on B's clock, B fails it, A refunds exactly", async () => {
    const pay = await payBob(1_100, { status: 202 });
    const worker = b.app.get(IncomingPaymentsWorker);
    expect(await worker.runOnce({ platformId: uuidOf(pb) })).toBe(0); // the window is still open
    expect(await deliver(b)).toBe(0);
    const window = b.app.get(AppConfig).INCOMING_PAYMENT_APPROVAL_WINDOW_SECONDS;
    expect((await pb.post('/sandbox/clock/advance', { seconds: window + 1 })).status).toBe(200);
    expect(await worker.runOnce({ platformId: uuidOf(pb) })).toBe(1);
    expect(await deliver(b)).toBe(1);
    const outgoing = await expectRefunded(pay, 'PAYMENT_APPROVAL_TIMED_OUT');
    expect(outgoing.failureReason).toBe('ACCOUNT_CANNOT_RECEIVE');
    expect((await failedStepOnA(pay.outgoingId)).note).toContain('PAYMENT_APPROVAL_TIMED_OUT');
    // The platform's call comes too late.
    expectError(
      await pb.post(`/transactions/${pay.incomingId}/approve`),
      409,
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    );
  }, 120_000);

  it('B refuses tampered, unknown-key and replayed PAYMENT callbacks (nothing moves) and credits a valid one once', async () => {
    const start = await balance(pb, bob.id, 'EUR');
    const payment = {
      reference: `Transaction:${'1'.repeat(8)}-1111-7111-8111-${'1'.repeat(12)}`,
      sender: `$zed@${fake.domain}`,
      receiver: bob.umaAddress,
      currency: 'EUR',
      amount: '700',
      payerData: { identifier: `$zed@${fake.domain}` },
    };
    const post = (body: unknown) => b.http.post('/.well-known/uma-settlement').send(body as object);
    const tampered = await fake.settlementCallback('PAYMENT', payment, { tamper: (m) => (m.amount = '70000') });
    expectError(await post(tampered), 401, 'INVALID_SIGNATURE');
    expectError(
      await post(await fake.settlementCallback('PAYMENT', payment, { key: 'other' })),
      401,
      'INVALID_SIGNATURE',
    );
    expect(await balance(pb, bob.id, 'EUR')).toBe(start);

    const valid = await fake.settlementCallback('PAYMENT', payment);
    expect((await post(valid)).status).toBe(200);
    expect(await balance(pb, bob.id, 'EUR')).toBe(start + 700);
    expectError(await post(valid), 400, 'INVALID_NONCE');
    expect((await post(await fake.settlementCallback('PAYMENT', payment))).status).toBe(200); // a retry, freshly signed
    expect(await balance(pb, bob.id, 'EUR')).toBe(start + 700);
    // B's decision goes back to the sender's domain, once.
    expect(await deliver(b)).toBe(1);
    const decisions = fake.settlements.filter((c) => c.kind === 'DECISION' && c.payload.includes(payment.reference));
    expect(decisions.map((d) => JSON.parse(d.payload) as Json)).toEqual([
      { reference: payment.reference, outcome: 'COMPLETED' },
    ]);
    expect(await verifyLedger(b.app.get(DataSource), uuidOf(pb))).toMatchObject({ ok: true });
  }, 60_000);

  it("a wallet customer's incoming payment credits its non-wallet account in the currency (docs/uma.md), even when its wallet is older", async () => {
    // A platform of B that supported only EUR when the customer was created: its USD wallet is
    // older than the USD account opened when USD was added.
    const pc = await platformWithEndpoint(b, dbB, hooksB.url);
    await supportCurrencies(pc, ['EUR']);
    expect((await pc.patch('/config', { embeddedWalletConfig: { appName: 'Carol wallet' } })).status).toBe(200);
    const carol = await newCustomer(
      pc,
      individual({ umaAddress: `$carol@${domainOf(b)}`, email: `carol-${process.pid}@example.com` }),
    );
    await supportCurrencies(pc, ['EUR', 'USD']);
    const accounts = (await pc.get(`/customers/internal-accounts?customerId=${carol.id}&currency=USD`)).body as Json;
    const wallet = (accounts.data as Json[]).find((x) => x.type === 'EMBEDDED_WALLET')!;
    const fiat = (accounts.data as Json[]).find((x) => x.type === 'INTERNAL_FIAT')!;
    expect(Date.parse(wallet.createdAt as string)).toBeLessThan(Date.parse(fiat.createdAt as string));
    hooksB.reset();
    const payment = {
      reference: `Transaction:${'2'.repeat(8)}-2222-7222-8222-${'2'.repeat(12)}`,
      sender: `$zed@${fake.domain}`,
      receiver: `$carol@${domainOf(b)}`,
      currency: 'USD',
      amount: '900',
      payerData: { identifier: `$zed@${fake.domain}` },
    };
    const post = (body: unknown) => b.http.post('/.well-known/uma-settlement').send(body as object);
    expect((await post(await fake.settlementCallback('PAYMENT', payment))).status).toBe(200);
    const after = (await pc.get(`/customers/internal-accounts?customerId=${carol.id}&currency=USD`)).body as Json;
    const balances = Object.fromEntries(
      (after.data as Json[]).map((x) => [x.type as string, (x.balance as Json).amount as number]),
    );
    expect(balances).toEqual({ INTERNAL_FIAT: 900, EMBEDDED_WALLET: 0 });
  }, 60_000);

  it('B refuses a sender whose customer is not KYC-verified: 400 SENDER_NOT_ACCEPTED, nothing quoted', async () => {
    const unverified = await newCustomer(pa, individual({ umaAddress: `$carl@${domainOf(a)}` }));
    const account = await customerAccount(pa, unverified.id, 'USD');
    const lookupId = await lookup(bob.umaAddress, unverified.id);
    const res = await pa.post('/quotes', quoteBody(lookupId, bob.umaAddress, 1_000, account.id));
    expectError(res, 400, 'SENDER_NOT_ACCEPTED');
  }, 60_000);

  it('maps each failure of the pay-request exchange to its code', async () => {
    const receiver = `$carol@${fake.domain}`;
    const lookupId = await lookup(receiver);
    const cases: Array<[FakeCounterparty['payreqMode'], number, string]> = [
      ['sender-not-accepted', 400, 'SENDER_NOT_ACCEPTED'],
      ['garbage', 400, 'PARSE_PAYREQ_RESPONSE_ERROR'],
      ['wrong-amount', 400, 'INVALID_PAYREQ_RESPONSE'],
      ['tampered', 400, 'INVALID_PAYREQ_RESPONSE'],
      ['status-500', 400, 'QUOTE_REQUEST_FAILED'],
    ];
    try {
      for (const [mode, status, code] of cases) {
        fake.payreqMode = mode;
        expectError(await pa.post('/quotes', quoteBody(lookupId, receiver, 1_000)), status, code);
      }
    } finally {
      fake.payreqMode = 'none';
    }
    expectError(
      await pa.post('/quotes', { ...quoteBody(lookupId, receiver, 1_000), lookupId: undefined }),
      400,
      'INVALID_INPUT',
    );
    expect(await balance(pa, alice.customerId, 'USD')).toBeGreaterThan(0);
  }, 60_000);

  it('a refused payment is refunded exactly; bad decision callbacks are refused and move nothing', async () => {
    const receiver = `$dora@${fake.domain}`;
    const lookupId = await lookup(receiver);
    const quote = (await pa.post('/quotes', quoteBody(lookupId, receiver, 5_000))).body as Json;
    expect(quote.status).toBe('PENDING');
    const before = await balance(pa, alice.customerId, 'USD');
    expect((await pa.post(`/quotes/${quote.id as string}/execute`)).status).toBe(200);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(before - 5_000);
    expect(await deliver(a)).toBeGreaterThanOrEqual(1);
    const payment = fake.settlements.find(
      (s) => s.kind === 'PAYMENT' && s.payload.includes(quote.transactionId as string),
    );
    expect(JSON.parse(payment!.payload)).toMatchObject({
      receiver,
      currency: 'EUR',
      amount: String(quote.totalReceivingAmount),
    });

    const decision = { reference: quote.transactionId as string, outcome: 'FAILED' };
    const post = (body: unknown) => a.http.post('/.well-known/uma-settlement').send(body as object);
    // Tampered after signing, signed with a key the counterparty does not publish, stale: refused.
    expectError(
      await post(await fake.settlementCallback('DECISION', decision, { tamper: (m) => (m.outcome = 'COMPLETED') })),
      401,
      'INVALID_SIGNATURE',
    );
    expectError(
      await post(await fake.settlementCallback('DECISION', decision, { key: 'other' })),
      401,
      'INVALID_SIGNATURE',
    );
    expectError(
      await post(await fake.settlementCallback('DECISION', decision, { staleBy: 3600 })),
      400,
      'INVALID_TIMESTAMP',
    );
    fake.keyMode = 'expired';
    try {
      expectError(await post(await fake.settlementCallback('DECISION', decision)), 400, 'CERT_CHAIN_EXPIRED');
    } finally {
      fake.keyMode = 'valid';
    }
    // Another deployment cannot decide a payment that did not go to it.
    const foreign = await post(
      await fake.settlementCallback('DECISION', {
        ...decision,
        reference: `Transaction:${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}`,
      }),
    );
    expectError(foreign, 404, 'TRANSACTION_NOT_FOUND');
    expect(await balance(pa, alice.customerId, 'USD')).toBe(before - 5_000);
    expect(((await pa.get(`/transactions/${quote.transactionId as string}`)).body as Json).status).toBe('PENDING');

    // The receiver refuses (its platform answered 403): A fails the payment and refunds it exactly.
    const signed = await fake.settlementCallback('DECISION', decision);
    const refused = await post(signed);
    expect(refused.status).toBe(200);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(before);
    const failed = (await pa.get(`/transactions/${quote.transactionId as string}`)).body as Json;
    expect(failed.status).toBe('FAILED');
    const types = (await recordedEvents(pa))
      .filter((e) => (e.data as Json).id === quote.transactionId)
      .map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'OUTGOING_PAYMENT.FAILED',
        'OUTGOING_PAYMENT.REFUND_PENDING',
        'OUTGOING_PAYMENT.REFUND_COMPLETED',
      ]),
    );
    // The same callback replayed: its nonce was seen (INVALID_NONCE); a fresh one changes nothing.
    expectError(await post(signed), 400, 'INVALID_NONCE');
    expect((await post(await fake.settlementCallback('DECISION', { ...decision, outcome: 'COMPLETED' }))).status).toBe(
      200,
    );
    expect(await balance(pa, alice.customerId, 'USD')).toBe(before);
    expect(((await pa.get(`/transactions/${quote.transactionId as string}`)).body as Json).status).toBe('FAILED');
    expect(await verifyLedger(a.app.get(DataSource), uuidOf(pa))).toMatchObject({ ok: true });
  }, 120_000);

  it('racing decisions on one payment: exactly one outcome, money moved at most once', async () => {
    const receiver = `$fred@${fake.domain}`;
    const lookupId = await lookup(receiver);
    const quote = (await pa.post('/quotes', quoteBody(lookupId, receiver, 3_000))).body as Json;
    const before = await balance(pa, alice.customerId, 'USD');
    expect((await pa.post(`/quotes/${quote.id as string}/execute`)).status).toBe(200);
    const reference = quote.transactionId as string;
    // Two workers at once: the callback is claimed by one of them and sent once.
    await Promise.all([deliver(a), deliver(a)]);
    expect(fake.settlements.filter((c) => c.kind === 'PAYMENT' && c.payload.includes(reference))).toHaveLength(1);
    const callbacks = await Promise.all(
      ['COMPLETED', 'FAILED', 'COMPLETED', 'FAILED'].map((outcome) =>
        fake.settlementCallback('DECISION', { reference, outcome }),
      ),
    );
    const answers = await Promise.all(callbacks.map((c) => a.http.post('/.well-known/uma-settlement').send(c)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const statuses = new Set(answers.map((r) => (r.body as Json).status as string));
    expect(statuses.size).toBe(1); // every answer reports the one outcome that won
    const final = ((await pa.get(`/transactions/${reference}`)).body as Json).status as string;
    expect([...statuses]).toEqual([final]);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(final === 'FAILED' ? before : before - 3_000);
    const types = (await recordedEvents(pa)).filter((e) => (e.data as Json).id === reference).map((e) => e.type);
    expect(types.filter((t) => t === 'OUTGOING_PAYMENT.COMPLETED' || t === 'OUTGOING_PAYMENT.FAILED')).toHaveLength(1);
    expect(types.filter((t) => t === 'OUTGOING_PAYMENT.REFUND_COMPLETED')).toHaveLength(final === 'FAILED' ? 1 : 0);
    expect(await verifyLedger(a.app.get(DataSource), uuidOf(pa))).toMatchObject({ ok: true });
  }, 120_000);

  it('a payment callback for an unknown receiver is refused by B: A refunds the sender', async () => {
    // The receiver's customer is deleted between the quote and the settlement.
    const erinAddress = `$erin@${domainOf(b)}`;
    const erin = await newCustomer(pb, individual({ umaAddress: erinAddress }));
    const lookupId = await lookup(erinAddress);
    const quote = (await pa.post('/quotes', quoteBody(lookupId, erinAddress, 2_000))).body as Json;
    expect(quote.status).toBe('PENDING');
    expect((await pb.delete(`/customers/${erin.id}`)).status).toBe(200);
    const before = await balance(pa, alice.customerId, 'USD');
    expect((await pa.post(`/quotes/${quote.id as string}/execute`)).status).toBe(200);
    expect(await deliver(a)).toBe(1);
    expect(await balance(pa, alice.customerId, 'USD')).toBe(before);
    expect(((await pa.get(`/transactions/${quote.transactionId as string}`)).body as Json).status).toBe('FAILED');
    expect(await verifyLedger(a.app.get(DataSource), uuidOf(pa))).toMatchObject({ ok: true });
  }, 120_000);
});
