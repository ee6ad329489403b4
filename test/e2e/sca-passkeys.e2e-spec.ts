import { exampleAccountInfo } from '../../src/external-accounts/variants/index.js';
import { individual } from '../support/customers.js';
import { kycApprovedCustomer, type Customer } from '../support/fixtures.js';
import { payer } from '../support/payments.js';
import { expectRefusedProof } from '../support/sca.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import { hasBrowser, startPasskeyBrowser, type PasskeyBrowser } from '../support/virtual-authenticator.js';

/**
 * Passkeys for real: Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain,
 * driven through playwright-core) creates and uses the credential on a small test page served on
 * localhost; the service verifies attestation and assertions with @simplewebauthn/server against
 * SCA_PASSKEY_ORIGINS. Without a browser the file is skipped on a developer's machine and fails in
 * CI (CI=true), like the console's tests.
 */
const maybe = hasBrowser ? describe : describe.skip;

let t: TestApp;
let chrome: PasskeyBrowser;
let origin: string;

beforeAll(async () => {
  if (!hasBrowser) return;
  chrome = await startPasskeyBrowser('Passkey test page');
  origin = chrome.origin;
  t = await startTestApp({ SCA_PASSKEY_ORIGINS: origin, SCA_PASSKEY_RP_ID: 'localhost' });
});
afterAll(async () => {
  if (!hasBrowser) return;
  await chrome?.close();
  await t?.close();
});

const FR = { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' };
const q = (customerId: string) => `?customerId=${encodeURIComponent(customerId)}`;
const IP = '203.0.113.7';

async function enrolled(p: TestPlatform): Promise<{ customer: Customer; credentialId: string }> {
  const customer = await kycApprovedCustomer(p, individual({ address: FR, phoneNumber: '+33612345678' }));
  const start = await p.post(`/sca/factors${q(customer.id)}`, { type: 'PASSKEY' });
  expect(start.status).toBe(200);
  expect(start.body).toMatchObject({ type: 'PASSKEY', allowedOrigins: [origin], relyingPartyId: 'localhost' });
  const credential = await chrome.createCredential(start.body.options);
  const confirm = await p.post(`/sca/factors/confirm${q(customer.id)}`, { type: 'PASSKEY', origin, credential });
  expect(confirm.status).toBe(200);
  expect(confirm.body).toMatchObject({ type: 'PASSKEY', factor: { factor: 'PASSKEY', credentialId: credential.id } });
  return { customer, credentialId: credential.id as string };
}

maybe('passkeys through a virtual authenticator', () => {
  it('enrolls one passkey (a second is PASSKEY_ALREADY_ENROLLED), logs in with it, refuses replayed and foreign-origin assertions', async () => {
    const p = await TestPlatform.create(t);
    const { customer, credentialId } = await enrolled(p);
    expectError(await p.post(`/sca/factors${q(customer.id)}`, { type: 'PASSKEY' }), 409, 'PASSKEY_ALREADY_ENROLLED');
    const listed = (await p.get(`/sca/factors${q(customer.id)}`)).body.factors;
    expect(listed).toEqual([{ factor: 'SMS_OTP' }, { factor: 'PASSKEY', credentialId, name: 'Passkey' }]);

    const start = await p.post(`/sca/login/start${q(customer.id)}`, { factor: 'PASSKEY' });
    expect(start.body).toMatchObject({ factor: 'PASSKEY', allowedOrigins: [origin], relyingPartyId: 'localhost' });
    const assertion = await chrome.getAssertion(start.body.passkeyOptions);
    const complete = (body: object) =>
      p.post(`/sca/login/complete${q(customer.id)}`, { factor: 'PASSKEY', endUserIpAddress: IP, ...body });
    // an origin outside the allowed list is a wrong answer
    expectRefusedProof(await complete({ passkeyAssertion: assertion, origin: 'https://evil.example' }), 'WRONG_PROOF');
    const ok = await complete({ passkeyAssertion: assertion, origin });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('SUCCESS');
    // the same assertion again: the challenge is spent; on a new challenge it does not verify
    expectRefusedProof(await complete({ passkeyAssertion: assertion, origin }), 'USED');
    await p.post(`/sca/login/start${q(customer.id)}`, { factor: 'PASSKEY' });
    expectRefusedProof(await complete({ passkeyAssertion: assertion, origin }), 'WRONG_PROOF');

    expect((await p.delete(`/sca/factors/${encodeURIComponent(credentialId)}${q(customer.id)}`)).status).toBe(204);
    expect((await p.get(`/sca/factors${q(customer.id)}`)).body.factors).toEqual([{ factor: 'SMS_OTP' }]);
    expectError(await p.delete(`/sca/factors/${encodeURIComponent(credentialId)}${q(customer.id)}`), 404, 'NOT_FOUND');
  });

  it('refuses an assertion whose signature counter went backwards (a cloned authenticator)', async () => {
    const p = await TestPlatform.create(t);
    const { customer, credentialId } = await enrolled(p);
    const login = async () => {
      const start = await p.post(`/sca/login/start${q(customer.id)}`, { factor: 'PASSKEY' });
      const assertion = await chrome.getAssertion(start.body.passkeyOptions);
      return p.post(`/sca/login/complete${q(customer.id)}`, {
        factor: 'PASSKEY',
        endUserIpAddress: IP,
        passkeyAssertion: assertion,
        origin,
      });
    };
    expect((await login()).status).toBe(200);
    expect((await login()).status).toBe(200);
    const { cdp, authenticatorId } = chrome;
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    const mine = credentials.find((c) => Buffer.from(c.credentialId, 'base64').toString('base64url') === credentialId)!;
    expect(mine.signCount).toBeGreaterThan(1);
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: mine.credentialId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...mine, signCount: 0 } });
    expectRefusedProof(await login(), 'WRONG_PROOF');
  });

  it('trusts a beneficiary with a passkey challenge bound to that account; its assertion cannot trust another', async () => {
    const p = await TestPlatform.create(t);
    const { customer } = await enrolled(p);
    const account = async (seed: number) =>
      (
        await p.post('/customers/external-accounts', {
          customerId: customer.id,
          currency: 'EUR',
          accountInfo: exampleAccountInfo('EUR_ACCOUNT', seed),
        })
      ).body.id as string;
    const a = await account(11);
    const b = await account(12);
    const startA = await p.post(`/customers/external-accounts/${a}/trust`);
    expect(startA.body.scaChallenge).toMatchObject({
      factor: 'PASSKEY',
      availableFactors: ['PASSKEY'],
      passkeyAllowedOrigins: [origin],
    });
    const assertionA = await chrome.getAssertion(startA.body.scaChallenge.passkeyAssertionOptions);
    await p.post(`/customers/external-accounts/${b}/trust`);
    expectRefusedProof(
      await p.post(`/customers/external-accounts/${b}/trust/confirm`, { passkeyAssertion: assertionA, origin }),
      'WRONG_PROOF',
    );
    const confirmA = await p.post(`/customers/external-accounts/${a}/trust/confirm`, {
      challengeId: startA.body.scaChallenge.id,
      passkeyAssertion: assertionA,
      origin,
    });
    expect(confirmA.body).toEqual({ trusted: true });
    expectError(await p.delete(`/customers/external-accounts/${a}`), 409, 'BENEFICIARY_TRUSTED');
  });

  it('a payment authorized with the passkey: quote → challenge bound to it → authorize → execute; its assertion authorizes no other quote', async () => {
    const p = await TestPlatform.create(t);
    const { customer } = await enrolled(p);
    const a = await payer(p, 50_000, { customer });
    const q1 = await a.quote(7_000, { scaFactor: 'PASSKEY' });
    const q2 = await a.quote(7_000, { scaFactor: 'PASSKEY' });
    for (const quote of [q1, q2]) {
      expect(quote.status).toBe('PENDING_AUTHORIZATION');
      expect(quote.scaChallenge).toMatchObject({
        factor: 'PASSKEY',
        availableFactors: ['PASSKEY'],
        purpose: 'AUTHORIZE_PAYMENT',
        passkeyAllowedOrigins: [origin],
      });
    }
    // same amount and payee, another quote: the WebAuthn challenge differs (bound to the quote)
    expect(q1.scaChallenge.passkeyAssertionOptions.challenge).not.toBe(
      q2.scaChallenge.passkeyAssertionOptions.challenge,
    );
    const assertion = await chrome.getAssertion(q1.scaChallenge.passkeyAssertionOptions);
    expectRefusedProof(
      await p.post(`/quotes/${q2.id}/authorize`, { passkeyAssertion: assertion, origin }),
      'WRONG_PROOF',
    );
    expectRefusedProof(
      await p.post(`/quotes/${q1.id}/authorize`, { passkeyAssertion: assertion, origin: 'https://evil.example' }),
      'WRONG_PROOF',
    );
    // execute before the authorization moves nothing
    expect(await a.execute(q1.id)).toMatchObject({ status: 'PENDING_AUTHORIZATION' });
    expect(await a.balance()).toBe(50_000);
    const authorized = await p.post(`/quotes/${q1.id}/authorize`, {
      passkeyAssertion: assertion,
      origin,
      endUserIpAddress: IP,
    });
    expect(authorized.status).toBe(200);
    expect(authorized.body).toMatchObject({ id: q1.id, status: 'PROCESSING' });
    expect(await a.balance()).toBe(50_000 - 7_000);
    // replayed: the quote has nothing left to authorize
    expectError(await p.post(`/quotes/${q1.id}/authorize`, { passkeyAssertion: assertion, origin }), 409, 'CONFLICT');

    // the other quote: authorize with a fresh assertion for its own challenge, then execute
    const own = await chrome.getAssertion(q2.scaChallenge.passkeyAssertionOptions);
    const second = await p.post(`/quotes/${q2.id}/authorize`, { passkeyAssertion: own, origin });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'PENDING' });
    expect(await a.execute(q2.id)).toMatchObject({ status: 'PROCESSING' });
    expect(await a.balance()).toBe(50_000 - 14_000);
  });
});
