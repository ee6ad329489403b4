import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
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
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * UMA payments between two deployments (A on the run's database, B on its own; docs/uma.md): the
 * pay-request exchange prices a quote to `$bob@<B>`, executing it moves the sender's money into
 * A's UMA_SETTLEMENT, the sandbox settlement layer carries a signed callback to B (which credits
 * Bob through IncomingPaymentsService) and B's decision back to A. The settlement workers run as
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
  /** B's platform's webhook endpoint (a real local receiver): it answers 200, approving incoming payments. */
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
    await a.app
      .get(DataSource)
      .query(`UPDATE uma_settlement_messages SET status = 'PENDING', next_attempt_at = now() WHERE reference = $1`, [
        quote.transactionId,
      ]);
    expect(await deliver(a)).toBe(1);
    expect(await balance(pb, bob.id, 'EUR')).toBe(quote.totalReceivingAmount);
    expect(await deliver(b)).toBe(0); // no second decision either
    expect(await verifyLedger(b.app.get(DataSource), uuidOf(pb))).toMatchObject({ ok: true });
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
