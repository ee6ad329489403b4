import { recordedEvents } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { customerAccount, kycApprovedCustomer } from '../support/fixtures.js';
import { driveRail, Json, payer, platformQuote } from '../support/payments.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * Quotes funded from outside (issue #29): a REALTIME_FUNDING source answers `paymentInstructions`,
 * `POST /sandbox/send` makes the funds arrive and the quote's payment proceeds (the ledger takes
 * them through RAIL_CLEARING). Expiry follows the injected clock.
 */
const clock = new FakeClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ QUOTE_TTL_SECONDS: '300' }, { clock });
});
afterAll(() => t.close());

const realtime = (destination: string, amount: number, extra: Record<string, unknown> = {}) => ({
  source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', ...extra },
  destination: { destinationType: 'ACCOUNT', accountId: destination },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
});

it('a REALTIME_FUNDING quote answers paymentInstructions; sandbox send pays an internal account at once (COMPLETED), the ledger balanced', async () => {
  const p = await TestPlatform.create(t);
  const customer = await kycApprovedCustomer(p);
  const account = await customerAccount(p, customer.id);
  const created = await p.post('/quotes', realtime(account.id, 2_500, { customerId: customer.id }));
  expect(created.status).toBe(201);
  const q = created.body as Json;
  expect(q).toMatchObject({
    status: 'PENDING',
    source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: customer.id },
    totalSendingAmount: 2_500,
  });
  expect(q.source.accountId).toBeUndefined();
  expect(q.paymentInstructions).toHaveLength(1);
  const info = q.paymentInstructions[0].accountOrWalletInfo as Json;
  expect(info).toMatchObject({ accountType: 'USD_ACCOUNT', accountNumber: expect.any(String) });
  expect(info.reference).toMatch(/^GRID-[0-9A-F]{12}$/);
  expect((await p.get(`/quotes/${q.id}`)).body.paymentInstructions).toEqual(q.paymentInstructions);

  // It is not executed by a call: it waits for its funds.
  expectError(await p.post(`/quotes/${q.id}/execute`), 409, 'CONFLICT');

  const sent = await p.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD', currencyAmount: 2_500 });
  expect(sent.status).toBe(200);
  expect(sent.body).toMatchObject({
    id: q.transactionId,
    type: 'OUTGOING',
    status: 'COMPLETED',
    quoteId: q.id,
    source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
  });
  expect((await customerAccount(p, customer.id)).balance.amount).toBe(2_500);
  expect((await p.get(`/quotes/${q.id}`)).body.status).toBe('COMPLETED');
  // Sent twice: the quote has already been confirmed.
  expectError(await p.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' }), 409, 'CONFLICT');
  const events = (await recordedEvents(p)).filter((e) => e.data.id === q.transactionId).map((e) => e.type);
  expect(events).toEqual(['OUTGOING_PAYMENT.COMPLETED']);
});

it('a payout to an external account funded from outside goes PENDING -> PROCESSING -> COMPLETED on the rail', async () => {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 1);
  const q = (await p.post('/quotes', realtime(a.externalAccountId, 10_000, { customerId: a.customer.id })))
    .body as Json;
  const sent = await p.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' });
  expect(sent.status).toBe(200);
  expect(sent.body.status).toBe('PENDING');
  expect((await p.get(`/quotes/${q.id}`)).body.status).toBe('PROCESSING');
  await driveRail(t, p, clock);
  expect((await p.get(`/transactions/${q.transactionId}`)).body.status).toBe('COMPLETED');
  expect(await a.balance()).toBe(1); // the customer's account was never touched
});

it('refuses what does not match the quote: the wrong currency or amount, an ACCOUNT quote, an expired quote, another platform', async () => {
  const p = await TestPlatform.create(t);
  const a = await payer(p, 10_000);
  const account = await customerAccount(p, a.customer.id);
  const q = (await p.post('/quotes', realtime(account.id, 1_000))).body as Json;
  expect(q.source.customerId).toBeUndefined(); // on behalf of the platform itself

  expectError(await p.post('/sandbox/send', { quoteId: q.id, currencyCode: 'EUR' }), 400, 'INVALID_CURRENCY');
  expectError(
    await p.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD', currencyAmount: 999 }),
    400,
    'INVALID_AMOUNT',
  );
  const other = await TestPlatform.create(t);
  expectError(await other.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' }), 404, 'QUOTE_NOT_FOUND');
  const fromAccount = await a.quote(500);
  expect(invalidFields(await p.post('/sandbox/send', { quoteId: fromAccount.id, currencyCode: 'USD' }))).toEqual([
    'quoteId',
  ]);
  expect(invalidFields(await p.post('/sandbox/send', { quoteId: 'Quote:nope', currencyAmount: 0 }))).toEqual([
    'currencyAmount',
    'currencyCode',
    'quoteId',
  ]);

  clock.advance(300_000);
  expect((await p.get(`/quotes/${q.id}`)).body.status).toBe('EXPIRED');
  expectError(await p.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' }), 400, 'QUOTE_EXPIRED');
  expect((await customerAccount(p, a.customer.id)).balance.amount).toBe(10_000);
});

it('validates the REALTIME_FUNDING source: currency required, no accountId needed, immediatelyExecute refused, unknown customer 404', async () => {
  const p = await TestPlatform.create(t);
  const customer = await kycApprovedCustomer(p);
  const account = await customerAccount(p, customer.id);
  const body = realtime(account.id, 100);
  expect(invalidFields(await p.post('/quotes', { ...body, source: { sourceType: 'REALTIME_FUNDING' } }))).toEqual([
    'source.currency',
  ]);
  expect(invalidFields(await p.post('/quotes', { ...body, source: { sourceType: 'ACCOUNT' } }))).toEqual([
    'source.accountId',
  ]);
  expect(invalidFields(await p.post('/quotes', { ...body, immediatelyExecute: true }))).toEqual(['immediatelyExecute']);
  expectError(
    await p.post('/quotes', realtime(account.id, 100, { customerId: 'Customer:019542f5-b3e7-7d02-8000-000000000001' })),
    404,
    'CUSTOMER_NOT_FOUND',
  );
  expectError(await p.post('/quotes', realtime(account.id, 100, { currency: 'ZZZ' })), 400, 'INVALID_CURRENCY');
  // An ACCOUNT quote is unchanged.
  const a = await payer(p, 1_000);
  expect(
    (await p.post('/quotes', platformQuote(a.accountId, a.externalAccountId, 100))).body.paymentInstructions,
  ).toBeUndefined();
});
