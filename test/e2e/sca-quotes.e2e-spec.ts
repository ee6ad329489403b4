import { parseId } from '../../src/common/ids.js';
import { RailWorker } from '../../src/payments/rail/rail-worker.service.js';
import { individual } from '../support/customers.js';
import { recordedEvents } from '../support/events.js';
import { kycApprovedCustomer, type Customer } from '../support/fixtures.js';
import { Json, payer, platformQuote } from '../support/payments.js';
import { totpCode } from '../support/totp.js';
import { expectRefusedProof } from '../support/sca.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * SCA quote authorization (docs/sca.md, "Quote authorization"): an EU customer's quote waits in
 * PENDING_AUTHORIZATION with a challenge bound to its amounts and payee; authorize (SMS_OTP, TOTP
 * with otplib codes) then execute, or execute first (the transaction PENDING_AUTHORIZATION with
 * its event) and the authorization releases it; wrong, expired and foreign proofs refused; a
 * trusted beneficiary needs no challenge; nothing changes outside the SCA regions.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const FR_ADDRESS = { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' };
const euCustomer = (p: TestPlatform): Promise<Customer> =>
  kycApprovedCustomer(p, individual({ address: FR_ADDRESS, nationality: 'FR', phoneNumber: '+33612345678' }));
const euPayer = async (p: TestPlatform, funds = 100_000) => payer(p, funds, { customer: await euCustomer(p) });
const outgoingEvents = async (p: TestPlatform, transactionId: string) =>
  (await recordedEvents(p))
    .filter((e) => e.type.startsWith('OUTGOING_PAYMENT.') && e.data.id === transactionId)
    .map((e) => `${e.type}:${String(e.data.status)}`);

describe('an EU customer quotes, authorizes and executes', () => {
  it('SMS_OTP: the quote carries the challenge; execute waits (transaction PENDING_AUTHORIZATION, its event); authorize releases it', async () => {
    const p = await TestPlatform.create(t);
    const a = await euPayer(p);
    const q = await a.quote(12_345);
    expect(q.status).toBe('PENDING_AUTHORIZATION');
    expect(q.scaChallenge).toEqual({
      id: expect.stringMatching(/^ScaChallenge:/),
      expiresAt: expect.any(String),
      factor: 'SMS_OTP',
      availableFactors: ['SMS_OTP'],
      purpose: 'AUTHORIZE_PAYMENT',
    });
    expect((await p.get(`/quotes/${q.id}`)).body).toEqual(q);

    // execute before the authorization: nothing moves; the transaction waits; a second execute is 409
    const waiting = await a.execute(q.id);
    expect(waiting).toMatchObject({ status: 'PENDING_AUTHORIZATION', scaChallenge: q.scaChallenge });
    expect(await a.balance()).toBe(100_000);
    expect((await p.get(`/transactions/${q.transactionId}`)).body).toMatchObject({
      status: 'PENDING_AUTHORIZATION',
      quoteId: q.id,
    });
    expectError(await p.post(`/quotes/${q.id}/execute`), 409, 'CONFLICT');
    expect(await outgoingEvents(p, q.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING_AUTHORIZATION:PENDING_AUTHORIZATION',
    ]);

    // the code was sent with the quote: a re-send waits 30 seconds (platform clock)
    expectError(await p.post(`/quotes/${q.id}/authorize/resend`), 429, 'RATE_LIMITED');
    expect((await p.post('/sandbox/clock/advance', { seconds: 30 })).status).toBe(200);
    expect((await p.post(`/quotes/${q.id}/authorize/resend`)).status).toBe(204);
    const done = await p.post(`/quotes/${q.id}/authorize`, { code: '123456', endUserIpAddress: '203.0.113.42' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: q.id, status: 'PROCESSING' });
    expect(done.body.scaChallenge).toBeUndefined();
    expect(await a.balance()).toBe(100_000 - 12_345);
    expect((await p.get(`/transactions/${q.transactionId}`)).body).toMatchObject({ status: 'PENDING' });
    expect(await outgoingEvents(p, q.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING_AUTHORIZATION:PENDING_AUTHORIZATION',
      'OUTGOING_PAYMENT.PENDING:PENDING',
    ]);
    // authorized once: nothing left to authorize or re-send
    expectError(await p.post(`/quotes/${q.id}/authorize`, { code: '123456' }), 409, 'CONFLICT');
    expectError(await p.post(`/quotes/${q.id}/authorize/resend`), 409, 'CONFLICT');
  });

  it('TOTP (codes from otplib): authorize first, then execute', async () => {
    const p = await TestPlatform.create(t);
    const a = await euPayer(p);
    const q0 = `?customerId=${encodeURIComponent(a.customer.id)}`;
    const start = await p.post(`/sca/factors${q0}`, { type: 'TOTP' });
    const secret = start.body.secret as string;
    const confirmed = await p.post(`/sca/factors/confirm${q0}`, { type: 'TOTP', secret, code: await totpCode(secret) });
    expect(confirmed.status).toBe(200);

    const q = await a.quote(5_000, { scaFactor: 'TOTP' });
    expect(q.scaChallenge).toMatchObject({ factor: 'TOTP', availableFactors: ['TOTP'] });
    expectError(await p.post(`/quotes/${q.id}/authorize/resend`), 409, 'CONFLICT'); // nothing to re-send
    const authorized = await p.post(`/quotes/${q.id}/authorize`, { code: await totpCode(secret) });
    expect(authorized.status).toBe(200);
    expect(authorized.body).toMatchObject({ status: 'PENDING' });
    expect(authorized.body.scaChallenge).toBeUndefined();
    expect(await a.execute(q.id)).toMatchObject({ status: 'PROCESSING' });
    expect(await a.balance()).toBe(100_000 - 5_000);
  });

  it('immediatelyExecute waits for the authorization, which executes it', async () => {
    const p = await TestPlatform.create(t);
    const a = await euPayer(p);
    const q = await a.quote(2_000, { immediatelyExecute: true });
    expect(q.status).toBe('PENDING_AUTHORIZATION');
    expect(await a.balance()).toBe(100_000);
    expect((await p.get(`/transactions/${q.transactionId}`)).body).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
    const done = await p.post(`/quotes/${q.id}/authorize`, { code: '123456' });
    expect(done.body).toMatchObject({ status: 'PROCESSING' });
    expect(await a.balance()).toBe(100_000 - 2_000);
  });
});

describe('resend and expiry on the platform clock', () => {
  it('re-sends the code at most once per 30 seconds and three times per challenge (429 RATE_LIMITED with Retry-After)', async () => {
    const p = await TestPlatform.create(t);
    const a = await euPayer(p);
    const q = await a.quote(1_500);
    // the code was sent at creation: an immediate re-send is too soon
    const tooSoon = await p.post(`/quotes/${q.id}/authorize/resend`);
    expectError(tooSoon, 429, 'RATE_LIMITED');
    expect(Number(tooSoon.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 1; i <= 3; i += 1) {
      expect((await p.post('/sandbox/clock/advance', { seconds: 30 })).status).toBe(200);
      expect((await p.post(`/quotes/${q.id}/authorize/resend`)).status).toBe(204);
      expectError(await p.post(`/quotes/${q.id}/authorize/resend`), 429, 'RATE_LIMITED');
    }
    expect((await p.post('/sandbox/clock/advance', { seconds: 30 })).status).toBe(200);
    const capped = expectError(await p.post(`/quotes/${q.id}/authorize/resend`), 429, 'RATE_LIMITED');
    expect(capped.details).toMatchObject({ resendCount: 3, maxResends: 3 });
    // the challenge still answers the code
    expect((await p.post(`/quotes/${q.id}/authorize`, { code: '123456' })).body).toMatchObject({ status: 'PENDING' });
  });

  it('a transaction left PENDING_AUTHORIZATION expires with its quote (EXPIRED, OUTGOING_PAYMENT.EXPIRED); nothing moved', async () => {
    const p = await TestPlatform.create(t);
    const a = await euPayer(p);
    const q = await a.quote(2_500, { immediatelyExecute: true });
    expect((await p.get(`/transactions/${q.transactionId}`)).body.status).toBe('PENDING_AUTHORIZATION');
    const worker = t.app.get(RailWorker);
    const platformId = parseId('Platform', p.platformId)!;
    expect(await worker.runOnce({ platformId })).toBe(0); // not due yet
    expect((await p.post('/sandbox/clock/advance', { seconds: 301 })).status).toBe(200);
    expect(await worker.runOnce({ platformId })).toBe(1);
    expect(await worker.runOnce({ platformId })).toBe(0); // once
    expect((await p.get(`/transactions/${q.transactionId}`)).body).toMatchObject({
      status: 'EXPIRED',
      failureReason: 'QUOTE_EXPIRED',
    });
    const quote = (await p.get(`/quotes/${q.id}`)).body;
    expect(quote.status).toBe('EXPIRED');
    expect(quote.scaChallenge).toBeUndefined();
    expect(await outgoingEvents(p, q.transactionId)).toEqual([
      'OUTGOING_PAYMENT.PENDING_AUTHORIZATION:PENDING_AUTHORIZATION',
      'OUTGOING_PAYMENT.EXPIRED:EXPIRED',
    ]);
    expectError(await p.post(`/quotes/${q.id}/authorize`, { code: '123456' }), 409, 'CONFLICT');
    expect(await a.balance()).toBe(100_000);
  });
});

describe('realtime funding', () => {
  it('payment instructions are withheld until the challenge is authorized; funds cannot arrive before', async () => {
    const p = await TestPlatform.create(t);
    const a = await euPayer(p);
    const created = await p.post('/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', customerId: a.customer.id },
      destination: { destinationType: 'ACCOUNT', accountId: a.externalAccountId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 3_000,
    });
    expect(created.status).toBe(201);
    const q: Json = created.body;
    expect(q).toMatchObject({ status: 'PENDING_AUTHORIZATION', scaChallenge: { factor: 'SMS_OTP' } });
    expect(q.paymentInstructions).toBeUndefined();
    expectError(await p.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' }), 409, 'CONFLICT');
    const authorized = await p.post(`/quotes/${q.id}/authorize`, { code: '123456' });
    expect(authorized.body).toMatchObject({ status: 'PENDING' });
    expect(authorized.body.paymentInstructions).toHaveLength(1);
    expect((await p.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' })).status).toBe(200);
  });
});

describe('refused proofs', () => {
  it('a wrong code, a challenge of another quote (another amount), an expired challenge', async () => {
    const p = await TestPlatform.create(t);
    const a = await euPayer(p);
    const q = await a.quote(1_000);
    const other = await a.quote(2_000);
    const wrong = expectRefusedProof(await p.post(`/quotes/${q.id}/authorize`, { code: '000000' }), 'WRONG_PROOF');
    expect(wrong.details).toMatchObject({ failedAttempts: 1, remainingAttempts: 4 });
    // the other quote's challenge (bound to 2000 and that quote) does not authorize this one
    expectRefusedProof(
      await p.post(`/quotes/${q.id}/authorize`, { code: '123456', challengeId: other.scaChallenge.id }),
      'UNKNOWN',
    );
    expect((await p.get(`/quotes/${q.id}`)).body.status).toBe('PENDING_AUTHORIZATION');
    // five minutes later (the platform's clock) the challenge has expired
    expect((await p.post('/sandbox/clock/advance', { seconds: 301 })).status).toBe(200);
    expectRefusedProof(await p.post(`/quotes/${other.id}/authorize`, { code: '123456' }), 'EXPIRED');
    expectError(await p.post(`/quotes/${other.id}/authorize/resend`), 409, 'CONFLICT');
    expect(await a.balance()).toBe(100_000);
  });

  it('validates the body (400 INVALID_INPUT) and hides another platform’s quote (404)', async () => {
    const p = await TestPlatform.create(t);
    const a = await euPayer(p);
    const q = await a.quote(1_000);
    expectError(await p.post(`/quotes/${q.id}/authorize`, {}), 400, 'INVALID_INPUT');
    expectError(await p.post(`/quotes/${q.id}/authorize`, { code: 5, challengeId: 'x' }), 400, 'INVALID_INPUT');
    const stranger = await TestPlatform.create(t);
    expectError(await stranger.post(`/quotes/${q.id}/authorize`, { code: '123456' }), 404, 'QUOTE_NOT_FOUND');
    expectError(await stranger.post(`/quotes/${q.id}/authorize/resend`), 404, 'QUOTE_NOT_FOUND');
  });

  it('two authorizations at once: one executes, the other is refused (challenge used, or quote no longer awaiting); money moves once', async () => {
    const p = await TestPlatform.create(t);
    const a = await euPayer(p);
    const q = await a.quote(3_000, { immediatelyExecute: true });
    const results = await Promise.all([
      p.post(`/quotes/${q.id}/authorize`, { code: '123456' }),
      p.post(`/quotes/${q.id}/authorize`, { code: '123456' }),
    ]);
    // The loser either finds the challenge used (400) or, when it reads the quote after the winner
    // committed (the embedded engine serializes sessions), a quote no longer awaiting authorization (409).
    const refused = results.filter((r) => r.status !== 200);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect([
      [400, 'INVALID_INPUT', 'USED'],
      [409, 'CONFLICT', undefined],
    ]).toContainEqual([refused[0].status, refused[0].body.code, refused[0].body.details?.challenge]);
    expect(await a.balance()).toBe(100_000 - 3_000);
  });
});

describe('no challenge', () => {
  it('a trusted beneficiary skips the per-payment challenge', async () => {
    const p = await TestPlatform.create(t);
    const a = await euPayer(p);
    const start = await p.post(`/customers/external-accounts/${a.externalAccountId}/trust`);
    expect(start.status).toBe(200);
    const trusted = await p.post(`/customers/external-accounts/${a.externalAccountId}/trust/confirm`, {
      code: '123456',
    });
    expect(trusted.body).toEqual({ trusted: true });
    const q = await a.quote(4_000);
    expect(q.status).toBe('PENDING');
    expect(q.scaChallenge).toBeUndefined();
    expect(await a.execute(q.id)).toMatchObject({ status: 'PROCESSING' });
    expectError(await p.post(`/quotes/${q.id}/authorize`, { code: '123456' }), 409, 'CONFLICT');
  });

  it('outside the SCA regions nothing changes; authorize and resend are 409', async () => {
    const p = await TestPlatform.create(t);
    const a = await payer(p, 10_000, { customer: await kycApprovedCustomer(p) });
    const q: Json = await a.quote(1_000);
    expect(q.status).toBe('PENDING');
    expect(q.scaChallenge).toBeUndefined();
    expectError(await p.post(`/quotes/${q.id}/authorize`, { code: '123456' }), 409, 'CONFLICT');
    expectError(await p.post(`/quotes/${q.id}/authorize/resend`), 409, 'CONFLICT');
    const res = await p.post(
      '/quotes',
      platformQuote(a.accountId, a.externalAccountId, 500, { immediatelyExecute: true }),
    );
    expect(res.body).toMatchObject({ status: 'PROCESSING' });
  });
});
