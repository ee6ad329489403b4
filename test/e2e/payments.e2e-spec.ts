import { parseId } from '../../src/common/ids.js';
import { RailWorker } from '../../src/payments/rail/rail-worker.service.js';
import { SANDBOX_RAIL_STEP_MS } from '../../src/payments/rail/sandbox-rail.js';
import { recordedEvents } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { customerAccount, kycApprovedCustomer, supportCurrencies } from '../support/fixtures.js';
import { driveRail, Json, payer, platformQuote } from '../support/payments.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * Platform money movement over HTTP on the real app (issue #29): quotes, execution, the sandbox
 * rail's lifecycle and its webhooks, refunds, the deprecated transfers, transactions, exchange
 * rates, and every error the issue lists. The clock is injected: quote expiry and the rail's
 * steps are driven by hand (RailWorker.runOnce, what a worker runs every half second).
 */
const clock = new FakeClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ QUOTE_TTL_SECONDS: '300', FX_RATES: 'EUR=0.92,MXN=17.2' }, { clock });
});
afterAll(() => t.close());

const platform = () => TestPlatform.create(t);
const types = async (p: TestPlatform, transactionId: string) =>
  (await recordedEvents(p))
    .filter((e) => e.type.startsWith('OUTGOING_PAYMENT.') && e.data.id === transactionId)
    .map((e) => `${e.type}:${String(e.data.status)}`);
const QUOTE_REQUIRED = [
  'id',
  'status',
  'expiresAt',
  'createdAt',
  'source',
  'destination',
  'sendingCurrency',
  'receivingCurrency',
  'totalSendingAmount',
  'totalReceivingAmount',
  'exchangeRate',
  'feesIncluded',
  'transactionId',
];

describe('POST /quotes and GET /quotes', () => {
  it('quotes a payout to an external account with every member the reference requires; reads and lists it; another platform gets 404', async () => {
    const p = await platform();
    const a = await payer(p);
    const res = await p.post(
      '/quotes',
      platformQuote(a.accountId, a.externalAccountId, 12_345, { description: 'Inv 7' }),
    );
    expect(res.status).toBe(201);
    const q = res.body as Json;
    for (const member of QUOTE_REQUIRED) expect(q).toHaveProperty(member);
    expect(q).toMatchObject({
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: a.accountId, customerId: a.customer.id },
      destination: { destinationType: 'ACCOUNT', accountId: a.externalAccountId },
      totalSendingAmount: 12_345,
      totalReceivingAmount: 12_345,
      exchangeRate: 1,
      feesIncluded: 0,
      platformFeesIncluded: 0,
      expiresAt: new Date(clock.now().getTime() + 300_000).toISOString(),
    });
    expect((await p.get(`/quotes/${q.id}`)).body).toEqual(q);
    const list = (await p.get(`/quotes?customerId=${a.customer.id}`)).body as Json;
    expect(list.data.map((x: Json) => String(x.id))).toEqual([q.id]);
    const other = await platform();
    expectError(await other.get(`/quotes/${q.id}`), 404, 'QUOTE_NOT_FOUND');
    expectError(await other.post(`/quotes/${q.id}/execute`), 404, 'QUOTE_NOT_FOUND');
    expectError(
      await other.post('/quotes', platformQuote(a.accountId, a.externalAccountId, 100)),
      404,
      'ACCOUNT_NOT_FOUND',
    );
  });

  it('prices cross-currency quotes exactly both ways, the platform fee included in feesIncluded', async () => {
    const p = await platform();
    await supportCurrencies(p, ['USD', 'EUR']);
    const customer = await kycApprovedCustomer(p);
    const a = await payer(p, 1_000_000, { customer });
    const eur = await customerAccount(p, customer.id, 'EUR');
    const sending = await a.quote(10_000, {}, eur.id);
    // 10 fixed + round(10000 * 0.003) = 40 in fees; (10000 - 40) * 0.92 = 9163.2 -> 9163 (rounded down).
    expect(sending).toMatchObject({ totalSendingAmount: 10_000, feesIncluded: 40, totalReceivingAmount: 9163 });
    expect(sending.rateDetails).toEqual({
      counterpartyMultiplier: 0.92,
      counterpartyFixedFee: 0,
      serviceApiMultiplier: 0.997,
      serviceApiFixedFee: 10,
      serviceApiVariableFeeRate: 0.003,
      serviceApiVariableFeeAmount: 30,
    });
    const receiving = await a.quote(9163, { lockedCurrencySide: 'RECEIVING' }, eur.id);
    expect(receiving).toMatchObject({ totalSendingAmount: 10_000, totalReceivingAmount: 9163 });
    const withFee = await a.quote(10_000, {
      platformFeeOverride: { platformFixedFee: { amount: 25, currency: 'USD' }, platformVariableFeeBps: 100 },
    });
    // Same currency: no service fee; the platform's 25 + 1% = 125.
    expect(withFee).toMatchObject({ feesIncluded: 125, platformFeesIncluded: 125, totalReceivingAmount: 9875 });
  });

  it('answers the issue’s errors: SELF_PAYMENT, INVALID_AMOUNT, QUOTE_RATE_UNAVAILABLE, TRANSACTION_SIZE_LIMIT_EXCEEDED, EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED, INVALID_INPUT, 403 for VIEW', async () => {
    const p = await platform();
    await supportCurrencies(p, ['USD', 'EUR', 'GBP']);
    const customer = await kycApprovedCustomer(p);
    const a = await payer(p, 1_000_000, { customer });
    const eur = await customerAccount(p, customer.id, 'EUR');
    const gbp = await customerAccount(p, customer.id, 'GBP');
    expectError(await p.post('/quotes', platformQuote(a.accountId, a.accountId, 100)), 400, 'SELF_PAYMENT');
    expectError(await p.post('/quotes', platformQuote(a.accountId, eur.id, 5)), 400, 'INVALID_AMOUNT');
    expectError(await p.post('/quotes', platformQuote(a.accountId, gbp.id, 5000)), 400, 'QUOTE_RATE_UNAVAILABLE');
    expectError(
      await p.post('/quotes', platformQuote(a.accountId, a.externalAccountId, 1_000_001)),
      400,
      'TRANSACTION_SIZE_LIMIT_EXCEEDED',
    );
    const res = await p.post(`/sandbox/external-accounts/${a.externalAccountId}/status`, { status: 'UNVERIFIED' });
    expect(res.status).toBe(200);
    expectError(
      await p.post('/quotes', platformQuote(a.accountId, a.externalAccountId, 100)),
      400,
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
    );
    expect(
      invalidFields(
        await p.post('/quotes', {
          source: { sourceType: 'CARD' },
          destination: {},
          lockedCurrencySide: 'BOTH',
          lockedCurrencyAmount: -1,
        }),
      ),
    ).toEqual([
      'destination.accountId',
      'destination.destinationType',
      'lockedCurrencyAmount',
      'lockedCurrencySide',
      'source.accountId',
      'source.sourceType',
    ]);
    const view = await p.token(['VIEW']);
    const good = await a.quote(1000, {}, eur.id);
    for (const [method, path] of [
      ['post', '/quotes'],
      ['post', `/quotes/${good.id}/execute`],
      ['post', '/transfer-out'],
    ] as const) {
      const r = await t.http[method](`${V}${path}`).set('Authorization', view.authorization).send({});
      expect([r.status, (r.body as Json).code]).toEqual([403, 'FORBIDDEN']);
    }
    expect((await t.http.get(`${V}/quotes/${good.id}`).set('Authorization', view.authorization)).status).toBe(200);
  });
});

describe('POST /quotes/{quoteId}/execute', () => {
  it('pays an external account: PENDING -> PROCESSING -> COMPLETED on the sandbox rail, each with its webhook; the source debited exactly once', async () => {
    const p = await platform();
    const a = await payer(p, 50_000);
    const q = await a.quote(12_345);
    const executed = await a.execute(q.id);
    expect(executed).toMatchObject({ id: q.id, status: 'PROCESSING', transactionId: q.transactionId });
    expect(await a.balance()).toBe(50_000 - 12_345);
    const pending = (await p.get(`/transactions/${q.transactionId}`)).body as Json;
    expect(pending).toMatchObject({
      id: q.transactionId,
      status: 'PENDING',
      type: 'OUTGOING',
      direction: 'DEBIT',
      quoteId: q.id,
      customerId: a.customer.id,
      platformCustomerId: a.customer.platformCustomerId,
      sentAmount: { amount: 12_345, currency: { code: 'USD' } },
      receivedAmount: { amount: 12_345 },
    });
    expect(await driveRail(t, p, clock)).toBe(2);
    const done = (await p.get(`/transactions/${q.transactionId}`)).body as Json;
    expect(done).toMatchObject({ status: 'COMPLETED', settledAt: expect.any(String) });
    expect((await p.get(`/quotes/${q.id}`)).body).toMatchObject({ status: 'COMPLETED' });
    expect(await types(p, q.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING:PENDING',
      'OUTGOING_PAYMENT.PROCESSING:PROCESSING',
      'OUTGOING_PAYMENT.COMPLETED:COMPLETED',
    ]);
    expect(await a.balance()).toBe(50_000 - 12_345);
  });

  it('settles an internal destination at once (COMPLETED), crediting it exactly in the other currency', async () => {
    const p = await platform();
    await supportCurrencies(p, ['USD', 'EUR']);
    const customer = await kycApprovedCustomer(p);
    const a = await payer(p, 20_000, { customer });
    const eur = await customerAccount(p, customer.id, 'EUR');
    const q = await a.quote(10_000, {}, eur.id);
    expect(await a.execute(q.id)).toMatchObject({ status: 'COMPLETED' });
    expect(await a.balance()).toBe(10_000);
    expect(await a.balance('EUR')).toBe(q.totalReceivingAmount);
    expect(await types(p, q.transactionId)).toEqual(['OUTGOING_PAYMENT.COMPLETED:COMPLETED']);
  });

  it('executing twice is 409; the same Idempotency-Key answers the first result again', async () => {
    const p = await platform();
    const a = await payer(p, 50_000);
    const q = await a.quote(1000);
    const first = await p.post(`/quotes/${q.id}/execute`).set('Idempotency-Key', 'exec-1');
    expect(first.status).toBe(200);
    const replay = await p.post(`/quotes/${q.id}/execute`).set('Idempotency-Key', 'exec-1');
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expectError(await p.post(`/quotes/${q.id}/execute`), 409, 'CONFLICT');
    expect(await a.balance()).toBe(49_000);
  });

  it('QUOTE_EXPIRED after expiresAt (the clock), INSUFFICIENT_FUNDS with nothing written', async () => {
    const p = await platform();
    const a = await payer(p, 5_000);
    const q = await a.quote(1000);
    clock.advance(300_000);
    expectError(await p.post(`/quotes/${q.id}/execute`), 400, 'QUOTE_EXPIRED');
    expect((await p.get(`/quotes/${q.id}`)).body).toMatchObject({ status: 'EXPIRED' });
    const big = await a.quote(5_001);
    expectError(await p.post(`/quotes/${big.id}/execute`), 400, 'INSUFFICIENT_FUNDS');
    expect(await a.balance()).toBe(5_000);
    expect((await p.get(`/quotes/${big.id}`)).body).toMatchObject({ status: 'PENDING' });
    expectError(await p.get(`/transactions/${big.transactionId}`), 404, 'TRANSACTION_NOT_FOUND');
  });

  it('immediatelyExecute answers the executed quote', async () => {
    const p = await platform();
    const a = await payer(p, 5_000);
    const res = await p.post(
      '/quotes',
      platformQuote(a.accountId, a.externalAccountId, 1000, { immediatelyExecute: true }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'PROCESSING' });
    expect(await a.balance()).toBe(4_000);
  });
});

describe('the sandbox rail’s magic amounts', () => {
  it('...002 fails after PROCESSING: the source is refunded exactly, with REFUND_* events', async () => {
    const p = await platform();
    const a = await payer(p, 50_000);
    const q = await a.quote(10_002);
    await a.execute(q.id);
    expect(await a.balance()).toBe(50_000 - 10_002);
    await driveRail(t, p, clock);
    const failed = (await p.get(`/transactions/${q.transactionId}`)).body as Json;
    expect(failed).toMatchObject({
      status: 'FAILED',
      failureReason: 'ACCOUNT_CANNOT_RECEIVE',
      refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED', reference: q.transactionId },
    });
    expect(await a.balance()).toBe(50_000);
    expect((await p.get(`/quotes/${q.id}`)).body).toMatchObject({ status: 'FAILED' });
    expect(await types(p, q.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING:PENDING',
      'OUTGOING_PAYMENT.PROCESSING:PROCESSING',
      'OUTGOING_PAYMENT.FAILED:FAILED',
      'OUTGOING_PAYMENT.REFUND_PENDING:FAILED',
      'OUTGOING_PAYMENT.REFUND_COMPLETED:FAILED',
    ]);
  });

  it('...003 completes and is then returned: PAYOUT_RETURNED, refunded', async () => {
    const p = await platform();
    const a = await payer(p, 50_000);
    const q = await a.quote(3_003);
    await a.execute(q.id);
    await driveRail(t, p, clock);
    expect((await p.get(`/transactions/${q.transactionId}`)).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAYOUT_RETURNED',
      settledAt: expect.any(String),
    });
    expect(await a.balance()).toBe(50_000);
    expect(await types(p, q.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING:PENDING',
      'OUTGOING_PAYMENT.PROCESSING:PROCESSING',
      'OUTGOING_PAYMENT.COMPLETED:COMPLETED',
      'OUTGOING_PAYMENT.FAILED:FAILED',
      'OUTGOING_PAYMENT.REFUND_PENDING:FAILED',
      'OUTGOING_PAYMENT.REFUND_COMPLETED:FAILED',
    ]);
  });

  it('...004 is a slow rail: it stays PROCESSING until the platform’s test clock reaches settlement', async () => {
    const p = await platform();
    const a = await payer(p, 50_000);
    const q = await a.quote(4_004);
    await a.execute(q.id);
    await driveRail(t, p, clock);
    const processing = (await p.get(`/transactions/${q.transactionId}`)).body as Json;
    expect(processing).toMatchObject({ status: 'PROCESSING', expectedSettlementAt: expect.any(String) });
    const advanced = await p.post('/sandbox/clock/advance', { seconds: 3 * 86_400 });
    expect(advanced.status).toBe(200);
    await driveRail(t, p, clock);
    expect((await p.get(`/transactions/${q.transactionId}`)).body).toMatchObject({ status: 'COMPLETED' });
  });
});

describe('transactions', () => {
  it('lists with the reference’s filters (status, type, customer, the platform’s id, accounts) and pages by cursor', async () => {
    const p = await platform();
    const a = await payer(p, 100_000);
    const b = await payer(p, 100_000);
    const q1 = await a.quote(1000);
    const q2 = await a.quote(1002);
    const q3 = await b.quote(1000);
    for (const q of [q1, q2]) await a.execute(q.id);
    await b.execute(q3.id);
    await driveRail(t, p, clock);
    const ids = async (query: string): Promise<string[]> =>
      ((await p.get(`/transactions?${query}`)).body as { data: Json[] }).data.map((x) => String(x.id));
    expect(await ids(`customerId=${a.customer.id}`)).toEqual([q2.transactionId, q1.transactionId]);
    expect(await ids(`customerId=${a.customer.id}&sortOrder=asc`)).toEqual([q1.transactionId, q2.transactionId]);
    expect(await ids(`status=FAILED`)).toEqual([q2.transactionId]);
    expect(await ids(`platformCustomerId=${b.customer.platformCustomerId}`)).toEqual([q3.transactionId]);
    expect(await ids(`senderAccountIdentifier=${b.accountId}`)).toEqual([q3.transactionId]);
    expect(await ids(`receiverAccountIdentifier=${a.externalAccountId}`)).toEqual([q2.transactionId, q1.transactionId]);
    expect(await ids(`reference=${q3.id}`)).toEqual([q3.transactionId]);
    expect(await ids(`type=INCOMING`)).toEqual([]);
    expect(await ids(`customerId=${p.platformId}`)).toEqual([]);
    const page1 = (await p.get('/transactions?limit=2')).body as Json;
    expect(page1).toMatchObject({ hasMore: true, totalCount: 3 });
    const page2 = (await p.get(`/transactions?limit=2&cursor=${page1.nextCursor}`)).body as Json;
    expect([...page1.data, ...page2.data].map((x: Json) => String(x.id)).sort()).toEqual(
      [q1.transactionId, q2.transactionId, q3.transactionId].sort(),
    );
    expectError(await (await platform()).get(`/transactions/${q1.transactionId}`), 404, 'TRANSACTION_NOT_FOUND');
    expect(invalidFields(await p.get('/transactions?status=NOPE&limit=0'))).toEqual(['limit', 'status']);
  });

  it('cancels a PENDING payout (refunded, USER_CANCELLATION); once PROCESSING it is TRANSACTION_NOT_CANCELLABLE', async () => {
    const p = await platform();
    const a = await payer(p, 10_000);
    const q = await a.quote(1000);
    await a.execute(q.id);
    const cancelled = await p.post(`/transactions/${q.transactionId}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'FAILED',
      refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' },
    });
    expect(await a.balance()).toBe(10_000);
    const q2 = await a.quote(1000);
    await a.execute(q2.id);
    clock.advance(SANDBOX_RAIL_STEP_MS);
    expect(await t.app.get(RailWorker).runOnce({ platformId: parseId('Platform', p.platformId)! })).toBe(1);
    const r = await p.get(`/transactions/${q2.transactionId}`);
    expect((r.body as Json).status).toBe('PROCESSING');
    expectError(await p.post(`/transactions/${q2.transactionId}/cancel`, {}), 409, 'TRANSACTION_NOT_CANCELLABLE');
  });

  it('confirms receipt delivery (now, or the given time; again replaces it)', async () => {
    const p = await platform();
    const a = await payer(p, 10_000);
    const q = await a.quote(1000);
    await a.execute(q.id);
    const now = await p.post(`/transactions/${q.transactionId}/confirm`, {});
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ receiptDeliveryConfirmedAt: clock.now().toISOString() });
    const at = '2026-01-02T03:04:05.000Z';
    const again = await p.post(`/transactions/${q.transactionId}/confirm`, { receiptDeliveryConfirmedAt: at });
    expect(again.body).toMatchObject({ receiptDeliveryConfirmedAt: at });
    expectError(
      await (await platform()).post(`/transactions/${q.transactionId}/confirm`, {}),
      404,
      'TRANSACTION_NOT_FOUND',
    );
  });
});

describe('the deprecated same-currency transfers', () => {
  it('transfer-out pays an external account (OUTGOING, Deprecation header); transfer-in pulls one in (INCOMING, credited)', async () => {
    const p = await platform();
    const a = await payer(p, 10_000);
    const out = await p.post('/transfer-out', {
      source: { accountId: a.accountId },
      destination: { accountId: a.externalAccountId, paymentRail: 'ACH' },
      amount: 2500,
    });
    expect(out.status).toBe(201);
    expect(out.headers['deprecation']).toBe('@1767225600');
    expect(out.body).toMatchObject({
      type: 'OUTGOING',
      status: 'PENDING',
      sentAmount: { amount: 2500 },
      paymentRail: 'ACH',
    });
    expect(await a.balance()).toBe(7_500);
    const inn = await p.post('/transfer-in', {
      source: { accountId: a.externalAccountId },
      destination: { accountId: a.accountId },
      amount: 1200,
    });
    expect(inn.status).toBe(201);
    expect(inn.headers['deprecation']).toBe('@1767225600');
    expect(inn.body).toMatchObject({
      type: 'INCOMING',
      direction: 'CREDIT',
      status: 'COMPLETED',
      receivedAmount: { amount: 1200 },
    });
    expect(await a.balance()).toBe(8_700);
    const list = (await p.get(`/transactions?customerId=${a.customer.id}`)).body as Json;
    expect(list.data.map((x: Json) => String(x.type))).toEqual(['INCOMING', 'OUTGOING']);
    expect((await recordedEvents(p, 'INCOMING_PAYMENT.COMPLETED')).map((e) => String(e.data.id))).toEqual([
      (inn.body as Json).id,
    ]);
  });
});

describe('GET /exchange-rates', () => {
  it('answers the reference’s shape, priced as a quote would be (fees included); INVALID_CURRENCY for an unknown code', async () => {
    const p = await platform();
    const res = await p.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR&sendingAmount=10000');
    expect(res.status).toBe(200);
    expect((res.body as Json).data).toEqual([
      {
        sourceCurrency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
        sendingAmount: 10_000,
        minSendingAmount: 1,
        maxSendingAmount: 100_000_000,
        destinationCurrency: expect.objectContaining({ code: 'EUR', decimals: 2 }),
        destinationPaymentRail: 'SEPA_INSTANT',
        receivingAmount: 9163,
        exchangeRate: 0.92,
        fees: { fixed: 10, total: 40 },
        updatedAt: expect.any(String),
      },
    ]);
    const all = (await p.get('/exchange-rates?sourceCurrency=USD')).body as Json;
    expect(all.data.map((r: Json) => String(r.destinationCurrency.code)).sort()).toEqual(['EUR', 'MXN']);
    expectError(await p.get('/exchange-rates?sourceCurrency=XYZ'), 400, 'INVALID_CURRENCY');
  });

  it('includes the platform’s configured fees (PATCH /config feeConfigs), which quotes charge too (platformFeesIncluded); an override replaces them', async () => {
    const p = await platform();
    await supportCurrencies(p, ['USD', 'EUR']);
    const customer = await kycApprovedCustomer(p);
    const a = await payer(p, 1_000_000, { customer });
    const eur = await customerAccount(p, customer.id, 'EUR');
    const fee = { feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency: 'USD', variableFeeBps: 50 };
    const set = await p.patch('/config', { feeConfigs: [{ ...fee, fixedFee: { amount: 20, currency: 'USD' } }] });
    expect(set.status).toBe(200);
    expect((set.body as Json).feeConfigs).toEqual([{ ...fee, fixedFee: { amount: 20, currency: 'USD' } }]);
    expect(((await p.get('/config').expect(200)).body as Json).feeConfigs).toEqual((set.body as Json).feeConfigs);

    // The service's 10 + 0.3% (30) and the platform's 20 + 0.5% (50): 110; (10000 - 110) * 0.92 = 9098.8 -> 9098.
    const rates = (await p.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR').expect(200)).body as Json;
    expect(rates.data[0]).toMatchObject({
      sendingAmount: 10_000,
      receivingAmount: 9098,
      fees: { fixed: 30, total: 110 },
    });
    const cross = await a.quote(10_000, {}, eur.id);
    expect(cross).toMatchObject({ feesIncluded: 110, platformFeesIncluded: 70, totalReceivingAmount: 9098 });
    // A cross-currency fee: a same-currency payout carries none.
    expect(await a.quote(10_000)).toMatchObject({ feesIncluded: 0, platformFeesIncluded: 0 });
    // The override replaces the configured fee: 25 + 1% = 125, plus the service's 40.
    const overridden = await a.quote(
      10_000,
      { platformFeeOverride: { platformFixedFee: { amount: 25, currency: 'USD' }, platformVariableFeeBps: 100 } },
      eur.id,
    );
    expect(overridden).toMatchObject({ feesIncluded: 165, platformFeesIncluded: 125 });

    expect(
      invalidFields(
        await p.patch('/config', {
          feeConfigs: [
            { ...fee, fixedFee: { amount: 20, currency: 'EUR' } },
            { ...fee, fixedFee: { amount: 20, currency: 'USD' } },
            {
              feeType: 'FLAT',
              sourceCurrency: 'usd',
              variableFeeBps: 10_001,
              fixedFee: { amount: -1, currency: 'USD' },
            },
          ],
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        'feeConfigs.2.feeType',
        'feeConfigs.2.sourceCurrency',
        'feeConfigs.2.variableFeeBps',
        'feeConfigs.2.fixedFee.amount',
      ]),
    );
    const mismatch = await p.patch('/config', { feeConfigs: [{ ...fee, fixedFee: { amount: 20, currency: 'EUR' } }] });
    expect(invalidFields(mismatch)).toEqual(['feeConfigs.0.fixedFee.currency']);
    // Zero fees remove it: the corridor is back to the service's fees alone.
    const cleared = await p.patch('/config', {
      feeConfigs: [{ ...fee, variableFeeBps: 0, fixedFee: { amount: 0, currency: 'USD' } }],
    });
    expect((cleared.body as Json).feeConfigs).toEqual([]);
    const after = (await p.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR').expect(200)).body as Json;
    expect(after.data[0]).toMatchObject({ receivingAmount: 9163, fees: { fixed: 10, total: 40 } });
  });
});
