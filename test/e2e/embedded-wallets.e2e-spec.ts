import { verifyOtpVerificationToken } from '@turnkey/crypto';
import { individual } from '../support/customers.js';
import { newCustomer } from '../support/fixtures.js';
import { MessageHook } from '../support/message-hook.js';
import {
  expectError,
  invalidFields,
  startLoggedTestApp,
  startTestApp,
  TestApp,
  TestPlatform,
} from '../support/test-app.js';
import {
  enclaveKey,
  newWalletKey,
  otpLogin,
  sealOtp,
  send,
  signedHeaders,
  signedRetry,
  stamp,
  type WalletKey,
} from '../support/wallet-client.js';
import { wantOwnEvents } from '../support/own-events.js';

/**
 * Embedded wallets (docs/embedded-wallets.md): provisioning with `embeddedWalletConfig`, the
 * EMAIL_OTP login over real HPKE (codes through the message hook, the sandbox's 000000), sessions
 * bound to client-held keys, and the signed retry (`Service-Wallet-Signature` / `Request-Id`) with
 * each of its five 401s, replays and refusals that change nothing. The client is the one a front
 * end would build (test/support/wallet-client.ts: @turnkey/crypto + @turnkey/api-key-stamper).
 */
let t: TestApp;
let hook: MessageHook;
beforeAll(async () => {
  hook = await MessageHook.start();
  t = await startTestApp({ MESSAGE_HOOK_URL: hook.url });
});
afterAll(async () => {
  await t.close();
  await hook.stop();
});

const WALLET_CONFIG = { appName: 'Acme Wallet', otpLength: 6, expirationSeconds: 300 };
let seq = 0;
const email = () => `wallet-${process.pid}-${++seq}-${Math.random().toString(36).slice(2)}@example.com`;

async function walletPlatform(): Promise<TestPlatform> {
  const p = await TestPlatform.create(t);
  const res = await p.patch('/config', { embeddedWalletConfig: WALLET_CONFIG });
  expect(res.status).toBe(200);
  return p;
}

interface Wallet {
  customerId: string;
  accountId: string;
  credentialId: string;
  email: string;
}

async function walletOf(
  p: TestPlatform,
  customerId: string,
): Promise<{ accountId: string; credentials: Array<Record<string, unknown>> }> {
  const accounts = await p.get(`/customers/internal-accounts?customerId=${customerId}&type=EMBEDDED_WALLET`);
  expect(accounts.status).toBe(200);
  expect(accounts.body.data).toHaveLength(1);
  const accountId = accounts.body.data[0].id as string;
  const creds = await p.get(`/auth/credentials?accountId=${accountId}`);
  expect(creds.status).toBe(200);
  return { accountId, credentials: creds.body.data };
}

async function newWallet(p: TestPlatform): Promise<Wallet> {
  const address = email();
  const customer = await newCustomer(p, individual({ email: address }));
  const { accountId, credentials } = await walletOf(p, customer.id);
  expect(credentials).toHaveLength(1);
  return { customerId: customer.id, accountId, credentialId: credentials[0].id as string, email: address };
}

const magic = () => '000000';
const sessionsOf = async (p: TestPlatform, accountId: string) =>
  ((await p.get(`/auth/sessions?accountId=${accountId}`)).body as { data: Array<{ id: string }> }).data.map(
    (s) => s.id,
  );

describe('provisioning', () => {
  it('PATCH /config takes embeddedWalletConfig (merged), GET /config shows it, bad members are all reported', async () => {
    const p = await TestPlatform.create(t);
    expect((await p.get('/config')).body.embeddedWalletConfig).toBeUndefined();
    expect(
      invalidFields(
        await p.patch('/config', {
          embeddedWalletConfig: { otpLength: 3, expirationSeconds: 0, logoUrl: 'x', alphanumeric: 'yes' },
        }),
      ),
    ).toEqual([
      'embeddedWalletConfig.alphanumeric',
      'embeddedWalletConfig.expirationSeconds',
      'embeddedWalletConfig.logoUrl',
      'embeddedWalletConfig.otpLength',
    ]);
    expect((await p.patch('/config', { embeddedWalletConfig: WALLET_CONFIG })).body.embeddedWalletConfig).toEqual(
      WALLET_CONFIG,
    );
    const merged = await p.patch('/config', { embeddedWalletConfig: { alphanumeric: true } });
    expect(merged.body.embeddedWalletConfig).toEqual({ ...WALLET_CONFIG, alphanumeric: true });
    expect((await p.get('/config')).body.embeddedWalletConfig).toEqual({ ...WALLET_CONFIG, alphanumeric: true });
  });

  it('a customer gets an EMBEDDED_WALLET account with an EMAIL_OTP credential: at creation, or when the platform turns wallets on', async () => {
    const p = await TestPlatform.create(t);
    const before = await newCustomer(p, individual({ email: email() }));
    const none = await p.get(`/customers/internal-accounts?customerId=${before.id}&type=EMBEDDED_WALLET`);
    expect(none.body.data).toEqual([]);
    expect((await p.patch('/config', { embeddedWalletConfig: {} })).status).toBe(200);
    const old = await walletOf(p, before.id);
    expect(old.credentials).toEqual([
      expect.objectContaining({ accountId: old.accountId, type: 'EMAIL_OTP', nickname: before.email }),
    ]);
    const after = await newWallet(p);
    const account = await p.get(`/customers/internal-accounts?customerId=${after.customerId}&type=EMBEDDED_WALLET`);
    expect(account.body.data[0]).toMatchObject({
      type: 'EMBEDDED_WALLET',
      status: 'ACTIVE',
      customerId: after.customerId,
    });
    // The fiat account is still the customer's only INTERNAL_FIAT one.
    const fiat = await p.get(`/customers/internal-accounts?customerId=${after.customerId}&type=INTERNAL_FIAT`);
    expect(fiat.body.data).toHaveLength(1);
  });

  it('lists are empty for an account that is not a wallet of the platform; unknown credentials are 404', async () => {
    const p = await walletPlatform();
    const other = await walletPlatform();
    const w = await newWallet(p);
    expect((await other.get(`/auth/credentials?accountId=${w.accountId}`)).body).toEqual({ data: [] });
    expect((await other.get(`/auth/sessions?accountId=${w.accountId}`)).body).toEqual({ data: [] });
    expectError(await other.post(`/auth/credentials/${w.credentialId}/challenge`, {}), 404, 'AUTH_METHOD_NOT_FOUND');
    expect(invalidFields(await p.get('/auth/credentials?accountId=nope'))).toEqual(['accountId']);
  });
});

describe('the enclave key', () => {
  it('is published without credentials and signs every target bundle', async () => {
    const res = await t.http.get('/2025-10-13/auth/enclave-key');
    expect(res.status).toBe(200);
    expect(res.body.enclaveQuorumPublic).toMatch(/^04[0-9a-f]{128}$/);
    const p = await walletPlatform();
    const w = await newWallet(p);
    const challenge = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    const bundle = JSON.parse(challenge.body.otpEncryptionTargetBundle as string);
    expect(bundle).toMatchObject({ version: 'v1.0.0', enclaveQuorumPublic: res.body.enclaveQuorumPublic });
    // The library refuses a bundle under any other pinned key (its production default included).
    await expect(sealOtp(p, '000000', challenge.body.otpEncryptionTargetBundle, newWalletKey())).resolves.toContain(
      'encappedPublic',
    );
    const { encryptOtpCodeToBundle } = await import('@turnkey/crypto');
    await expect(
      encryptOtpCodeToBundle('000000', challenge.body.otpEncryptionTargetBundle, newWalletKey().publicKey),
    ).rejects.toThrow();
  });
});

describe('EMAIL_OTP login', () => {
  it('a real code through the email sender, real HPKE, a verification token bound to the key, then a session', async () => {
    const p = await walletPlatform();
    const w = await newWallet(p);
    const key = newWalletKey();
    const session = await otpLogin(
      p,
      w.credentialId,
      async () => (await hook.next({ channel: 'EMAIL', to: w.email.toLowerCase() })).code,
      key,
    );
    expect(session).toMatchObject({ accountId: w.accountId, type: 'EMAIL_OTP', nickname: w.email });
    expect(session.id).toMatch(/^Session:/);
    expect(Object.keys(session).sort()).toEqual([
      'accountId',
      'createdAt',
      'expiresAt',
      'id',
      'key',
      'nickname',
      'type',
      'updatedAt',
    ]);
    expect(await sessionsOf(p, w.accountId)).toEqual([session.id]);
  });

  it('the sandbox magic code works (the real code still goes out, tagged WALLET_OTP)', async () => {
    const p = await walletPlatform();
    const w = await newWallet(p);
    const session = await otpLogin(p, w.credentialId, magic);
    expect(session.type).toBe('EMAIL_OTP');
    const message = await hook.next({ channel: 'EMAIL', to: w.email.toLowerCase() });
    expect(message.purpose).toBe('WALLET_OTP');
    expect(message.code).toMatch(/^\d{6}$/);
  });

  it('wrong codes are counted (401), the fifth spends the code (429); nothing opens a session', async () => {
    const p = await walletPlatform();
    const w = await newWallet(p);
    const challenge = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    const sent = await hook.next({ channel: 'EMAIL', to: w.email.toLowerCase() });
    const wrong = sent.code === '111111' ? '222222' : '111111';
    const bundle = challenge.body.otpEncryptionTargetBundle as string;
    for (let i = 1; i <= 4; i++) {
      const res = await p.post(`/auth/credentials/${w.credentialId}/verify`, {
        type: 'EMAIL_OTP',
        encryptedOtpBundle: await sealOtp(p, wrong, bundle, newWalletKey()),
      });
      expect(expectError(res, 401, 'UNAUTHORIZED').details).toEqual({ remainingAttempts: 5 - i });
    }
    const fifth = await p.post(`/auth/credentials/${w.credentialId}/verify`, {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await sealOtp(p, wrong, bundle, newWalletKey()),
    });
    expectError(fifth, 429, 'RATE_LIMITED');
    const right = await p.post(`/auth/credentials/${w.credentialId}/verify`, {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await sealOtp(p, sent.code, bundle, newWalletKey()),
    });
    expectError(right, 429, 'RATE_LIMITED');
    expect(await sessionsOf(p, w.accountId)).toEqual([]);
  });

  it('a code expires on the platform clock; a new challenge spends the previous code', async () => {
    const p = await walletPlatform();
    const w = await newWallet(p);
    const first = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    const second = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    const stale = await p.post(`/auth/credentials/${w.credentialId}/verify`, {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await sealOtp(p, '000000', first.body.otpEncryptionTargetBundle, newWalletKey()),
    });
    expect(invalidFields(stale)).toEqual(['encryptedOtpBundle']);
    expect((await p.post('/sandbox/clock/advance', { seconds: 301 })).status).toBe(200);
    const late = await p.post(`/auth/credentials/${w.credentialId}/verify`, {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await sealOtp(p, '000000', second.body.otpEncryptionTargetBundle, newWalletKey()),
    });
    expectError(late, 401, 'UNAUTHORIZED');
  });

  it('the deprecated uncompressed-key flow and undecryptable bundles are 400s', async () => {
    const p = await walletPlatform();
    const w = await newWallet(p);
    const challenge = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    const bundle = challenge.body.otpEncryptionTargetBundle as string;
    const { encryptOtpCodeToBundle, generateP256KeyPair } = await import('@turnkey/crypto');
    const legacy = generateP256KeyPair().publicKeyUncompressed;
    const res = await p.post(`/auth/credentials/${w.credentialId}/verify`, {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await encryptOtpCodeToBundle('000000', bundle, legacy, await enclaveKey(p)),
    });
    expect(expectError(res, 400, 'INVALID_INPUT').details!.errors).toEqual([
      expect.objectContaining({
        field: 'encryptedOtpBundle',
        message: expect.stringContaining('deprecated uncompressed-key flow'),
      }),
    ]);
    for (const encryptedOtpBundle of [
      'not json',
      '{"encappedPublic":"04","ciphertext":"00"}',
      JSON.stringify({ encappedPublic: legacy, ciphertext: 'ab'.repeat(40) }),
    ])
      expect(
        invalidFields(
          await p.post(`/auth/credentials/${w.credentialId}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle }),
        ),
      ).toEqual(['encryptedOtpBundle']);
    expect(
      invalidFields(
        await p.post(`/auth/credentials/${w.credentialId}/verify`, { type: 'SMS_OTP', encryptedOtpBundle: 'x' }),
      ),
    ).toEqual(['type']);
  });
});

describe('the signed retry', () => {
  /** A wallet with a live session, and a fresh first leg of the OTP verify (202) to retry. */
  async function pendingVerify(p: TestPlatform, w: Wallet, key: WalletKey) {
    const challenge = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    const body = {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await sealOtp(p, '000000', challenge.body.otpEncryptionTargetBundle, key),
    };
    const first = await p.post(`/auth/credentials/${w.credentialId}/verify`, body);
    expect(first.status).toBe(202);
    expect(Object.keys(first.body).sort()).toEqual(['expiresAt', 'payloadToSign', 'requestId', 'type']);
    expect(first.body.requestId).toMatch(/^Request:/);
    const claims = await verifyOtpVerificationToken(first.body.payloadToSign, await enclaveKey(p));
    expect(claims).toMatchObject({
      public_key: key.publicKey,
      verification_type: 'OTP_TYPE_EMAIL',
      contact: w.email.toLowerCase(),
    });
    return { body, payloadToSign: first.body.payloadToSign as string, requestId: first.body.requestId as string };
  }

  it('each of the five 401s, on the OTP verify retry; the challenge survives every refusal and then works once', async () => {
    const p = await walletPlatform();
    const w = await newWallet(p);
    const key = newWalletKey();
    const { body, payloadToSign, requestId } = await pendingVerify(p, w, key);
    const path = `/auth/credentials/${w.credentialId}/verify`;
    const good = await stamp(key, payloadToSign);

    expectError(await send(p, 'post', path, body, { 'Request-Id': requestId }), 401, 'WALLET_SIGNATURE_MISSING');
    expectError(await send(p, 'post', path, body, { 'Service-Wallet-Signature': good }), 401, 'REQUEST_ID_MISSING');
    for (const bad of [
      '%%%',
      Buffer.from('not json').toString('base64url'),
      Buffer.from('{"publicKey":"02","scheme":"x"}').toString('base64url'),
    ])
      expectError(await send(p, 'post', path, body, signedHeaders(bad, requestId)), 401, 'WALLET_SIGNATURE_MALFORMED');
    expectError(
      await send(
        p,
        'post',
        path,
        { ...body, encryptedOtpBundle: body.encryptedOtpBundle.replace(/"ciphertext":"(..)/, '"ciphertext":"00') },
        signedHeaders(good, requestId),
      ),
      401,
      'WALLET_SIGNATURE_BODY_MISMATCH',
    );
    expectError(
      await send(p, 'post', path, body, signedHeaders(await stamp(newWalletKey(), payloadToSign), requestId)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expectError(
      await send(p, 'post', path, body, signedHeaders(await stamp(key, `${payloadToSign}x`), requestId)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expectError(
      await send(p, 'post', path, body, signedHeaders(good, 'Request:019542f5-b3e7-7d02-8000-000000000001')),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expect(await sessionsOf(p, w.accountId)).toEqual([]);

    // The reference's header name is the same header.
    const done = await send(p, 'post', path, body, signedHeaders(good, requestId, 'Grid-Wallet-Signature'));
    expect(done.status).toBe(200);
    expect(await sessionsOf(p, w.accountId)).toEqual([done.body.id]);
    // Single use: the replay is refused and opens nothing.
    expectError(await send(p, 'post', path, body, signedHeaders(good, requestId)), 401, 'WALLET_SIGNATURE_INVALID');
    expect(await sessionsOf(p, w.accountId)).toEqual([done.body.id]);
  });

  it('a key on another curve is malformed; two different signature headers are malformed', async () => {
    const p = await walletPlatform();
    const w = await newWallet(p);
    const key = newWalletKey();
    const { body, payloadToSign, requestId } = await pendingVerify(p, w, key);
    const { secp256k1 } = await import('@noble/curves/secp256k1.js');
    const { p256 } = await import('@noble/curves/nist.js');
    // A secp256k1 public key whose x is no P-256 point (about half of them).
    let k1: Uint8Array;
    do k1 = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true);
    while (
      (() => {
        try {
          p256.Point.fromHex(Buffer.from(k1).toString('hex'));
          return true;
        } catch {
          return false;
        }
      })()
    );
    const forged = Buffer.from(
      JSON.stringify({
        publicKey: Buffer.from(k1).toString('hex'),
        scheme: 'SIGNATURE_SCHEME_TK_API_P256',
        signature: JSON.parse(Buffer.from(await stamp(key, payloadToSign), 'base64url').toString()).signature,
      }),
    ).toString('base64url');
    const path = `/auth/credentials/${w.credentialId}/verify`;
    expectError(await send(p, 'post', path, body, signedHeaders(forged, requestId)), 401, 'WALLET_SIGNATURE_MALFORMED');
    const good = await stamp(key, payloadToSign);
    const both = {
      'Service-Wallet-Signature': good,
      'Grid-Wallet-Signature': await stamp(newWalletKey(), payloadToSign),
      'Request-Id': requestId,
    };
    expectError(await send(p, 'post', path, body, both), 401, 'WALLET_SIGNATURE_MALFORMED');
    expect((await send(p, 'post', path, body, signedHeaders(good, requestId))).status).toBe(200);
  });

  it('session revocation: 202, then only a live session key of the same wallet signs; expired and foreign requestIds are refused', async () => {
    const p = await walletPlatform();
    const w = await newWallet(p);
    const w2 = await newWallet(p);
    const a = await otpLogin(p, w.credentialId, magic);
    const b = await otpLogin(p, w.credentialId, magic);
    const stranger = await otpLogin(p, w2.credentialId, magic);

    const first = await send(p, 'delete', `/auth/sessions/${b.id}`, undefined);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ type: 'EMAIL_OTP', requestId: expect.stringMatching(/^Request:/) });
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      type: 'ACTIVITY_TYPE_DELETE_SESSIONS',
      parameters: { sessionIds: [b.id] },
    });
    const { payloadToSign, requestId } = first.body as { payloadToSign: string; requestId: string };

    // Another wallet's live session key is not this wallet's.
    expectError(
      await send(
        p,
        'delete',
        `/auth/sessions/${b.id}`,
        undefined,
        signedHeaders(await stamp(stranger.key, payloadToSign), requestId),
      ),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    // A challenge issued for another session is foreign to this one.
    const forA = await send(p, 'delete', `/auth/sessions/${a.id}`, undefined);
    expectError(
      await signedRetry(p, 'delete', `/auth/sessions/${b.id}`, undefined, a.key, forA),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    // Another platform cannot see the session at all.
    const other = await walletPlatform();
    expectError(await send(other, 'delete', `/auth/sessions/${b.id}`, undefined), 404, 'SESSION_NOT_FOUND');
    expect((await sessionsOf(p, w.accountId)).sort()).toEqual([a.id, b.id].sort());

    // Session a signs the revocation of b.
    const done = await send(
      p,
      'delete',
      `/auth/sessions/${b.id}`,
      undefined,
      signedHeaders(await stamp(a.key, payloadToSign), requestId),
    );
    expect(done.status).toBe(204);
    expect(await sessionsOf(p, w.accountId)).toEqual([a.id]);
    // The revoked session's key signs nothing any more.
    const next = await send(p, 'delete', `/auth/sessions/${a.id}`, undefined);
    expectError(
      await signedRetry(p, 'delete', `/auth/sessions/${a.id}`, undefined, b.key, next),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    // An expired challenge is refused (the platform's clock): 5 minutes.
    expect((await p.post('/sandbox/clock/advance', { seconds: 301 })).status).toBe(200);
    expectError(
      await signedRetry(p, 'delete', `/auth/sessions/${a.id}`, undefined, a.key, next),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expect(await sessionsOf(p, w.accountId)).toEqual([a.id]);
    // Sessions expire on the platform's clock (15 minutes).
    expect((await p.post('/sandbox/clock/advance', { seconds: 15 * 60 })).status).toBe(200);
    expect(await sessionsOf(p, w.accountId)).toEqual([]);
    expectError(await send(p, 'delete', `/auth/sessions/${a.id}`, undefined), 404, 'SESSION_NOT_FOUND');
  });
});

describe('credentials', () => {
  const phone = () => `+1415555${String(1000 + (++seq % 9000)).padStart(4, '0')}`;

  it('adding SMS_OTP needs the signed retry; its code goes out by SMS and logs in; one per wallet', async () => {
    const p = await walletPlatform();
    const number = phone();
    const address = email();
    const customer = await newCustomer(p, individual({ email: address, phoneNumber: number }));
    const { accountId, credentials } = await walletOf(p, customer.id);
    const session = await otpLogin(p, credentials[0].id as string, magic);
    const body = { type: 'SMS_OTP', accountId };

    const first = await p.post('/auth/credentials', body);
    expect(first.status).toBe(202);
    expect(first.body.type).toBe('SMS_OTP');
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
      parameters: { userPhoneNumber: number, userId: accountId },
    });
    expectError(
      await send(p, 'post', '/auth/credentials', body, { 'Request-Id': first.body.requestId }),
      401,
      'WALLET_SIGNATURE_MISSING',
    );
    const created = await signedRetry(p, 'post', '/auth/credentials', body, session.key, first);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ accountId, type: 'SMS_OTP', nickname: number });
    expect(created.body.otpEncryptionTargetBundle).toContain('enclaveQuorumPublic');
    const sms = await hook.next({ channel: 'SMS', to: number });
    expect(sms.purpose).toBe('WALLET_OTP');
    // the bundle of the creation is the code's: log in with it
    const key = newWalletKey();
    const verify = {
      type: 'SMS_OTP',
      encryptedOtpBundle: await sealOtp(p, sms.code, created.body.otpEncryptionTargetBundle, key),
    };
    const leg = await p.post(`/auth/credentials/${created.body.id}/verify`, verify);
    expect(leg.status).toBe(202);
    expect((await verifyOtpVerificationToken(leg.body.payloadToSign, await enclaveKey(p))).verification_type).toBe(
      'OTP_TYPE_SMS',
    );
    const smsSession = await signedRetry(p, 'post', `/auth/credentials/${created.body.id}/verify`, verify, key, leg);
    expect(smsSession.status).toBe(200);
    expect(smsSession.body.type).toBe('SMS_OTP');

    expectError(await p.post('/auth/credentials', body), 400, 'SMS_OTP_CREDENTIAL_ALREADY_EXISTS');
    expectError(
      await p.post('/auth/credentials', { type: 'EMAIL_OTP', accountId }),
      400,
      'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
    );
    expect(((await p.get(`/auth/credentials?accountId=${accountId}`)).body.data as unknown[]).length).toBe(2);
  });

  it('an email or phone tied to another wallet is 409; a non-wallet account is WALLET_NOT_PROVISIONED; a foreign one 404', async () => {
    const p = await walletPlatform();
    const shared = email();
    const number = phone();
    const a = await newCustomer(p, individual({ email: shared }));
    const b = await newCustomer(p, individual({ email: shared, phoneNumber: number }));
    const walletA = await walletOf(p, a.id);
    expect(walletA.credentials).toHaveLength(1);
    // No wallet without a credential (issue #47): B's email is A's wallet's, so B has none, and
    // its other account says why.
    expect((await p.get(`/customers/internal-accounts?customerId=${b.id}&type=EMBEDDED_WALLET`)).body.data).toEqual([]);
    const fiatB = await p.get(`/customers/internal-accounts?customerId=${b.id}&type=INTERNAL_FIAT`);
    const refused = expectError(
      await p.post('/auth/credentials', { type: 'SMS_OTP', accountId: fiatB.body.data[0].id }),
      409,
      'WALLET_NOT_PROVISIONED',
    );
    expect(refused.reason).toContain("tied to another wallet's EMAIL_OTP credential");
    // A's session adds SMS_OTP with B's number... B has no wallet, so the number is free.
    const sessionA = await otpLogin(p, walletA.credentials[0].id as string, magic);
    await p.patch(`/customers/${a.id}`, { customerType: 'INDIVIDUAL', phoneNumber: number });
    const smsA = await p.post('/auth/credentials', { type: 'SMS_OTP', accountId: walletA.accountId });
    expect(smsA.status).toBe(202);
    expect(
      (
        await signedRetry(
          p,
          'post',
          '/auth/credentials',
          { type: 'SMS_OTP', accountId: walletA.accountId },
          sessionA.key,
          smsA,
        )
      ).status,
    ).toBe(201);
    // B gets its own email: now it is provisioned (with its EMAIL_OTP credential), and the number is A's.
    expect((await p.patch(`/customers/${b.id}`, { customerType: 'INDIVIDUAL', email: email() })).status).toBe(200);
    const walletB = await walletOf(p, b.id);
    expect(walletB.credentials).toEqual([expect.objectContaining({ type: 'EMAIL_OTP' })]);
    expectError(
      await p.post('/auth/credentials', { type: 'SMS_OTP', accountId: walletB.accountId }),
      409,
      'SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS',
    );
    expectError(
      await p.post('/auth/credentials', { type: 'EMAIL_OTP', accountId: walletB.accountId }),
      400,
      'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
    );

    const fiat = await p.get(`/customers/internal-accounts?customerId=${a.id}&type=INTERNAL_FIAT`);
    expectError(
      await p.post('/auth/credentials', { type: 'SMS_OTP', accountId: fiat.body.data[0].id }),
      409,
      'WALLET_NOT_PROVISIONED',
    );
    const other = await walletPlatform();
    expectError(
      await other.post('/auth/credentials', { type: 'SMS_OTP', accountId: walletA.accountId }),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expect(invalidFields(await p.post('/auth/credentials', { type: 'FAX', accountId: 'x' }))).toEqual([
      'accountId',
      'type',
    ]);
  });

  it('revocation is signed by a session of another credential; its sessions go with it; the last one stays', async () => {
    const p = await walletPlatform();
    const number = phone();
    const customer = await newCustomer(p, individual({ email: email(), phoneNumber: number }));
    const { accountId, credentials } = await walletOf(p, customer.id);
    const emailId = credentials[0].id as string;
    const emailSession = await otpLogin(p, emailId, magic);
    const add = await p.post('/auth/credentials', { type: 'SMS_OTP', accountId });
    const sms = await signedRetry(
      p,
      'post',
      '/auth/credentials',
      { type: 'SMS_OTP', accountId },
      emailSession.key,
      add,
    );
    expect(sms.status).toBe(201);
    const smsSession = await otpLogin(p, sms.body.id, magic);

    const first = await send(p, 'delete', `/auth/credentials/${emailId}`, undefined);
    expect(first.status).toBe(202);
    expect(first.body.type).toBe('EMAIL_OTP');
    const own = await signedRetry(p, 'delete', `/auth/credentials/${emailId}`, undefined, emailSession.key, first);
    expectError(own, 401, 'WALLET_SIGNATURE_INVALID');
    expect(((await p.get(`/auth/credentials?accountId=${accountId}`)).body.data as unknown[]).length).toBe(2);
    const done = await signedRetry(p, 'delete', `/auth/credentials/${emailId}`, undefined, smsSession.key, first);
    expect(done.status).toBe(204);
    expect((await p.get(`/auth/credentials?accountId=${accountId}`)).body.data).toEqual([
      expect.objectContaining({ id: sms.body.id }),
    ]);
    expect(await sessionsOf(p, accountId)).toEqual([smsSession.id]);
    expectError(await p.post(`/auth/credentials/${emailId}/challenge`, {}), 404, 'AUTH_METHOD_NOT_FOUND');
    const last = await send(p, 'delete', `/auth/credentials/${sms.body.id}`, undefined);
    expectError(last, 400, 'INVALID_INPUT');
    // EMAIL_OTP can be added back (signed by the SMS session).
    const back = await p.post('/auth/credentials', { type: 'EMAIL_OTP', accountId });
    expect(back.status).toBe(202);
    const again = await signedRetry(
      p,
      'post',
      '/auth/credentials',
      { type: 'EMAIL_OTP', accountId },
      smsSession.key,
      back,
    );
    expect(again.status).toBe(201);
  });
});

describe('sessions', () => {
  it('refresh binds the new key, is signed by the session itself, and replaces the session', async () => {
    const p = await walletPlatform();
    const w = await newWallet(p);
    const s = await otpLogin(p, w.credentialId, magic);
    const other = await otpLogin(p, w.credentialId, magic);
    const next = newWalletKey();
    const body = { clientPublicKey: next.publicKey };
    const first = await p.post(`/auth/sessions/${s.id}/refresh`, body);
    expect(first.status).toBe(202);
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2',
      parameters: { targetPublicKey: next.publicKey },
    });
    const path = `/auth/sessions/${s.id}/refresh`;
    expectError(await signedRetry(p, 'post', path, body, other.key, first), 401, 'WALLET_SIGNATURE_INVALID');
    expectError(
      await signedRetry(p, 'post', path, { clientPublicKey: newWalletKey().publicKey }, s.key, first),
      401,
      'WALLET_SIGNATURE_BODY_MISMATCH',
    );
    const done = await signedRetry(p, 'post', path, body, s.key, first);
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ accountId: w.accountId, type: 'EMAIL_OTP' });
    expect((await sessionsOf(p, w.accountId)).sort()).toEqual([other.id, done.body.id].sort());
    // the new key signs
    const revoke = await send(p, 'delete', `/auth/sessions/${other.id}`, undefined);
    expect((await signedRetry(p, 'delete', `/auth/sessions/${other.id}`, undefined, next, revoke)).status).toBe(204);
    const { generateP256KeyPair } = await import('@turnkey/crypto');
    const legacy = await p.post(`/auth/sessions/${done.body.id}/refresh`, {
      clientPublicKey: generateP256KeyPair().publicKeyUncompressed,
    });
    expect(expectError(legacy, 400, 'INVALID_INPUT').details!.errors).toEqual([
      expect.objectContaining({
        field: 'clientPublicKey',
        message: expect.stringContaining('deprecated uncompressed-key flow'),
      }),
    ]);
  });
});

describe('webhooks, audit and secrecy', () => {
  it('every credential and session change writes its event and audit record; no code, key or token leaks into logs, events or audit', async () => {
    const { DataSource } = await import('typeorm');
    const { SecretBox } = await import('../../src/secrets/secret-box.js');
    const { recordedEvents } = await import('../support/events.js');
    const logged = await startLoggedTestApp({ MESSAGE_HOOK_URL: hook.url });
    try {
      const p = (await wantOwnEvents(await TestPlatform.create(t))).on(logged);
      expect((await p.patch('/config', { embeddedWalletConfig: { otpLength: 12, alphanumeric: true } })).status).toBe(
        200,
      );
      const w = await newWallet(p);
      const key = newWalletKey();
      const codes: string[] = [];
      const session = await otpLogin(
        p,
        w.credentialId,
        async () => {
          const m = await hook.next({ channel: 'EMAIL', to: w.email.toLowerCase() });
          codes.push(m.code);
          return m.code;
        },
        key,
      );
      expect(codes[0]).toMatch(/^[A-Z0-9]{12}$/);
      const first = await send(p, 'delete', `/auth/sessions/${session.id}`, undefined);
      expect((await signedRetry(p, 'delete', `/auth/sessions/${session.id}`, undefined, key, first)).status).toBe(204);

      const types = (await recordedEvents(p)).map((e) => e.type).filter((type) => type.startsWith('AUTH_'));
      expect(types).toEqual(['AUTH_CREDENTIAL.CREATED', 'AUTH_SESSION.CREATED', 'AUTH_SESSION.REVOKED']);
      const events = JSON.stringify(await recordedEvents(p));
      expect(events).toContain(session.id);

      const db = t.app.get(DataSource);
      const box = t.app.get(SecretBox);
      const uuid = p.platformId.replace(/^Platform:/, '');
      const audit = JSON.stringify(await db.query('SELECT * FROM audit_events WHERE platform_id = $1', [uuid]));
      for (const action of ['challengeAuthCredential', 'verifyAuthCredential', 'revokeAuthSession'])
        expect(audit).toContain(action);
      expect(audit).toContain(session.id);
      const [enclave] = await db.query<Array<{ private_key_enc: string }>>(
        `SELECT private_key_enc FROM wallet_enclave_keys`,
      );
      const targets = await db.query<Array<{ target_private_key_enc: string; code_hash: string }>>(
        `SELECT target_private_key_enc, code_hash FROM wallet_otps WHERE platform_id = $1`,
        [uuid],
      );
      const secrets = [
        ...codes,
        box.open(enclave.private_key_enc),
        key.privateKey,
        ...targets.map((r) => box.open(r.target_private_key_enc)),
        ...targets.map((r) => r.code_hash),
        first.body.payloadToSign as string,
      ];
      const logs = logged.logs();
      expect(logs).toContain('/auth/credentials/'); // the access lines of the calls are there
      for (const haystack of [logs, events, audit])
        for (const secret of secrets)
          expect({ secret: secret.slice(0, 8), found: haystack.includes(secret) }).toEqual({
            secret: secret.slice(0, 8),
            found: false,
          });
      // the verification token (a bearer of the OTP's success) is nowhere either
      expect(logs).not.toMatch(/eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9\.[A-Za-z0-9_-]{20}/);
    } finally {
      await logged.close();
    }
  });
});

describe('OAUTH (the sandbox OIDC issuer)', () => {
  it('publishes its JWKS; an OAUTH credential is added signed and verified with a fresh token bound to the key', async () => {
    const { createHash } = await import('node:crypto');
    const jose = await import('jose');
    const jwks = await t.http.get('/2025-10-13/sandbox/oauth/jwks');
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })]);
    expect(jwks.body.keys[0].d).toBeUndefined();

    const p = await walletPlatform();
    const w = await newWallet(p);
    const session = await otpLogin(p, w.credentialId, magic);
    const mint = async (claims: Record<string, string>) =>
      (await p.post('/sandbox/oauth/token', { sub: 'user-1', aud: 'acme-app', email: 'jane@acme.test', ...claims }))
        .body.idToken as string;
    // the token verifies against the published JWKS with a standard library
    const token = await mint({});
    const verified = await jose.jwtVerify(token, jose.createLocalJWKSet(jwks.body));
    expect(verified.payload).toMatchObject({ sub: 'user-1', aud: 'acme-app' });

    const body = { type: 'OAUTH', accountId: w.accountId, oidcToken: token };
    const first = await p.post('/auth/credentials', body);
    expect(first.status).toBe(202);
    expect(JSON.parse(first.body.payloadToSign).type).toBe('ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS');
    const created = await signedRetry(p, 'post', '/auth/credentials', body, session.key, first);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'OAUTH', nickname: 'jane@acme.test' });
    expect(created.body.otpEncryptionTargetBundle).toBeUndefined();

    const key = newWalletKey();
    const nonce = createHash('sha256').update(key.publicKey).digest('hex');
    const path = `/auth/credentials/${created.body.id}/verify`;
    expectError(
      await p.post(path, { type: 'OAUTH', oidcToken: await mint({ nonce: 'x' }), clientPublicKey: key.publicKey }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await p.post(path, {
        type: 'OAUTH',
        oidcToken: await mint({ nonce, sub: 'someone-else' }),
        clientPublicKey: key.publicKey,
      }),
      401,
      'UNAUTHORIZED',
    );
    expect(
      invalidFields(await p.post(path, { type: 'OAUTH', oidcToken: 'not-a-jwt', clientPublicKey: key.publicKey })),
    ).toEqual(['oidcToken']);
    const foreignKey = await jose.generateKeyPair('ES256');
    const foreign = await new jose.SignJWT({ nonce })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('https://accounts.example.com')
      .setSubject('user-1')
      .setAudience('acme-app')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(foreignKey.privateKey);
    expect(
      invalidFields(await p.post(path, { type: 'OAUTH', oidcToken: foreign, clientPublicKey: key.publicKey })),
    ).toEqual(['oidcToken']);
    expect(invalidFields(await p.post(path, { type: 'OAUTH', clientPublicKey: key.publicKey }))).toEqual(['oidcToken']);
    const stale = await mint({ nonce });
    expect((await p.post('/sandbox/clock/advance', { seconds: 61 })).status).toBe(200);
    expectError(
      await p.post(path, { type: 'OAUTH', oidcToken: stale, clientPublicKey: key.publicKey }),
      401,
      'UNAUTHORIZED',
    );
    const ok = await p.post(path, { type: 'OAUTH', oidcToken: await mint({ nonce }), clientPublicKey: key.publicKey });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ type: 'OAUTH', accountId: w.accountId, nickname: 'jane@acme.test' });
    // the OAUTH session's key signs
    const revoke = await send(p, 'delete', `/auth/sessions/${session.id}`, undefined);
    expect((await signedRetry(p, 'delete', `/auth/sessions/${session.id}`, undefined, key, revoke)).status).toBe(204);
  });
});

describe('races', () => {
  it('one signed retry sent five times at once is honoured once; five provisioning PATCHes at once make one wallet', async () => {
    const p = await walletPlatform();
    const w = await newWallet(p);
    const key = newWalletKey();
    const challenge = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    const body = {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await sealOtp(p, '000000', challenge.body.otpEncryptionTargetBundle, key),
    };
    const first = await p.post(`/auth/credentials/${w.credentialId}/verify`, body);
    const headers = signedHeaders(await stamp(key, first.body.payloadToSign), first.body.requestId);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => send(p, 'post', `/auth/credentials/${w.credentialId}/verify`, body, headers)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401, 401, 401]);
    expect(await sessionsOf(p, w.accountId)).toHaveLength(1);

    // A customer with no wallet (its email is another wallet's): five PATCHes of its email at once make one wallet.
    const shared = email();
    await newCustomer(p, individual({ email: shared }));
    const bare = await newCustomer(p, individual({ email: shared }));
    const fresh = email();
    const patches = await Promise.all(
      Array.from({ length: 5 }, () => p.patch(`/customers/${bare.id}`, { customerType: 'INDIVIDUAL', email: fresh })),
    );
    expect(patches.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const { credentials } = await walletOf(p, bare.id);
    expect(credentials).toEqual([expect.objectContaining({ type: 'EMAIL_OTP', nickname: fresh })]);
  });
});
