import { createHash, createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { MAX_FAILURES_PER_WINDOW } from '../../src/common/one-time-code-limits.js';
import { SecretBox } from '../../src/secrets/secret-box.js';
import { agentPolicy, installedAgent } from '../support/agents.js';
import { cardBody, postCard, provisioned } from '../support/cards.js';
import { individual } from '../support/customers.js';
import { customerAccount, newCustomer } from '../support/fixtures.js';
import { MessageHook } from '../support/message-hook.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import {
  newTestWallet,
  newWalletKey,
  otpLogin,
  sealOtp,
  send,
  signedHeaders,
  signedRetry,
  stamp,
  walletWithSession,
  type WalletKey,
} from '../support/wallet-client.js';

/**
 * The adversarial platform (issue #47): every attack a platform holding only its API key could try
 * on its customers' embedded wallets, kept as a test. The wallet is the customer's: the platform's
 * key must never be enough to open a session, move its money or change its credentials.
 */
let t: TestApp;
let hook: MessageHook;
let db: DataSource;
beforeAll(async () => {
  hook = await MessageHook.start();
  t = await startTestApp({ MESSAGE_HOOK_URL: hook.url });
  db = t.app.get(DataSource);
});
afterAll(async () => {
  await t.close();
  await hook.stop();
});

const magic = () => '000000';
const sessionsOf = async (p: TestPlatform, accountId: string): Promise<string[]> =>
  ((await p.get(`/auth/sessions?accountId=${accountId}`)).body as { data: Array<{ id: string }> }).data.map(
    (s) => s.id,
  );
const credentialsOf = async (p: TestPlatform, accountId: string) =>
  ((await p.get(`/auth/credentials?accountId=${accountId}`)).body as { data: Array<{ id: string; type: string }> })
    .data;
const retryAfter = (res: { headers: Record<string, string> }) => Number(res.headers['retry-after']);
const FR = {
  address: { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' },
  nationality: 'FR',
  phoneNumber: '+33612345678',
};

/** A wrong guess's verify first leg (the code sealed to the bundle like a real client would). */
async function guess(p: TestPlatform, credentialId: string, bundle: string, code: string, key: WalletKey) {
  return p.post(`/auth/credentials/${credentialId}/verify`, {
    type: 'EMAIL_OTP',
    encryptedOtpBundle: await sealOtp(p, code, bundle, key),
  });
}

describe('finding 1: OTP brute force across re-issues', () => {
  it('a 4-digit code cannot be brute-forced through re-issues: a lock with Retry-After on verify and re-issue; even the right code is refused; the lock backs off', async () => {
    const p = await TestPlatform.create(t);
    expect((await p.patch('/config', { embeddedWalletConfig: { appName: 'Brute', otpLength: 4 } })).status).toBe(200);
    const w = await newTestWallet(p);
    const key = newWalletKey();
    let next = 0;
    let wrong = 0;
    let lastCode = '';
    let lastBundle = '';
    let lock: { status: number; headers: Record<string, string>; body: Record<string, unknown> } | null = null;
    // The attacker's loop: re-issue, then wrong guesses until the code is spent, again and again.
    for (let round = 0; round < 25 && !lock; round++) {
      const issued = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
      if (issued.status === 429) {
        lock = issued;
        break;
      }
      expect(issued.status).toBe(200);
      lastBundle = issued.body.otpEncryptionTargetBundle as string;
      lastCode = (await hook.next({ channel: 'EMAIL', to: w.email.toLowerCase() })).code;
      expect(lastCode).toMatch(/^\d{4}$/);
      for (let i = 0; i < 5; i++) {
        let candidate = String(next++ % 10_000).padStart(4, '0');
        if (candidate === lastCode) candidate = String(next++ % 10_000).padStart(4, '0');
        const res = await guess(p, w.credentialId, lastBundle, candidate, key);
        expect([401, 429]).toContain(res.status);
        wrong++;
        if (res.status === 429) {
          expect(retryAfter(res)).toBeGreaterThanOrEqual(1); // every 429 carries Retry-After
          if ((res.body.details as { lockedUntil?: string } | undefined)?.lockedUntil) lock = res;
          break;
        }
      }
    }
    expect(lock).not.toBeNull();
    expect(lock!.body.code).toBe('RATE_LIMITED');
    expect(wrong).toBeLessThanOrEqual(MAX_FAILURES_PER_WINDOW);
    const firstLock = retryAfter(lock!);
    expect(firstLock).toBeGreaterThan(60);

    // Locked: re-issue is 429 with Retry-After; the right code of the last pending code (and the
    // sandbox's magic code) are refused too; no session was ever opened.
    expectError(await p.post(`/auth/credentials/${w.credentialId}/challenge`, {}), 429, 'RATE_LIMITED');
    const reissued = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    expect(retryAfter(reissued)).toBeGreaterThan(60);
    const right = await guess(p, w.credentialId, lastBundle, lastCode, key);
    expectError(right, 429, 'RATE_LIMITED');
    expect(retryAfter(right)).toBeGreaterThan(60);
    expectError(await guess(p, w.credentialId, lastBundle, '000000', key), 429, 'RATE_LIMITED');
    expect(await sessionsOf(p, w.accountId)).toEqual([]);

    // Past the lock (the platform's clock) the holder can log in again; a second lock is longer.
    expect((await p.post('/sandbox/clock/advance', { seconds: firstLock + 1 })).status).toBe(200);
    let second: { headers: Record<string, string> } | null = null;
    for (let round = 0; round < 5 && !second; round++) {
      const issued = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
      expect(issued.status).toBe(200);
      const code = (await hook.next({ channel: 'EMAIL', to: w.email.toLowerCase() })).code;
      for (let i = 0; i < 5; i++) {
        const candidate = code === '1234' ? '4321' : '1234';
        const res = await guess(p, w.credentialId, issued.body.otpEncryptionTargetBundle as string, candidate, key);
        if (res.status === 429) {
          if ((res.body.details as { lockedUntil?: string } | undefined)?.lockedUntil) second = res;
          break;
        }
      }
    }
    expect(second).not.toBeNull();
    expect(retryAfter(second!)).toBeGreaterThan(firstLock);
    expect(await sessionsOf(p, w.accountId)).toEqual([]);
  });

  it('concurrent wrong guesses are counted exactly: two rounds of five at once make exactly one lock', async () => {
    const p = await TestPlatform.create(t);
    const w = await newTestWallet(p);
    const key = newWalletKey();
    const statuses: number[] = [];
    let locks = 0;
    for (let round = 0; round < 2; round++) {
      const issued = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
      expect(issued.status).toBe(200);
      const code = (await hook.next({ channel: 'EMAIL', to: w.email.toLowerCase() })).code;
      const wrong = code === '111111' ? '222222' : '111111';
      const bundle = await sealOtp(p, wrong, issued.body.otpEncryptionTargetBundle as string, key);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          p.post(`/auth/credentials/${w.credentialId}/verify`, { type: 'EMAIL_OTP', encryptedOtpBundle: bundle }),
        ),
      );
      for (const a of answers) {
        statuses.push(a.status);
        if ((a.body.details as { lockedUntil?: string } | undefined)?.lockedUntil) locks++;
      }
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(8);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expect(locks).toBe(1);
    expectError(await p.post(`/auth/credentials/${w.credentialId}/challenge`, {}), 429, 'RATE_LIMITED');
  });

  it('the right code after a few wrong ones still logs in, and starts the wrong-guess count over', async () => {
    const p = await TestPlatform.create(t);
    const w = await newTestWallet(p);
    const key = newWalletKey();
    const issued = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    await hook.next({ channel: 'EMAIL', to: w.email.toLowerCase() });
    for (let i = 0; i < 3; i++)
      expect(
        (await guess(p, w.credentialId, issued.body.otpEncryptionTargetBundle as string, '999999x', key)).status,
      ).toBe(401);
    const session = await otpLogin(p, w.credentialId, async () => {
      return (await hook.next({ channel: 'EMAIL', to: w.email.toLowerCase() })).code;
    });
    expect(await sessionsOf(p, w.accountId)).toEqual([session.id]);
  });
});

describe('finding 2: one-time codes at rest', () => {
  it('a wallet OTP is stored as HMAC-SHA256 under the sealed server key: no unkeyed digest of any 4-digit code matches it', async () => {
    const p = await TestPlatform.create(t);
    expect((await p.patch('/config', { embeddedWalletConfig: { appName: 'Rest', otpLength: 4 } })).status).toBe(200);
    const w = await newTestWallet(p);
    expect((await p.post(`/auth/credentials/${w.credentialId}/challenge`, {})).status).toBe(200);
    const code = (await hook.next({ channel: 'EMAIL', to: w.email.toLowerCase() })).code;
    const [otp] = await db.query<Array<{ id: string; code_hash: string }>>(
      `SELECT id, code_hash FROM wallet_otps WHERE credential_id = $1 AND used_at IS NULL`,
      [parseId('AuthMethod', w.credentialId)],
    );
    // What a database reader would try: every 4-digit code under the unkeyed digests. None matches.
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    for (let n = 0; n < 10_000; n++) {
      const candidate = String(n).padStart(4, '0');
      expect(
        sha(`${otp.id}:${candidate}`) === otp.code_hash || sha(`${otp.id}\u0000${candidate}`) === otp.code_hash,
      ).toBe(false);
    }
    // The key is in server_keys, sealed (not the key itself), and only with it does the code match.
    const [stored] = await db.query<Array<{ key_enc: string }>>(
      `SELECT key_enc FROM server_keys WHERE id = 'one-time-code-mac'`,
    );
    expect(stored.key_enc).not.toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const key = Buffer.from(t.app.get(SecretBox).open(stored.key_enc), 'base64');
    expect(key).toHaveLength(32);
    expect(createHmac('sha256', key).update(`${otp.id}\u0000${code}`).digest('hex')).toBe(otp.code_hash);
  });

  it('an SCA SMS code is stored as a keyed MAC only (the sealed code column stays empty)', async () => {
    const p = await TestPlatform.create(t);
    const w = await walletWithSession(p, { ...FR, region: 'FR' });
    expect((await p.post(`/sandbox/customers/${w.customerId}/kyc`, { kycStatus: 'APPROVED' })).status).toBe(200);
    expect((await p.post(`/sandbox/internal-accounts/${w.accountId}/fund`, { amount: 5_000 })).status).toBe(200);
    const fiat = await customerAccount(p, w.customerId);
    const q = await p.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: w.accountId },
      destination: { destinationType: 'ACCOUNT', accountId: fiat.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect(q.body.status).toBe('PENDING_AUTHORIZATION');
    const [row] = await db.query<Array<{ id: string; sms_code: string | null; sms_code_mac: string }>>(
      `SELECT id, sms_code, sms_code_mac FROM sca_challenges WHERE id = $1`,
      [parseId('ScaChallenge', q.body.scaChallenge.id as string)],
    );
    expect(row.sms_code).toBeNull();
    expect(row.sms_code_mac).toMatch(/^[0-9a-f]{64}$/);
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect([sha('123456'), sha(`${row.id}\u0000123456`), sha(`${row.id}:123456`)]).not.toContain(row.sms_code_mac);
  });
});

describe('finding 3: the wallet signature comes before SCA', () => {
  async function scaWalletQuote(p: TestPlatform) {
    const w = await walletWithSession(p, { ...FR, region: 'FR' });
    expect((await p.post(`/sandbox/customers/${w.customerId}/kyc`, { kycStatus: 'APPROVED' })).status).toBe(200);
    expect((await p.post(`/sandbox/internal-accounts/${w.accountId}/fund`, { amount: 10_000 })).status).toBe(200);
    const fiat = await customerAccount(p, w.customerId);
    const q = await p.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: w.accountId },
      destination: { destinationType: 'ACCOUNT', accountId: fiat.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 2_500,
    });
    expect(q.status).toBe(201);
    expect(q.body.status).toBe('PENDING_AUTHORIZATION');
    const payload = q.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign as string;
    return { w, q: q.body as Record<string, string>, payload };
  }
  const walletBalance = async (p: TestPlatform, accountId: string) =>
    (
      (await p.get(`/customers/internal-accounts?type=EMBEDDED_WALLET`)).body as {
        data: Array<{ id: string; balance: { amount: number } }>;
      }
    ).data.find((a) => a.id === accountId)!.balance.amount;

  it('execute without a stamp is 401 with nothing recorded; the stamped execute waits; authorize releases it', async () => {
    const p = await TestPlatform.create(t);
    const { w, q, payload } = await scaWalletQuote(p);
    expectError(await p.post(`/quotes/${q.id}/execute`), 401, 'WALLET_SIGNATURE_MISSING');
    expectError(
      await send(
        p,
        'post',
        `/quotes/${q.id}/execute`,
        {},
        { 'Service-Wallet-Signature': await stamp(newWalletKey(), payload) },
      ),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expectError(await p.get(`/transactions/${q.transactionId}`), 404, 'TRANSACTION_NOT_FOUND');

    const waiting = await send(
      p,
      'post',
      `/quotes/${q.id}/execute`,
      {},
      { 'Service-Wallet-Signature': await stamp(w.session.key, payload) },
    );
    expect(waiting.status).toBe(200);
    expect(waiting.body.status).toBe('PENDING_AUTHORIZATION');
    expect((await p.get(`/transactions/${q.transactionId}`)).body.status).toBe('PENDING_AUTHORIZATION');
    expect(await walletBalance(p, w.accountId)).toBe(10_000);

    const authorized = await p.post(`/quotes/${q.id}/authorize`, { code: '123456' });
    expect(authorized.status).toBe(200);
    expect(await walletBalance(p, w.accountId)).toBe(7_500);
    expect((await p.get(`/transactions/${q.transactionId}`)).body.status).not.toBe('PENDING_AUTHORIZATION');
  });

  it('authorize carries the wallet signature: a bad one is 401 (the challenge is not spent), a good one executes', async () => {
    const p = await TestPlatform.create(t);
    const { w, q, payload } = await scaWalletQuote(p);
    const forged = await send(
      p,
      'post',
      `/quotes/${q.id}/authorize`,
      { code: '123456' },
      { 'Service-Wallet-Signature': await stamp(newWalletKey(), payload) },
    );
    expectError(forged, 401, 'WALLET_SIGNATURE_INVALID');
    const done = await send(
      p,
      'post',
      `/quotes/${q.id}/authorize`,
      { code: '123456' },
      { 'Grid-Wallet-Signature': await stamp(w.session.key, payload) },
    );
    expect(done.status).toBe(200);
    expect(await walletBalance(p, w.accountId)).toBe(7_500);
  });
});

describe('finding 4: no wallet without a credential', () => {
  it('a customer without an email has no wallet (WALLET_NOT_PROVISIONED says why) until a PATCH gives it one', async () => {
    const p = await TestPlatform.create(t);
    expect((await p.patch('/config', { embeddedWalletConfig: { appName: 'Bare' } })).status).toBe(200);
    const c = await newCustomer(p, individual({ email: undefined }));
    expect((await p.get(`/customers/internal-accounts?customerId=${c.id}&type=EMBEDDED_WALLET`)).body.data).toEqual([]);
    const fiat = await customerAccount(p, c.id);
    const refused = expectError(
      await p.post('/auth/credentials', { type: 'SMS_OTP', accountId: fiat.id }),
      409,
      'WALLET_NOT_PROVISIONED',
    );
    expect(refused.reason).toContain('no email');
    const address = `bare-${process.pid}-${Math.random().toString(36).slice(2)}@example.com`;
    expect((await p.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', email: address })).status).toBe(200);
    const wallet = await p.get(`/customers/internal-accounts?customerId=${c.id}&type=EMBEDDED_WALLET`);
    expect(wallet.body.data).toHaveLength(1);
    expect(await credentialsOf(p, wallet.body.data[0].id as string)).toEqual([
      expect.objectContaining({ type: 'EMAIL_OTP' }),
    ]);
  });

  it('adding a credential always needs the signed retry of a live session of this wallet: never 201 on the API key', async () => {
    const p = await TestPlatform.create(t);
    const w = await newTestWallet(p, { phoneNumber: '+12065550147' });
    const other = await walletWithSession(p);
    const body = { type: 'SMS_OTP', accountId: w.accountId };
    const first = await p.post('/auth/credentials', body);
    expect(first.status).toBe(202);
    expect((await p.post('/auth/credentials', body)).status).toBe(202); // never created on the API key alone
    // Another wallet's session cannot sign it; nothing was added.
    expectError(
      await signedRetry(p, 'post', '/auth/credentials', body, other.session.key, first),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expect(await credentialsOf(p, w.accountId)).toHaveLength(1);
  });
});

describe('finding 5: one client key, one live session; the signer is exact', () => {
  it('a second session on the same key replaces the first; a revoked session leaves the key signing nothing; another wallet cannot take the key', async () => {
    const p = await TestPlatform.create(t);
    const w = await newTestWallet(p);
    const key = newWalletKey();
    const one = await otpLogin(p, w.credentialId, magic, key);
    const two = await otpLogin(p, w.credentialId, magic, key);
    expect(await sessionsOf(p, w.accountId)).toEqual([two.id]);
    const revoke = await send(p, 'delete', `/auth/sessions/${two.id}`, undefined);
    expect((await signedRetry(p, 'delete', `/auth/sessions/${two.id}`, undefined, key, revoke)).status).toBe(204);
    // The key names no live session any more: it signs nothing (the replaced one included).
    const again = await otpLogin(p, w.credentialId, magic);
    const attempt = await send(p, 'delete', `/auth/sessions/${again.id}`, undefined);
    expectError(
      await signedRetry(p, 'delete', `/auth/sessions/${again.id}`, undefined, key, attempt),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expect(await sessionsOf(p, w.accountId)).not.toContain(one.id);

    const live = await otpLogin(p, w.credentialId, magic, key);
    const other = await newTestWallet(p);
    await expect(otpLogin(p, other.credentialId, magic, key)).rejects.toThrow(/verify retry: 400/);
    expect(await sessionsOf(p, other.accountId)).toEqual([]);
    expect(await sessionsOf(p, w.accountId)).toEqual([again.id, live.id].sort());
  });
});

describe('finding 6: delegated keys are created and granted by one session', () => {
  it('leg 3 signed by another session of the wallet is refused; by the same session it activates the key', async () => {
    const p = await TestPlatform.create(t);
    const w = await walletWithSession(p);
    expect((await p.post(`/sandbox/customers/${w.customerId}/kyc`, { kycStatus: 'APPROVED' })).status).toBe(200);
    expect((await p.post(`/sandbox/internal-accounts/${w.accountId}/fund`, { amount: 1_000 })).status).toBe(200);
    const issued = await postCard(p, cardBody(w.customerId, w.accountId));
    expect(issued.status).toBe(201);
    const card = await provisioned(p, issued.body.id as string);
    const otherSession = await otpLogin(p, w.credentialId, magic);
    const body = { cardId: card.id, internalAccountId: w.accountId, nickname: 'Card key' };
    const first = await send(p, 'post', '/auth/delegated-keys', body);
    const second = await signedRetry(p, 'post', '/auth/delegated-keys', body, w.session.key, first);
    expect(second.status).toBe(202);
    expectError(
      await signedRetry(p, 'post', '/auth/delegated-keys', body, otherSession.key, second),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    const done = await signedRetry(p, 'post', '/auth/delegated-keys', body, w.session.key, second);
    expect(done.status).toBe(201);
    expect(done.body.status).toBe('ACTIVE');
  });
});

describe("finding 7: an agent's execute of a wallet-funded quote takes the wallet signature", () => {
  it('no stamp: 401 and nothing kept; the holder stamp: executed', async () => {
    const p = await TestPlatform.create(t);
    const w = await walletWithSession(p);
    expect((await p.post(`/sandbox/customers/${w.customerId}/kyc`, { kycStatus: 'APPROVED' })).status).toBe(200);
    expect((await p.post(`/sandbox/internal-accounts/${w.accountId}/fund`, { amount: 10_000 })).status).toBe(200);
    const customer = (await p.get(`/customers/${w.customerId}`)).body;
    const { client, accountId: fiatId } = await installedAgent(p, { customer, policy: agentPolicy() });
    const quote = await client.post('/agents/me/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: w.accountId },
      destination: { destinationType: 'ACCOUNT', accountId: fiatId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect(quote.status).toBe(201);
    const payload = quote.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign as string;
    expectError(await client.post(`/agents/me/quotes/${quote.body.id}/execute`), 401, 'WALLET_SIGNATURE_MISSING');
    expect((await client.get('/agents/me/actions')).body.data).toEqual([]);
    const executed = await client.p.t.http
      .post(`/2025-10-13/agents/me/quotes/${quote.body.id}/execute`)
      .set('Authorization', `Bearer ${client.accessToken}`)
      .set('Grid-Wallet-Signature', await stamp(w.session.key, payload));
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe('APPROVED');
  });
});

describe('attacks that already failed (kept so they cannot come back)', () => {
  it('body swaps, replayed and cross-route Request-Ids, foreign keys, revoked and expired sessions, tampered stamps', async () => {
    const p = await TestPlatform.create(t);
    const w = await walletWithSession(p);
    const target = await otpLogin(p, w.credentialId, magic);
    const path = `/auth/sessions/${target.id}/refresh`;
    const newKey = newWalletKey();
    const body = { clientPublicKey: newKey.publicKey };
    const challenge = await send(p, 'post', path, body);
    expect(challenge.status).toBe(202);
    const { payloadToSign, requestId } = challenge.body as { payloadToSign: string; requestId: string };
    const own = target.key;

    // body swap
    expectError(
      await send(
        p,
        'post',
        path,
        { clientPublicKey: newWalletKey().publicKey },
        signedHeaders(await stamp(own, payloadToSign), requestId),
      ),
      401,
      'WALLET_SIGNATURE_BODY_MISMATCH',
    );
    // cross-route Request-Id (a revoke's challenge on the refresh route)
    const revoke = await send(p, 'delete', `/auth/sessions/${target.id}`, undefined);
    expectError(
      await send(
        p,
        'post',
        path,
        body,
        signedHeaders(await stamp(own, revoke.body.payloadToSign as string), revoke.body.requestId as string),
      ),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    // another customer's wallet key; another platform's key
    const stranger = await walletWithSession(p);
    expectError(
      await send(p, 'post', path, body, signedHeaders(await stamp(stranger.session.key, payloadToSign), requestId)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    const q = await TestPlatform.create(t);
    const foreign = await walletWithSession(q);
    expectError(
      await send(p, 'post', path, body, signedHeaders(await stamp(foreign.session.key, payloadToSign), requestId)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expectError(await send(q, 'post', path, body), 404, 'SESSION_NOT_FOUND');
    // tampered stamp (its signature changed) and a malformed one
    const good = await stamp(own, payloadToSign);
    const decoded = JSON.parse(Buffer.from(good, 'base64url').toString('utf8')) as { signature: string };
    const flipped = decoded.signature.slice(0, -2) + (decoded.signature.endsWith('00') ? '01' : '00');
    const tampered = Buffer.from(JSON.stringify({ ...decoded, signature: flipped })).toString('base64url');
    const refused = await send(p, 'post', path, body, signedHeaders(tampered, requestId));
    expect(refused.status).toBe(401);
    expect(['WALLET_SIGNATURE_INVALID', 'WALLET_SIGNATURE_MALFORMED']).toContain(refused.body.code);
    expectError(
      await send(p, 'post', path, body, signedHeaders('not-a-stamp', requestId)),
      401,
      'WALLET_SIGNATURE_MALFORMED',
    );
    // the right one works once
    expect((await send(p, 'post', path, body, signedHeaders(good, requestId))).status).toBe(201);
    // a replayed signed retry (the OTP verify's) is refused
    const login = await p.post(`/auth/credentials/${w.credentialId}/challenge`, {});
    const loginKey = newWalletKey();
    const verifyBody = {
      type: 'EMAIL_OTP',
      encryptedOtpBundle: await sealOtp(p, '000000', login.body.otpEncryptionTargetBundle as string, loginKey),
    };
    const verifyPath = `/auth/credentials/${w.credentialId}/verify`;
    const leg = await p.post(verifyPath, verifyBody);
    const headers = signedHeaders(
      await stamp(loginKey, leg.body.payloadToSign as string),
      leg.body.requestId as string,
    );
    expect((await send(p, 'post', verifyPath, verifyBody, headers)).status).toBe(200);
    expectError(await send(p, 'post', verifyPath, verifyBody, headers), 401, 'WALLET_SIGNATURE_INVALID');

    // a revoked session's key signs nothing; an expired session's key neither
    const replacedKeyChallenge = await send(p, 'delete', `/auth/sessions/${w.session.id}`, undefined);
    expectError(
      await signedRetry(p, 'delete', `/auth/sessions/${w.session.id}`, undefined, own, replacedKeyChallenge),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    const late = await walletWithSession(p);
    expect((await p.post('/sandbox/clock/advance', { seconds: 15 * 60 })).status).toBe(200);
    const fresh = await otpLogin(p, late.credentialId, magic);
    const lateChallenge = await send(p, 'delete', `/auth/sessions/${fresh.id}`, undefined);
    expectError(
      await signedRetry(p, 'delete', `/auth/sessions/${fresh.id}`, undefined, late.session.key, lateChallenge),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
  });
});
