import { randomBytes } from 'node:crypto';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import { hasBrowser, startPasskeyBrowser, type PasskeyBrowser } from '../support/virtual-authenticator.js';
import { newWalletKey, send, signedRetry, walletWithSession } from '../support/wallet-client.js';

/**
 * PASSKEY credentials of embedded wallets, for real: Chromium's virtual authenticator (as in
 * sca-passkeys.e2e-spec.ts) registers a passkey on a localhost page and signs the service's
 * challenge; the service verifies attestation and assertion with @simplewebauthn/server against
 * SCA_PASSKEY_ORIGINS. Adding it to a wallet that has a credential is the signed retry; a session
 * opens on the key given to the challenge. Without a browser: skipped locally, failing in CI.
 */
const maybe = hasBrowser ? describe : describe.skip;

let t: TestApp;
let chrome: PasskeyBrowser;

beforeAll(async () => {
  if (!hasBrowser) return;
  chrome = await startPasskeyBrowser('Wallet passkey page');
  t = await startTestApp({ SCA_PASSKEY_ORIGINS: chrome.origin, SCA_PASSKEY_RP_ID: 'localhost' });
});
afterAll(async () => {
  if (!hasBrowser) return;
  await chrome?.close();
  await t?.close();
});

/** navigator.credentials.create with options the platform's backend would issue (its own challenge). */
async function register(challenge: string): Promise<Record<string, unknown>> {
  const options = {
    challenge,
    rp: { id: 'localhost', name: 'Acme Wallet' },
    user: { id: randomBytes(16).toString('base64url'), name: 'jane', displayName: 'Jane' },
    pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    attestation: 'none',
  };
  const credential = await chrome.createCredential(options);
  const response = credential.response as Record<string, unknown>;
  return {
    credentialId: credential.id,
    clientDataJson: response.clientDataJSON,
    attestationObject: response.attestationObject,
    transports: response.transports,
  };
}

/** navigator.credentials.get over the service's challenge (UTF-8 of its hex, as the reference says). */
async function assert(credentialId: string, challengeHex: string): Promise<Record<string, unknown>> {
  const options = {
    challenge: Buffer.from(challengeHex, 'utf8').toString('base64url'),
    rpId: 'localhost',
    allowCredentials: [{ id: credentialId, type: 'public-key' }],
    userVerification: 'preferred',
  };
  const assertion = await chrome.getAssertion(options);
  const response = assertion.response as Record<string, string>;
  return {
    credentialId: assertion.id,
    clientDataJson: response.clientDataJSON,
    authenticatorData: response.authenticatorData,
    signature: response.signature,
    ...(response.userHandle ? { userHandle: response.userHandle } : {}),
  };
}

maybe('PASSKEY credentials (Chromium virtual authenticator)', () => {
  it('added by the signed retry, challenged with the client key, verified into a session on that key', async () => {
    const p = await TestPlatform.create(t);
    const w = await walletWithSession(p);
    const challenge = randomBytes(32).toString('base64url');
    const attestation = await register(challenge);
    const body = { type: 'PASSKEY', accountId: w.accountId, nickname: 'iPhone Face-ID', challenge, attestation };

    const first = await p.post('/auth/credentials', body);
    expect(first.status).toBe(202);
    expect(JSON.parse(first.body.payloadToSign).type).toBe('ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2');
    const created = await signedRetry(p, 'post', '/auth/credentials', body, w.session.key, first);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'PASSKEY',
      nickname: 'iPhone Face-ID',
      credentialId: attestation.credentialId,
    });
    // the same WebAuthn credential again
    expectError(await p.post('/auth/credentials', body), 400, 'PASSKEY_CREDENTIAL_ALREADY_EXISTS');
    // an attestation over another challenge
    expect(
      invalidFields(await p.post('/auth/credentials', { ...body, challenge: randomBytes(32).toString('base64url') })),
    ).toEqual(['attestation']);

    const key = newWalletKey();
    const path = `/auth/credentials/${created.body.id}`;
    expect(invalidFields(await p.post(`${path}/challenge`, {}))).toEqual(['clientPublicKey']);
    const issued = await p.post(`${path}/challenge`, { clientPublicKey: key.publicKey });
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ type: 'PASSKEY', credentialId: attestation.credentialId });
    expect(issued.body.challenge).toMatch(/^[0-9a-f]{64}$/);
    const assertion = await assert(attestation.credentialId as string, issued.body.challenge);
    const verify = { type: 'PASSKEY', assertion };
    expectError(await p.post(`${path}/verify`, verify), 401, 'REQUEST_ID_MISSING');
    const other = await p.post(`${path}/challenge`, { clientPublicKey: newWalletKey().publicKey });
    // the assertion is over the first challenge, not the other one
    expectError(
      await send(p, 'post', `${path}/verify`, verify, { 'Request-Id': other.body.requestId }),
      401,
      'UNAUTHORIZED',
    );
    const session = await send(p, 'post', `${path}/verify`, verify, { 'Request-Id': issued.body.requestId });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ type: 'PASSKEY', accountId: w.accountId, nickname: 'iPhone Face-ID' });
    // single use
    expectError(
      await send(p, 'post', `${path}/verify`, verify, { 'Request-Id': issued.body.requestId }),
      401,
      'UNAUTHORIZED',
    );
    // the passkey session's key signs: it revokes the OTP session
    const revoke = await send(p, 'delete', `/auth/sessions/${w.session.id}`, undefined);
    const done = await signedRetry(p, 'delete', `/auth/sessions/${w.session.id}`, undefined, key, revoke);
    expect(done.status).toBe(204);
  });
});
