import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import { newWalletKey, send, signedRetry, walletWithSession } from '../support/wallet-client.js';

/**
 * PASSKEY credentials of embedded wallets, for real: Chromium's virtual authenticator (as in
 * sca-passkeys.e2e-spec.ts) registers a passkey on a localhost page and signs the service's
 * challenge; the service verifies attestation and assertion with @simplewebauthn/server against
 * SCA_PASSKEY_ORIGINS. Adding it to a wallet that has a credential is the signed retry; a session
 * opens on the key given to the challenge. Without a browser: skipped locally, failing in CI.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser && process.env.CI) throw new Error(`No Chromium at ${CHROMIUM}: the passkey tests need it`);
const maybe = hasBrowser ? describe : describe.skip;

let t: TestApp;
let pageServer: Server;
let origin: string;
let browser: Browser;
let page: Page;
let cdp: CDPSession;

beforeAll(async () => {
  if (!hasBrowser) return;
  pageServer = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><html><head><title>Wallet passkey page</title></head><body></body></html>');
  });
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  origin = `http://localhost:${(pageServer.address() as AddressInfo).port}`;
  t = await startTestApp({ SCA_PASSKEY_ORIGINS: origin, SCA_PASSKEY_RP_ID: 'localhost' });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
    headless: true,
  });
  const context = await browser.newContext();
  page = await context.newPage();
  await page.goto(`${origin}/`);
  cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
});
afterAll(async () => {
  if (!hasBrowser) return;
  await browser?.close();
  await t?.close();
  await new Promise((resolve) => pageServer.close(resolve));
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
  const credential = await page.evaluate<Record<string, unknown>>(`(async () => {
    const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(${JSON.stringify(options)});
    return (await navigator.credentials.create({ publicKey })).toJSON();
  })()`);
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
  const assertion = await page.evaluate<Record<string, unknown>>(`(async () => {
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(${JSON.stringify(options)});
    return (await navigator.credentials.get({ publicKey })).toJSON();
  })()`);
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
