import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { createRootLogger } from '../../src/logging/logger.js';
import { exampleAccountInfo } from '../../src/external-accounts/variants/index.js';
import { CardRevealService } from '../../src/cards/card-reveal.service.js';
import { ApiError } from '../../src/errors/api-error.js';
import { activeCard } from '../support/cards.js';
import { individual } from '../support/customers.js';
import { kycApprovedCustomer, newCustomer, type Customer } from '../support/fixtures.js';
import { recordedEvents } from '../support/events.js';
import { MessageHook } from '../support/message-hook.js';
import { msUntil, totpCode } from '../support/totp.js';
import { expectRefusedProof } from '../support/sca.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * Strong Customer Authentication (docs/sca.md): who needs it, SMS_OTP and TOTP factors (codes
 * computed with otplib here), challenges (single use, expiry on the platform's clock, five wrong
 * answers, bound to what they authorize), sessions, trusted beneficiaries, and the SCA-protected
 * card reveal with its single-use page. Passkeys: sca-passkeys.e2e-spec.ts (a real browser).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const FR_ADDRESS = { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' };
const euCustomer = (p: TestPlatform): Promise<Customer> =>
  kycApprovedCustomer(p, individual({ address: FR_ADDRESS, nationality: 'FR', phoneNumber: '+33612345678' }));
const q = (customerId: string) => `?customerId=${encodeURIComponent(customerId)}`;
const IP = '203.0.113.42';

async function eurAccount(p: TestPlatform, customerId: string, seed: number): Promise<string> {
  const res = await p.post('/customers/external-accounts', {
    customerId,
    currency: 'EUR',
    accountInfo: exampleAccountInfo('EUR_ACCOUNT', seed),
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function smsLogin(p: TestPlatform, customerId: string) {
  const start = await p.post(`/sca/login/start${q(customerId)}`, { factor: 'SMS_OTP' });
  expect(start.status).toBe(200);
  const done = await p.post(`/sca/login/complete${q(customerId)}`, {
    factor: 'SMS_OTP',
    challengeId: start.body.challengeId,
    code: '123456',
    endUserIpAddress: IP,
  });
  expect(done.status).toBe(200);
  return done.body as { status: string; sessionExpiresAt: string };
}

async function enrollTotp(p: TestPlatform, customerId: string): Promise<string> {
  const start = await p.post(`/sca/factors${q(customerId)}`, { type: 'TOTP' });
  expect(start.status).toBe(200);
  const secret = start.body.secret as string;
  const done = await p.post(`/sca/factors/confirm${q(customerId)}`, {
    type: 'TOTP',
    secret,
    code: await totpCode(secret),
  });
  expect(done.status).toBe(200);
  return secret;
}

describe('who needs SCA', () => {
  it('answers 409 CONFLICT on every SCA endpoint for a customer outside the SCA regions', async () => {
    const p = await TestPlatform.create(t);
    const us = await newCustomer(p);
    const account = await eurAccount(p, us.id, 1);
    for (const res of [
      await p.get(`/sca/factors${q(us.id)}`),
      await p.post(`/sca/factors${q(us.id)}`, { type: 'TOTP' }),
      await p.post(`/sca/factors/confirm${q(us.id)}`, { type: 'TOTP', secret: 'X', code: '123456' }),
      await p.delete(`/sca/factors/abc${q(us.id)}`),
      await p.post(`/sca/login/start${q(us.id)}`, { factor: 'SMS_OTP' }),
      await p.post(`/sca/login/complete${q(us.id)}`, { factor: 'TOTP', code: '123456', endUserIpAddress: IP }),
      await p.post(`/sca/record-event${q(us.id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' }),
      await p.post(`/sca/factors/reset${q(us.id)}`, { factor: 'SMS_OTP' }),
      await p.post(`/customers/external-accounts/${account}/trust`),
      await p.post(`/customers/external-accounts/${account}/untrust/confirm`, { code: '123456' }),
    ])
      expectError(res, 409, 'CONFLICT');
    // and nothing changes for them: the account deletes as before
    expect((await p.delete(`/customers/external-accounts/${account}`)).status).toBe(204);
  });

  it("answers 404 for an unknown or another platform's customer, 400 for a malformed id or body", async () => {
    const p = await TestPlatform.create(t);
    const other = await TestPlatform.create(t);
    const eu = await euCustomer(other);
    expectError(await p.get(`/sca/factors${q(eu.id)}`), 404, 'CUSTOMER_NOT_FOUND');
    expectError(await p.get('/sca/factors'), 400, 'INVALID_INPUT');
    const mine = await euCustomer(p);
    const bad = expectError(
      await p.post(`/sca/login/complete${q(mine.id)}`, { factor: 'FAX', challengeId: 'nope' }),
      400,
      'INVALID_INPUT',
    );
    const fields = (bad.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();
    expect(fields).toEqual(expect.arrayContaining(['challengeId', 'endUserIpAddress', 'factor']));
  });
});

describe('factors and sessions', () => {
  it('lists SMS_OTP implicitly; enrolls TOTP with otplib codes (one step of drift); refuses a wrong code', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    expect((await p.get(`/sca/factors${q(c.id)}`)).body).toEqual({ factors: [{ factor: 'SMS_OTP' }] });
    const start = await p.post(`/sca/factors${q(c.id)}`, { type: 'TOTP' });
    expect(start.body).toMatchObject({ type: 'TOTP', secretBase32Encoded: start.body.secret });
    expect(start.body.totpUri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const secret = start.body.secret as string;
    // a code of another secret is a wrong answer; a code from 30 s ago is still accepted (drift)
    const wrong = await p.post(`/sca/factors/confirm${q(c.id)}`, { type: 'TOTP', secret, code: '000000' });
    expectRefusedProof(wrong, 'WRONG_PROOF');
    const previous = await totpCode(secret, -1);
    const done = await p.post(`/sca/factors/confirm${q(c.id)}`, { type: 'TOTP', secret, code: previous });
    expect(done.status).toBe(200);
    expect(done.body.type).toBe('TOTP');
    expect(done.body.recoveryCodes).toHaveLength(8);
    const factors = (await p.get(`/sca/factors${q(c.id)}`)).body.factors.map((f: { factor: string }) => f.factor);
    expect(factors).toEqual(['SMS_OTP', 'TOTP']);
    // a foreign secret cannot confirm (the enrollment is bound to its secret)
    expectRefusedProof(
      await p.post(`/sca/factors/confirm${q(c.id)}`, { type: 'TOTP', secret: 'JBSWY3DPEHPK3PXP', code: '123456' }),
      'UNKNOWN',
    );
  });

  it('logs in with TOTP; the same code is refused the second time (replay)', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    const secret = await enrollTotp(p, c.id);
    // the enrollment's code was used; wait for a fresh step's code by computing the next one
    const next = await totpCode(secret, 1);
    expect((await p.post(`/sca/login/start${q(c.id)}`, { factor: 'TOTP' })).body).toEqual({ factor: 'TOTP' });
    const login = await p.post(`/sca/login/complete${q(c.id)}`, { factor: 'TOTP', code: next, endUserIpAddress: IP });
    expect(login.status).toBe(200);
    expect(login.body.status).toBe('SUCCESS');
    expect(msUntil(login.body.sessionExpiresAt)).toBeGreaterThan(0);
    await p.post(`/sca/login/start${q(c.id)}`, { factor: 'TOTP' });
    const replay = await p.post(`/sca/login/complete${q(c.id)}`, { factor: 'TOTP', code: next, endUserIpAddress: IP });
    expectRefusedProof(replay, 'WRONG_PROOF');
  });

  it('SMS_OTP login: 123456 in sandbox; single use; five wrong answers lock; expiry on the platform clock', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    const start = await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' });
    expect(start.body).toMatchObject({ factor: 'SMS_OTP', challengeId: expect.stringMatching(/^ScaChallenge:/) });
    const complete = (challengeId: string, code: string) =>
      p.post(`/sca/login/complete${q(c.id)}`, { factor: 'SMS_OTP', challengeId, code, endUserIpAddress: IP });
    expect((await complete(start.body.challengeId, '123456')).status).toBe(200);
    expectRefusedProof(await complete(start.body.challengeId, '123456'), 'USED');

    const locked = (await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' })).body.challengeId as string;
    for (let i = 1; i <= 4; i++) {
      const res = expectRefusedProof(await complete(locked, '999999'), 'WRONG_PROOF');
      expect(res.details).toMatchObject({ failedAttempts: i, remainingAttempts: 5 - i });
    }
    expectRefusedProof(await complete(locked, '999999'), 'LOCKED');
    expectRefusedProof(await complete(locked, '123456'), 'LOCKED');

    const expiring = (await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' })).body.challengeId as string;
    expect((await p.post('/sandbox/clock/advance', { seconds: 301 })).status).toBe(200);
    expectRefusedProof(await complete(expiring, '123456'), 'EXPIRED');

    // a challenge of another customer is foreign here
    const other = await euCustomer(p);
    const theirs = (await p.post(`/sca/login/start${q(other.id)}`, { factor: 'SMS_OTP' })).body.challengeId as string;
    expectRefusedProof(await complete(theirs, '123456'), 'UNKNOWN');
    // an unenrolled factor is refused at the start
    expectError(await p.post(`/sca/login/start${q(c.id)}`, { factor: 'PASSKEY' }), 400, 'INVALID_INPUT');
  });

  it('SMS_OTP outside the sandbox: a random code goes out through MESSAGE_HOOK_URL; a refused hand-off is a 503 and no challenge', async () => {
    const hook = await MessageHook.start();
    const live = await startTestApp({ SANDBOX: 'false', MESSAGE_HOOK_URL: hook.url });
    try {
      // the customer is made through the sandbox app (same database): the live one has no sandbox routes
      const sandboxSide = await TestPlatform.create(t);
      const c = await euCustomer(sandboxSide);
      const p = sandboxSide.on(live);
      const start = await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' });
      expect(start.status).toBe(200);
      const message = await hook.next({ channel: 'SMS', to: '+33612345678' });
      expect(message).toEqual({
        channel: 'SMS',
        to: '+33612345678',
        purpose: 'LOGIN',
        code: expect.stringMatching(/^\d{6}$/),
      });
      const complete = (challengeId: string, code: string) =>
        p.post(`/sca/login/complete${q(c.id)}`, { factor: 'SMS_OTP', challengeId, code, endUserIpAddress: IP });
      if (message.code !== '123456')
        expectRefusedProof(await complete(start.body.challengeId, '123456'), 'WRONG_PROOF');
      expect((await complete(start.body.challengeId, message.code)).status).toBe(200);

      hook.refuse(1);
      const refused = expectError(
        await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' }),
        503,
        'SERVICE_UNAVAILABLE',
      );
      expect(JSON.stringify(refused)).not.toContain('127.0.0.1');
      const count = await live.app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM sca_challenges WHERE customer_id = $1`, [c.id.split(':')[1]]);
      expect(count[0].n).toBe(1);
    } finally {
      await live.close();
      await hook.stop();
    }
  });

  it('record-event: the lockout ladder, 423 ACCOUNT_LOCKED on login, a password reset clears it and revokes sessions', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    for (let i = 0; i < 4; i++) await p.post(`/sca/record-event${q(c.id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    const last = await p.post(`/sca/record-event${q(c.id)}`, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    expect(last.body).toMatchObject({ eventType: 'FAILED_LOGIN_ATTEMPT', failedAttempts: 5, suspended: false });
    expect(last.body.lockedUntil).toEqual(expect.any(String));
    const start = await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' });
    const refused = await p.post(`/sca/login/complete${q(c.id)}`, {
      factor: 'SMS_OTP',
      challengeId: start.body.challengeId,
      code: '123456',
      endUserIpAddress: IP,
    });
    expect(expectError(refused, 423, 'ACCOUNT_LOCKED').details).toMatchObject({ failedAttempts: 5 });
    const reset = await p.post(`/sca/record-event${q(c.id)}`, { eventType: 'RESET_PASSWORD_COMPLETED' });
    expect(reset.body).toEqual({
      eventType: 'RESET_PASSWORD_COMPLETED',
      suspended: false,
      lockedUntil: null,
      failedAttempts: 0,
    });
    await smsLogin(p, c.id);
    const { card } = await activeCard(p, { customer: c });
    expect((await p.post(`/cards/${card.id}/reveal`)).status).toBe(200);
    await p.post(`/sca/record-event${q(c.id)}`, { eventType: 'RESET_PASSWORD_COMPLETED' });
    expectError(await p.post(`/cards/${card.id}/reveal`), 409, 'SCA_SESSION_REQUIRED');
  });

  it('factor reset: start, status, complete clears the TOTP factor', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    await enrollTotp(p, c.id);
    const start = await p.post(`/sca/factors/reset${q(c.id)}`, { factor: 'TOTP' });
    expect(start.status).toBe(201);
    const status = await p.get(`/sca/factors/reset/${start.body.resetId}${q(c.id)}`);
    expect(status.body).toMatchObject({ status: 'LIVENESS_PASSED', factor: 'TOTP', completedAt: null });
    expect((await p.post(`/sca/factors/reset/${start.body.resetId}/complete${q(c.id)}`)).status).toBe(204);
    expect((await p.get(`/sca/factors/reset/${start.body.resetId}${q(c.id)}`)).body.status).toBe('COMPLETED');
    expectError(await p.post(`/sca/factors/reset/${start.body.resetId}/complete${q(c.id)}`), 400, 'INVALID_INPUT');
    expect((await p.get(`/sca/factors${q(c.id)}`)).body.factors).toEqual([{ factor: 'SMS_OTP' }]);
    expectError(await p.get(`/sca/factors/reset/nope${q(c.id)}`), 404, 'NOT_FOUND');
  });
});

describe('trusted beneficiaries', () => {
  it('trust → confirm; delete while trusted is BENEFICIARY_TRUSTED; untrust → confirm; then delete', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    const account = await eurAccount(p, c.id, 2);
    const start = await p.post(`/customers/external-accounts/${account}/trust`);
    expect(start.status).toBe(200);
    expect(start.body.scaChallenge).toMatchObject({
      id: expect.stringMatching(/^ScaChallenge:/),
      factor: 'SMS_OTP',
      availableFactors: ['SMS_OTP'],
      purpose: 'TRUST_BENEFICIARY',
    });
    const confirm = await p.post(`/customers/external-accounts/${account}/trust/confirm`, {
      challengeId: start.body.scaChallenge.id,
      code: '123456',
    });
    expect(confirm.body).toEqual({ trusted: true });
    expectError(await p.delete(`/customers/external-accounts/${account}`), 409, 'BENEFICIARY_TRUSTED');
    expectError(await p.post(`/customers/external-accounts/${account}/trust`), 409, 'CONFLICT');

    const untrust = await p.post(`/customers/external-accounts/${account}/untrust`);
    expect(untrust.body.scaChallenge.purpose).toBe('UNTRUST_BENEFICIARY');
    // without challengeId the latest challenge for this account and direction is used
    expect((await p.post(`/customers/external-accounts/${account}/untrust/confirm`, { code: '123456' })).body).toEqual({
      trusted: false,
    });
    expect((await p.delete(`/customers/external-accounts/${account}`)).status).toBe(204);
  });

  it('dynamic linking: a challenge for one account cannot trust another, nor untrust the same one', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    const a = await eurAccount(p, c.id, 3);
    const b = await eurAccount(p, c.id, 4);
    const forA = (await p.post(`/customers/external-accounts/${a}/trust`)).body.scaChallenge.id as string;
    expectRefusedProof(
      await p.post(`/customers/external-accounts/${b}/trust/confirm`, { challengeId: forA, code: '123456' }),
      'UNKNOWN',
    );
    expectRefusedProof(
      await p.post(`/customers/external-accounts/${a}/untrust/confirm`, { challengeId: forA, code: '123456' }),
      'UNKNOWN',
    );
    expectRefusedProof(await p.post(`/customers/external-accounts/${b}/trust/confirm`, { code: '123456' }), 'UNKNOWN');
    expectError(await p.post(`/customers/external-accounts/${a}/trust/confirm`, {}), 400, 'INVALID_INPUT');
    expect(
      (await p.post(`/customers/external-accounts/${a}/trust/confirm`, { challengeId: forA, code: '123456' })).body,
    ).toEqual({
      trusted: true,
    });
    expect((await p.get(`/customers/external-accounts/${b}`)).status).toBe(200);
    expect((await p.delete(`/customers/external-accounts/${b}`)).status).toBe(204);
  });

  it('the audit trail: a wrong proof is one failure (no success), a right one one success', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    const account = await eurAccount(p, c.id, 23);
    expect((await p.post(`/customers/external-accounts/${account}/trust`)).status).toBe(200);
    expectRefusedProof(
      await p.post(`/customers/external-accounts/${account}/trust/confirm`, { code: '000000' }),
      'WRONG_PROOF',
    );
    expect((await p.post(`/customers/external-accounts/${account}/trust/confirm`, { code: '123456' })).status).toBe(
      200,
    );
    const trail = await p.get(`/audit-events?action=confirmBeneficiaryTrust&resourceId=${encodeURIComponent(account)}`);
    expect(trail.status).toBe(200);
    const outcomes = (trail.body.data as Array<{ outcome: { status: number; code: string | null } }>)
      .map((e) => `${e.outcome.status}:${e.outcome.code}`)
      .sort();
    expect(outcomes).toEqual(['200:null', '400:INVALID_INPUT']);
  });

  it("another platform's account is 404", async () => {
    const p = await TestPlatform.create(t);
    const other = await TestPlatform.create(t);
    const c = await euCustomer(other);
    const account = await eurAccount(other, c.id, 5);
    expectError(await p.post(`/customers/external-accounts/${account}/trust`), 404, 'ACCOUNT_NOT_FOUND');
  });
});

describe('POST /cards/{id}/reveal', () => {
  const pageOf = (url: string) => {
    const u = new URL(url);
    return t.http.get(`${u.pathname}${u.search}`);
  };

  it('an SCA cardholder needs a live session; the URL works once, not for another card, never cached', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    const { card } = await activeCard(p, { customer: c });
    const { card: other } = await activeCard(p, { customer: c });
    expectError(await p.post(`/cards/${card.id}/reveal`), 409, 'SCA_SESSION_REQUIRED');
    await smsLogin(p, c.id);
    const reveal = await p.post(`/cards/${card.id}/reveal`);
    expect(reveal.status).toBe(200);
    expect(Object.keys(reveal.body).sort()).toEqual(['expiresAt', 'panEmbedUrl']);
    expect(msUntil(reveal.body.expiresAt)).toBeLessThanOrEqual(5 * 60_000);
    const url = reveal.body.panEmbedUrl as string;
    // the same token on another card's page is refused (and does not spend it)
    expect((await pageOf(url.replace(card.id, other.id))).status).toBe(404);
    const page = await pageOf(url);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toContain('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const pan = /<div id="pan">([^]*?)<\/div>/.exec(page.text)![1].replace(/<[^>]+>| /g, '');
    expect(pan).toMatch(/^4\d{15}$/);
    expect(pan.endsWith(card.last4 as string)).toBe(true);
    expect((await pageOf(url)).status).toBe(404);
    // the card resource never carries it
    expect(JSON.stringify((await p.get(`/cards/${card.id}`)).body)).not.toContain(pan);
    // the session expires on the platform's clock
    expect((await p.post('/sandbox/clock/advance', { seconds: 16 * 60 })).status).toBe(200);
    expectError(await p.post(`/cards/${card.id}/reveal`), 409, 'SCA_SESSION_REQUIRED');
  });

  it('a non-SCA cardholder: the platform credential suffices; a URL past its expiry is refused; audited with its actor', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    const first = await p.post(`/cards/${card.id}/reveal`);
    expect(first.status).toBe(200);
    const second = await p.post(`/cards/${card.id}/reveal`);
    expect((await p.post('/sandbox/clock/advance', { seconds: 121 })).status).toBe(200);
    expect((await pageOf(second.body.panEmbedUrl)).status).toBe(404);
    const audit = await p.get('/audit-events?action=revealCard');
    expect(audit.status).toBe(200);
    const events = audit.body.data as Array<{ action: string; actor: unknown; resourceIds: string[] }>;
    expect(events.filter((e) => e.action === 'revealCard')).toHaveLength(2);
    expect(JSON.stringify(events)).toContain('Token:');
    expect(JSON.stringify(events)).toContain(card.id);
    expectError(await p.post(`/cards/Card:00000000-0000-7000-8000-000000000000/reveal`), 404, 'NOT_FOUND');
  });

  it("403 FORBIDDEN without an attributable actor (no token, no agent: the reference's impersonated session); nothing minted", async () => {
    // Over HTTP every platform credential is a token (its actor), so the app's reveal is called as
    // a session with no token behind it would call it: on the real app and database.
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    const platformId = p.platformId.replace(/^Platform:/, '');
    const cardId = card.id.replace(/^Card:/, '');
    const reveals = t.app.get(CardRevealService);
    const db = t.app.get(DataSource);
    const minted = async () =>
      (
        await db.query<Array<{ n: number }>>('SELECT count(*)::int AS n FROM card_reveals WHERE card_id = $1', [cardId])
      )[0].n;
    for (const principal of [undefined, { kind: 'platform', platformId }]) {
      const refused = reveals.reveal(principal, platformId, cardId, 'http://localhost');
      await expect(refused).rejects.toBeInstanceOf(ApiError);
      await expect(refused).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    }
    expect(await minted()).toBe(0);
    // with the platform's token (an actor) the same card reveals
    expect((await p.post(`/cards/${card.id}/reveal`)).status).toBe(200);
    expect(await minted()).toBe(1);
  });

  // 503 SERVICE_UNAVAILABLE (was 501 NOT_IMPLEMENTED): every port answers its own
  // SERVICE_UNAVAILABLE 503 with adapter `none` (docs/production.md); the route is implemented.
  it('503 SERVICE_UNAVAILABLE when no card issuer is configured', async () => {
    const none = await startTestApp({ CARD_ISSUER: 'none' });
    try {
      const p = await TestPlatform.create(t);
      const { card } = await activeCard(p);
      expectError(await p.on(none).post(`/cards/${card.id}/reveal`), 503, 'SERVICE_UNAVAILABLE');
    } finally {
      await none.close();
    }
  });
});

describe('races', () => {
  it('two confirms of one challenge at once: exactly one succeeds, the other is refused as USED', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    const account = await eurAccount(p, c.id, 21);
    const { id } = (await p.post(`/customers/external-accounts/${account}/trust`)).body.scaChallenge;
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        p.post(`/customers/external-accounts/${account}/trust/confirm`, { challengeId: id, code: '123456' }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    for (const r of answers.filter((a) => a.status === 400)) expectRefusedProof(r, 'USED');
  });

  it('ten wrong answers at once: exactly four WRONG_PROOF, then locked (no lost update of the count)', async () => {
    const p = await TestPlatform.create(t);
    const c = await euCustomer(p);
    const { challengeId } = (await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' })).body;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        p.post(`/sca/login/complete${q(c.id)}`, {
          factor: 'SMS_OTP',
          challengeId,
          code: '000000',
          endUserIpAddress: IP,
        }),
      ),
    );
    const codes = answers.map((r) => {
      const body = r.body as { code: string; details?: { challenge?: string } };
      return `${body.code}:${body.details?.challenge}`;
    });
    expect(codes.filter((x) => x === 'INVALID_INPUT:WRONG_PROOF')).toHaveLength(4);
    expect(codes.filter((x) => x === 'INVALID_INPUT:LOCKED')).toHaveLength(6);
  });
});

describe('no PAN or CVV anywhere but the reveal page', () => {
  it('scans the log lines, the events and the audit records of a run of reveals', async () => {
    const text: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        text.push(chunk.toString('utf8'));
        done();
      },
    });
    const logged = await startTestApp({ LOG_LEVEL: 'debug' }, { logger: createRootLogger('debug', sink) });
    try {
      const p = (await TestPlatform.create(t)).on(logged);
      const c = await euCustomer(p);
      await smsLogin(p, c.id);
      const { card } = await activeCard(p, { customer: c });
      const secrets: string[] = [];
      for (let i = 0; i < 2; i++) {
        const url = new URL((await p.post(`/cards/${card.id}/reveal`)).body.panEmbedUrl as string);
        secrets.push(url.searchParams.get('t')!);
        const page = await logged.http.get(`${url.pathname}${url.search}`);
        expect(page.status).toBe(200);
        secrets.push(/<div id="pan">([^]*?)<\/div>/.exec(page.text)![1].replace(/<[^>]+>| /g, ''));
        secrets.push(/<div id="cvv">(\d{3})<\/div>/.exec(page.text)![1]);
        expect((await logged.http.get(`${url.pathname}${url.search}`)).status).toBe(404);
      }
      const [pan, cvv] = [secrets[1], secrets[2]];
      expect(pan).toMatch(/^\d{16}$/);
      const logs = text.join('');
      const events = JSON.stringify(await recordedEvents(p));
      const audit = JSON.stringify(
        await t.app
          .get(DataSource)
          .query('SELECT * FROM audit_events WHERE platform_id = $1', [p.platformId.replace(/^Platform:/, '')]),
      );
      expect(audit).toContain('revealCard');
      expect(logs).toContain('t=[redacted]');
      expect(logs).toContain('code sent (log-only sender)');
      for (const haystack of [logs, events, audit]) {
        expect(haystack).not.toContain(pan);
        expect(haystack).not.toMatch(new RegExp(`[^0-9]${pan.slice(0, 6)}[0-9]{6}`));
        expect(haystack.toLowerCase()).not.toContain('cvv');
        for (const token of secrets.filter((_, i) => i % 3 === 0)) expect(haystack).not.toContain(token.split('.')[1]);
      }
      // the log-only SMS sender names the purpose and a masked number, never the code
      const smsLine = text.find((l) => l.includes('code sent (log-only sender)'))!;
      expect(smsLine).not.toContain('123456');
      expect(smsLine).toContain('**78');
      expect(cvv).toMatch(/^\d{3}$/);
    } finally {
      await logged.close();
    }
  });
});
