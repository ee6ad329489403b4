import type { AddressInfo } from 'node:net';
import { individual } from '../support/customers.js';
import { fundedAccount, kycApprovedCustomer } from '../support/fixtures.js';
import { expectError, startTestApp, TestPlatform, V, type TestApp } from '../support/test-app.js';
import { FakeCounterparty } from '../support/uma-counterparty.js';

/**
 * The pay request's two remaining spec codes (docs/uma.md): DUPLICATE_PAY_REQUEST (409) when a
 * quote to an UMA address reuses an Idempotency-Key of another request, and SERVICE_SWITCH_ERROR
 * (500, retryable) when the receiving participant answers the pay request with its switch error.
 * The receiver is a real local UMA participant built on @uma-sdk/core (FakeCounterparty).
 */
const domainOf = (t: TestApp) => `localhost:${(t.app.getHttpServer() as { address(): AddressInfo }).address().port}`;

let t: TestApp;
let fake: FakeCounterparty;
let p: TestPlatform;
let sender: { customerId: string; accountId: string };

beforeAll(async () => {
  t = await startTestApp();
  fake = await FakeCounterparty.start();
  p = await TestPlatform.create(t);
  const customer = await kycApprovedCustomer(p, individual({ umaAddress: `$dave@${domainOf(t)}` }));
  const { account } = await fundedAccount(p, 100_000, { customer });
  sender = { customerId: customer.id, accountId: account.id };
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const receiver = () => `$erin@${fake.domain}`;
const lookup = async () => {
  const res = await p.get(`/receiver/uma/${encodeURIComponent(receiver())}?customerId=${sender.customerId}`);
  expect(res.status).toBe(200);
  return (res.body as { lookupId: string }).lookupId;
};
const quoteBody = (lookupId: string, amount: number) => ({
  lookupId,
  source: { sourceType: 'ACCOUNT', accountId: sender.accountId },
  destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver(), currency: 'EUR' },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
});
const postQuote = (body: object, key: string) =>
  t.http.post(`${V}/quotes`).set('Authorization', p.authorization).set('Idempotency-Key', key).send(body);

describe('DUPLICATE_PAY_REQUEST', () => {
  it('the same key and body replays the quote; the key on another pay request answers 409', async () => {
    const lookupId = await lookup();
    const first = await postQuote(quoteBody(lookupId, 1_000), 'pay-1');
    expect([first.status, JSON.stringify(first.body)]).toEqual([201, expect.any(String)]);
    const replay = await postQuote(quoteBody(lookupId, 1_000), 'pay-1');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);

    const duplicate = expectError(await postQuote(quoteBody(lookupId, 2_000), 'pay-1'), 409, 'DUPLICATE_PAY_REQUEST');
    expect(duplicate.reason).toContain('Idempotency-Key');
    // Only the first quote exists.
    const quotes = (await p.get('/quotes')).body.data as Array<{ id: string }>;
    expect(quotes.map((q) => q.id)).toEqual([first.body.id]);
  }, 60_000);

  it('a request that is not a pay request keeps the generic CONFLICT', async () => {
    const lookupId = await lookup();
    expect((await postQuote(quoteBody(lookupId, 1_500), 'pay-2')).status).toBe(201);
    // Same key, a body that is not a quote to an UMA address (here: not even valid): CONFLICT.
    expectError(await postQuote({ lookupId }, 'pay-2'), 409, 'CONFLICT');
  }, 60_000);
});

describe('SERVICE_SWITCH_ERROR', () => {
  it("the receiver's switch error answers 500 SERVICE_SWITCH_ERROR (retryable); another 5xx stays QUOTE_REQUEST_FAILED", async () => {
    const lookupId = await lookup();
    try {
      fake.payreqMode = 'switch-error';
      const res = await p.post('/quotes', quoteBody(lookupId, 1_000));
      const body = expectError(res, 500, 'SERVICE_SWITCH_ERROR');
      expect(body.details).toEqual({ counterpartyStatus: 500, counterpartyCode: 'GRID_SWITCH_ERROR' });
      expect(body.reason).not.toMatch(/stack|at \w+ \(/);
      fake.payreqMode = 'status-500';
      expectError(await p.post('/quotes', quoteBody(lookupId, 1_000)), 400, 'QUOTE_REQUEST_FAILED');
    } finally {
      fake.payreqMode = 'none';
    }
    // Once the switch is back, the same request succeeds.
    expect((await p.post('/quotes', quoteBody(lookupId, 1_000))).status).toBe(201);
  }, 60_000);
});
