import { randomUUID } from 'node:crypto';
import { ModernTreasuryRail } from '../../src/payments/rail/modern-treasury/modern-treasury-rail.js';
import {
  type RailPayment,
  RailPaymentRefused,
  RailUnavailable,
  RailWebhookRejected,
} from '../../src/payments/rail/rail.js';
import { ModernTreasuryStandIn, type SignedWebhook } from '../support/modern-treasury-stand-in.js';

/**
 * The Modern Treasury payout rail adapter (src/payments/rail/modern-treasury/) driven directly
 * against the stand-in that is Modern Treasury's published contract (every request validated by
 * Prism against the committed OpenAPI subset; webhooks signed as Modern Treasury signs them). The
 * payout flow through the service (worker, inbound route, ledger) is covered where the rail port is
 * wired; here: what the adapter sends and how it reads what comes back.
 */
let mt: ModernTreasuryStandIn;
const ORIGINATING = randomUUID();

const rail = (overrides: Partial<ConstructorParameters<typeof ModernTreasuryRail>[0]> = {}) =>
  new ModernTreasuryRail({
    apiKey: mt.apiKey,
    organizationId: mt.organizationId,
    webhookKey: mt.webhookKey,
    originatingAccountId: ORIGINATING,
    baseURL: mt.url,
    maxRetries: 0,
    ...overrides,
  });

function usPayment(overrides: Partial<RailPayment> = {}): RailPayment {
  return {
    transactionId: `Transaction:${randomUUID()}`,
    platformId: `Platform:${randomUUID()}`,
    amount: 12_345n,
    currency: 'USD',
    paymentRail: 'ACH',
    sendingAmount: 12_345n,
    destination: {
      externalAccountId: `ExternalAccount:${randomUUID()}`,
      accountType: 'USD_ACCOUNT',
      beneficiaryName: 'Jane Doe',
      beneficiaryKind: 'INDIVIDUAL',
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: '12345678901',
        routingNumber: '021000021',
        bankAccountType: 'CHECKING',
        beneficiary: {
          beneficiaryType: 'INDIVIDUAL',
          fullName: 'Jane Doe',
          address: { line1: '1 Example Street', city: 'New York', postalCode: '10001', country: 'US', state: 'NY' },
        },
      },
    },
    ...overrides,
  };
}

function ibanPayment(overrides: Partial<RailPayment> = {}): RailPayment {
  const base = usPayment();
  return {
    ...base,
    currency: 'EUR',
    paymentRail: 'SEPA',
    destination: {
      externalAccountId: `ExternalAccount:${randomUUID()}`,
      accountType: 'EUR_ACCOUNT',
      beneficiaryName: 'Example Trading GmbH',
      beneficiaryKind: 'BUSINESS',
      currency: 'EUR',
      accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89 3704 0044 0532 0130 00', swiftCode: 'DEUTDEFF' },
    },
    ...overrides,
  };
}

const asBuffer = (w: SignedWebhook) => Buffer.from(w.body, 'utf8');

beforeEach(async () => {
  mt = await ModernTreasuryStandIn.start();
});

afterEach(async () => {
  // Every request the adapter made fits Modern Treasury's published contract, and so does every answer.
  expect(mt.violations).toEqual([]);
  expect(mt.answerViolations).toEqual([]);
  await mt.stop();
});

describe('send', () => {
  it('creates one counterparty and one ACH payment order: credit, minor units, our id as Idempotency-Key and metadata', async () => {
    const payment = usPayment();
    const sent = await rail().send(payment);

    const order = mt.paymentOrders.get(sent.providerRef)!;
    expect(order).toMatchObject({
      type: 'ach',
      priority: 'normal',
      direction: 'credit',
      amount: 12_345,
      currency: 'USD',
      originating_account_id: ORIGINATING,
      metadata: { transaction_id: payment.transactionId, platform_id: payment.platformId },
    });
    expect(mt.ordersCreatedFor(payment.transactionId)).toBe(1);
    const [counterparty] = [...mt.counterparties.values()];
    expect(counterparty).toMatchObject({
      name: 'Jane Doe',
      external_id: payment.destination.externalAccountId,
      accounts: [
        {
          account_type: 'checking',
          party_type: 'individual',
          party_name: 'Jane Doe',
          party_address: {
            line1: '1 Example Street',
            locality: 'New York',
            region: 'NY',
            postal_code: '10001',
            country: 'US',
          },
          account_details: [{ account_number: '12345678901' }],
          routing_details: [{ routing_number: '021000021', routing_number_type: 'aba' }],
        },
      ],
    });
    expect(order.receiving_account_id).toBe((counterparty.accounts as { id: string }[])[0].id);
    expect(sent.news).toEqual([
      expect.objectContaining({
        provider: 'modern-treasury',
        providerRef: sent.providerRef,
        transactionId: payment.transactionId,
        status: 'PROCESSING',
      }),
    ]);
  });

  it('is idempotent: sent twice (a worker re-sending after a crash), one payment order and one counterparty', async () => {
    const payment = usPayment();
    const first = await rail().send(payment);
    const second = await rail().send(payment);
    expect(second.providerRef).toBe(first.providerRef);
    expect(mt.ordersCreatedFor(payment.transactionId)).toBe(1);
    expect(mt.paymentOrders.size).toBe(1);
    expect(mt.counterparties.size).toBe(1);
  });

  it('an answer lost after Modern Treasury created the order (the crash window): the re-send gets the same order', async () => {
    const payment = usPayment();
    mt.failNext({ mode: 'drop', operationId: 'createPaymentOrder' });
    await expect(rail().send(payment)).rejects.toBeInstanceOf(RailUnavailable);
    expect(mt.paymentOrders.size).toBe(1);
    const again = await rail().send(payment);
    expect(again.providerRef).toBe([...mt.paymentOrders.keys()][0]);
    expect(mt.ordersCreatedFor(payment.transactionId)).toBe(1);
  });

  it('a 5xx is retried by the SDK with the same Idempotency-Key; one order', async () => {
    const payment = usPayment();
    mt.failNext({ mode: 'status', status: 503, operationId: 'createPaymentOrder' });
    const sent = await rail({ maxRetries: 2 }).send(payment);
    const creates = mt.requests.filter((r) => r.operationId === 'createPaymentOrder');
    expect(creates.map((r) => [r.status, r.idempotencyKey])).toEqual([
      [503, payment.transactionId],
      [201, payment.transactionId],
    ]);
    expect(mt.paymentOrders.has(sent.providerRef)).toBe(true);
    expect(mt.ordersCreatedFor(payment.transactionId)).toBe(1);
  });

  it('Modern Treasury down (5xx with no retries left) or hanging past the timeout is RailUnavailable (retryable)', async () => {
    mt.failNext({ mode: 'status', status: 500 });
    await expect(rail().send(usPayment())).rejects.toBeInstanceOf(RailUnavailable);
    mt.failNext({ mode: 'hang' });
    await expect(rail({ timeoutMs: 300 }).send(usPayment())).rejects.toBeInstanceOf(RailUnavailable);
    expect(mt.paymentOrders.size).toBe(0);
  });

  it('reuses the counterparty of an external account for its next payment', async () => {
    const first = usPayment();
    await rail().send(first);
    await rail().send(usPayment({ destination: first.destination }));
    expect(mt.counterparties.size).toBe(1);
    expect(mt.paymentOrders.size).toBe(2);
  });

  it('maps our rails to payment types: same-day ACH is high-priority ACH, WIRE, RTP', async () => {
    for (const [paymentRail, type, priority] of [
      ['ACH_SAME_DAY', 'ach', 'high'],
      ['WIRE', 'wire', 'normal'],
      ['RTP', 'rtp', 'normal'],
    ] as const) {
      const { providerRef } = await rail().send(usPayment({ paymentRail }));
      expect([paymentRail, mt.paymentOrders.get(providerRef)]).toMatchObject([paymentRail, { type, priority }]);
    }
  });

  it('an IBAN account (+BIC) is a counterparty with an iban account and a swift routing; EUR goes by SEPA', async () => {
    const payment = ibanPayment();
    const { providerRef } = await rail().send(payment);
    expect(mt.paymentOrders.get(providerRef)).toMatchObject({ type: 'sepa', currency: 'EUR', amount: 12_345 });
    expect([...mt.counterparties.values()][0]).toMatchObject({
      accounts: [
        {
          party_type: 'business',
          account_details: [{ account_number: 'DE89370400440532013000', account_number_type: 'iban' }],
          routing_details: [{ routing_number: 'DEUTDEFF', routing_number_type: 'swift' }],
        },
      ],
    });
    const wire = await rail().send(ibanPayment({ paymentRail: 'WIRE' }));
    expect(mt.paymentOrders.get(wire.providerRef)).toMatchObject({ type: 'wire' });
  });

  it('UK sort code, Canadian bank/branch and SWIFT accounts map to their routing types', async () => {
    const gbp = usPayment({
      currency: 'GBP',
      paymentRail: 'FASTER_PAYMENTS',
      destination: {
        ...usPayment().destination,
        accountType: 'GBP_ACCOUNT',
        currency: 'GBP',
        accountInfo: { sortCode: '123456', accountNumber: '12345678' },
      },
    });
    const cad = usPayment({
      currency: 'CAD',
      paymentRail: null,
      destination: {
        ...usPayment().destination,
        accountType: 'CAD_ACCOUNT',
        currency: 'CAD',
        accountInfo: { bankCode: '001', branchCode: '00012', accountNumber: '1234567' },
      },
    });
    const swift = usPayment({
      currency: 'USD',
      paymentRail: 'SWIFT',
      destination: {
        ...usPayment().destination,
        accountType: 'SWIFT_ACCOUNT',
        accountInfo: { country: 'NG', swiftCode: 'DEUTDEFF', bankName: 'Deutsche Bank', accountNumber: '1234567890' },
      },
    });
    const types = [];
    for (const p of [gbp, cad, swift]) {
      const { providerRef } = await rail().send(p);
      const order = mt.paymentOrders.get(providerRef)!;
      types.push([
        order.type,
        (order.receiving_account as { routing_details: { routing_number_type: string }[] }).routing_details[0]
          .routing_number_type,
      ]);
    }
    expect(types).toEqual([
      ['gb_fps', 'gb_sort_code'],
      ['eft', 'ca_cpa'],
      ['wire', 'swift'],
    ]);
  });

  it('refuses what Modern Treasury cannot pay before any call (not retryable)', async () => {
    const mobile = usPayment({
      destination: {
        ...usPayment().destination,
        accountType: 'KES_ACCOUNT',
        accountInfo: { phoneNumber: '+254712345678', provider: 'M-Pesa' },
      },
    });
    await expect(rail().send(mobile)).rejects.toBeInstanceOf(RailPaymentRefused);
    await expect(rail().send(ibanPayment({ paymentRail: 'RTP' }))).rejects.toThrow(/RTP cannot reach/);
    await expect(rail().send(usPayment({ paymentRail: 'FEDNOW' }))).rejects.toThrow(/does not offer the FEDNOW rail/);
    expect(mt.requests).toEqual([]);
  });
});

describe('fetch (the reconciliation poll)', () => {
  it('maps each Modern Treasury status to ours', async () => {
    const expected = [
      ['approved', 'PROCESSING'],
      ['processing', 'PROCESSING'],
      ['sent', 'PROCESSING'],
      ['completed', 'COMPLETED'],
      ['returned', 'RETURNED'],
    ] as const;
    const payment = usPayment();
    const { providerRef } = await rail().send(payment);
    const seen = [];
    for (const [status] of expected) {
      if (status !== 'approved') await mt.advance(providerRef, status);
      const [news] = await rail().fetch(providerRef, payment.transactionId);
      seen.push([status, news.status]);
      expect(news).toMatchObject({ providerRef, transactionId: payment.transactionId });
    }
    expect(seen).toEqual(expected.map(([a, b]) => [a, b]));
    const [returned] = await rail().fetch(providerRef, payment.transactionId);
    expect(returned.failureReason).toBe('R01: Insufficient Funds');

    for (const failure of ['failed', 'cancelled', 'denied'] as const) {
      const other = await rail().send(usPayment());
      await mt.advance(other.providerRef, failure);
      const [news] = await rail().fetch(other.providerRef, 'x');
      expect([failure, news.status]).toEqual([failure, 'FAILED']);
    }
  });

  it('the same state polled twice is the same news (same eventId), a new state a new one', async () => {
    const { providerRef } = await rail().send(usPayment());
    const [a] = await rail().fetch(providerRef, 't');
    const [b] = await rail().fetch(providerRef, 't');
    await mt.advance(providerRef, 'completed');
    const [c] = await rail().fetch(providerRef, 't');
    expect(a.eventId).toBe(b.eventId);
    expect(c.eventId).not.toBe(a.eventId);
  });
});

describe('parseWebhook', () => {
  it("accepts the stand-in's signed payment_order events and maps them, with X-Webhook-ID as the eventId", async () => {
    const payment = usPayment();
    const { providerRef } = await rail().send(payment);
    const processing = await mt.advance(providerRef, 'processing');
    const sent = await mt.advance(providerRef, 'sent');
    const completed = await mt.advance(providerRef, 'completed');
    const parsed = [processing, sent, completed].map((w) => rail().parseWebhook(asBuffer(w), w.headers));
    expect(parsed).toEqual([
      [expect.objectContaining({ status: 'PROCESSING', eventId: processing.headers['x-webhook-id'] })],
      [expect.objectContaining({ status: 'PROCESSING', eventId: sent.headers['x-webhook-id'] })],
      [
        {
          provider: 'modern-treasury',
          eventId: completed.headers['x-webhook-id'],
          providerRef,
          transactionId: payment.transactionId,
          status: 'COMPLETED',
          occurredAt: new Date(JSON.parse(completed.body).data.updated_at as string),
        },
      ],
    ]);
  });

  it('a redelivered webhook parses to the same eventId (deduplicated downstream)', async () => {
    const { providerRef } = await rail().send(usPayment());
    const w = await mt.advance(providerRef, 'completed');
    expect(rail().parseWebhook(asBuffer(w), w.headers)).toEqual(rail().parseWebhook(asBuffer(w), w.headers));
  });

  it('a return maps to RETURNED with the return code and reason', async () => {
    const { providerRef } = await rail().send(usPayment());
    await mt.advance(providerRef, 'completed');
    const w = await mt.advance(providerRef, 'returned', { returnCode: 'R03', reason: 'No Account' });
    expect(rail().parseWebhook(asBuffer(w), w.headers)).toEqual([
      expect.objectContaining({ providerRef, status: 'RETURNED', failureReason: 'R03: No Account' }),
    ]);
    const failed = await rail().send(usPayment());
    const f = await mt.advance(failed.providerRef, 'failed', { reason: 'Account closed' });
    expect(rail().parseWebhook(asBuffer(f), f.headers)).toEqual([
      expect.objectContaining({ status: 'FAILED', failureReason: 'Account closed' }),
    ]);
  });

  it('a return-topic webhook for one of our orders is RETURNED; non-payment events are no news', async () => {
    const { providerRef } = await rail().send(usPayment());
    const w = await mt.advance(providerRef, 'returned');
    const ret = (JSON.parse(w.body) as { data: { current_return: Record<string, unknown> } }).data.current_return;
    const retHook = mt.webhook('return', 'completed', ret);
    expect(rail().parseWebhook(asBuffer(retHook), retHook.headers)).toEqual([
      expect.objectContaining({ providerRef, status: 'RETURNED', failureReason: 'R01: Insufficient Funds' }),
    ]);
    const cp = [...mt.counterparties.values()][0];
    const other = mt.webhook('counterparty', 'updated', cp);
    expect(rail().parseWebhook(asBuffer(other), other.headers)).toEqual([]);
    const order = mt.paymentOrders.get(providerRef)!;
    const updated = mt.webhook('payment_order', 'updated', order);
    expect(rail().parseWebhook(asBuffer(updated), updated.headers)).toEqual([]);
  });

  it('refuses forged, tampered, unsigned and wrongly keyed webhooks', async () => {
    const { providerRef } = await rail().send(usPayment());
    const w = await mt.advance(providerRef, 'completed');
    const tampered = w.body.replace('"completed"', '"returned"');
    expect(tampered).not.toBe(w.body);
    expect(() => rail().parseWebhook(Buffer.from(tampered), w.headers)).toThrow(RailWebhookRejected);
    const forged = { ...w.headers, 'x-signature': mt.sign(w.body, 'not-the-key') };
    expect(() => rail().parseWebhook(asBuffer(w), forged)).toThrow(RailWebhookRejected);
    const unsigned = { ...w.headers };
    delete unsigned['x-signature'];
    expect(() => rail().parseWebhook(asBuffer(w), unsigned)).toThrow(RailWebhookRejected);
    expect(() => rail().parseWebhook(asBuffer(w), { ...w.headers, 'x-signature': 'abc' })).toThrow(RailWebhookRejected);
    expect(() => rail({ webhookKey: 'another-key' }).parseWebhook(asBuffer(w), w.headers)).toThrow(RailWebhookRejected);
    const notJson = 'not json';
    expect(() => rail().parseWebhook(Buffer.from(notJson), { 'x-signature': mt.sign(notJson) })).toThrow(
      RailWebhookRejected,
    );
  });

  it('the stand-in delivers signed webhooks to a URL, duplicated and reordered on demand', async () => {
    const received: { body: string; headers: Record<string, string> }[] = [];
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers as Record<string, string> });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      mt.webhookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/rails/modern-treasury`;
      const { providerRef } = await rail().send(usPayment());
      const processing = await mt.advance(providerRef, 'processing', { deliver: false });
      const completed = await mt.advance(providerRef, 'completed', { deliver: false });
      await mt.deliver(completed);
      await mt.deliver(processing);
      await mt.deliver(completed);
      const news = received.flatMap((r) => rail().parseWebhook(Buffer.from(r.body), r.headers));
      expect(news.map((n) => [n.status, n.eventId])).toEqual([
        ['COMPLETED', completed.headers['x-webhook-id']],
        ['PROCESSING', processing.headers['x-webhook-id']],
        ['COMPLETED', completed.headers['x-webhook-id']],
      ]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('the stand-in holds Modern Treasury to its contract', () => {
  it('a request that does not fit the published schema is refused 4xx and recorded', async () => {
    const res = await fetch(`${mt.url}/api/counterparties`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${mt.organizationId}:${mt.apiKey}`).toString('base64')}`,
      },
      body: JSON.stringify({ name: 'x', accounts: [{ account_type: 'piggy_bank' }] }),
    });
    expect(res.status).toBe(422);
    expect(mt.violations).toEqual([
      expect.objectContaining({
        operationId: 'createCounterparty',
        problems: [expect.stringContaining('account_type')],
      }),
    ]);
    mt.violations.length = 0; // asserted here; afterEach checks the rest
  });
});

describe('expectedSettlementMs', () => {
  it('ACH takes business days, wire a day, RTP minutes', () => {
    const r = rail();
    expect(r.expectedSettlementMs('RTP')).toBeLessThan(r.expectedSettlementMs('WIRE'));
    expect(r.expectedSettlementMs('WIRE')).toBeLessThan(r.expectedSettlementMs('ACH'));
    expect(r.expectedSettlementMs(null)).toBe(r.expectedSettlementMs('ACH'));
  });
});
