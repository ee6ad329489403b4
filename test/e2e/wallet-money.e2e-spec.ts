import { decryptExportBundle, generateP256KeyPair, verifyStampSignature } from '@turnkey/crypto';
import { DataSource } from 'typeorm';
import { authorization } from '../support/card-transactions.js';
import { cardBody, postCard, provisioned } from '../support/cards.js';
import { customerAccount } from '../support/fixtures.js';
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
  send,
  signedHeaders,
  signedRetry,
  stamp,
  walletWithSession,
  type TestWallet,
  type WalletSession,
} from '../support/wallet-client.js';
import { wantOwnEvents } from '../support/own-events.js';

/**
 * Money from an embedded wallet (docs/embedded-wallets.md, "Paying from a wallet"): a quote on an
 * EMBEDDED_WALLET source carries the wallet's `payloadToSign`; `POST /quotes/{id}/execute` moves
 * money only with a live session key's stamp over it (401s otherwise, nothing moved);
 * `immediatelyExecute` is refused for such sources. And the wallet's privacy
 * (`PATCH /internal-accounts/{id}`) through the signed retry.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Wallet = TestWallet & { session: WalletSession };

async function fundedWallet(p: TestPlatform, amount: number): Promise<Wallet & { fiatId: string }> {
  const w = await walletWithSession(p);
  const kyc = await p.post(`/sandbox/customers/${w.customerId}/kyc`, { kycStatus: 'APPROVED' });
  expect(kyc.status).toBe(200);
  const funded = await p.post(`/sandbox/internal-accounts/${w.accountId}/fund`, { amount });
  expect(funded.status).toBe(200);
  expect(funded.body).toMatchObject({ type: 'EMBEDDED_WALLET', balance: { amount } });
  const fiat = await customerAccount(p, w.customerId);
  return { ...w, fiatId: fiat.id };
}

/** A card on the wallet and a delegated key on it (the three signed legs): the card's id and the 201. */
async function delegatedKey(p: TestPlatform, w: Wallet, nickname: string) {
  const issued = await postCard(p, cardBody(w.customerId, w.accountId));
  const cardId = (await provisioned(p, issued.body.id as string)).id;
  const keyBody = { cardId, internalAccountId: w.accountId, nickname };
  let res = await send(p, 'post', '/auth/delegated-keys', keyBody);
  for (let leg = 0; leg < 2; leg++)
    res = await signedRetry(p, 'post', '/auth/delegated-keys', keyBody, w.session.key, res);
  expect(res.status).toBe(201);
  return { cardId, res };
}

const quoteBody = (from: string, to: string, amount: number, extra: object = {}) => ({
  source: { sourceType: 'ACCOUNT', accountId: from },
  destination: { destinationType: 'ACCOUNT', accountId: to },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
});

const balanceOf = async (p: TestPlatform, accountId: string): Promise<number> => {
  const res = await p.get(`/customers/internal-accounts?type=EMBEDDED_WALLET`);
  expect(res.status).toBe(200);
  const hit = (res.body as { data: Array<{ id: string; balance: { amount: number } }> }).data.find(
    (a) => a.id === accountId,
  );
  if (hit) return hit.balance.amount;
  const fiat = await p.get(`/customers/internal-accounts?type=INTERNAL_FIAT`);
  return (fiat.body as { data: Array<{ id: string; balance: { amount: number } }> }).data.find(
    (a) => a.id === accountId,
  )!.balance.amount;
};

describe('paying from a wallet', () => {
  it('a quote carries the wallet payloadToSign; execute needs its stamp; refusals move nothing', async () => {
    const p = await TestPlatform.create(t);
    const w = await fundedWallet(p, 10_000);

    // immediatelyExecute cannot carry the stamp: refused, nothing created or moved.
    expect(
      invalidFields(await p.post('/quotes', quoteBody(w.accountId, w.fiatId, 2_500, { immediatelyExecute: true }))),
    ).toEqual(['immediatelyExecute']);

    const created = await p.post('/quotes', quoteBody(w.accountId, w.fiatId, 2_500));
    expect(created.status).toBe(201);
    const quote = created.body as {
      id: string;
      paymentInstructions: Array<{ accountOrWalletInfo: Record<string, string> }>;
    };
    expect(quote.paymentInstructions).toHaveLength(1);
    const info = quote.paymentInstructions[0].accountOrWalletInfo;
    expect(info.accountType).toBe('EMBEDDED_WALLET');
    const payload = info.payloadToSign;
    expect(JSON.parse(payload)).toMatchObject({
      type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
      parameters: { signWith: w.accountId, quoteId: quote.id, sendingAmount: { amount: '2500', currency: 'USD' } },
    });
    // The same text on every read (the client stamps it byte for byte).
    expect((await p.get(`/quotes/${quote.id}`)).body.paymentInstructions[0].accountOrWalletInfo.payloadToSign).toBe(
      payload,
    );

    const execute = (headers: Record<string, string> = {}) =>
      send(p, 'post', `/quotes/${quote.id}/execute`, {}, headers);
    expectError(await execute(), 401, 'WALLET_SIGNATURE_MISSING');
    expectError(await execute({ 'Grid-Wallet-Signature': 'not-a-stamp' }), 401, 'WALLET_SIGNATURE_MALFORMED');
    // A stamp over another text, and a stamp by a key that is no session of this wallet.
    expectError(
      await execute({ 'Grid-Wallet-Signature': await stamp(w.session.key, payload + ' ') }),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expectError(
      await execute({ 'Grid-Wallet-Signature': await stamp(newWalletKey(), payload) }),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    // Another wallet's live session cannot release this one's money.
    const other = await fundedWallet(p, 1);
    expectError(
      await execute({ 'Service-Wallet-Signature': await stamp(other.session.key, payload) }),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expect((await p.get(`/quotes/${quote.id}`)).body.status).toBe('PENDING');
    expect(await balanceOf(p, w.accountId)).toBe(10_000);
    expect(await balanceOf(p, w.fiatId)).toBe(0);

    // Another platform cannot see the quote at all.
    const q = await TestPlatform.create(t);
    expectError(
      await send(
        q,
        'post',
        `/quotes/${quote.id}/execute`,
        {},
        { 'Grid-Wallet-Signature': await stamp(w.session.key, payload) },
      ),
      404,
      'QUOTE_NOT_FOUND',
    );

    // The holder's stamp (the reference's header name): the payment goes through the one ledger path.
    const done = await execute({ 'Grid-Wallet-Signature': await stamp(w.session.key, payload) });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('COMPLETED');
    expect(await balanceOf(p, w.accountId)).toBe(7_500);
    expect(await balanceOf(p, w.fiatId)).toBe(2_500);
    const tx = await p.get(`/transactions/${done.body.transactionId}`);
    expect(tx.status).toBe(200);
    expect(tx.body.status).toBe('COMPLETED');
    // Executed once: the same stamp again is the quote's 409.
    expect((await execute({ 'Grid-Wallet-Signature': await stamp(w.session.key, payload) })).status).toBe(409);
  });

  it('race: the same signed execution twice at once moves the money once', async () => {
    const p = await TestPlatform.create(t);
    const w = await fundedWallet(p, 3_000);
    const created = await p.post('/quotes', quoteBody(w.accountId, w.fiatId, 2_000));
    expect(created.status).toBe(201);
    const payload = created.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign as string;
    const header = { 'Grid-Wallet-Signature': await stamp(w.session.key, payload) };
    const results = await Promise.all(
      [1, 2].map(() => send(p, 'post', `/quotes/${created.body.id}/execute`, {}, header)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await balanceOf(p, w.accountId)).toBe(1_000);
    expect(await balanceOf(p, w.fiatId)).toBe(2_000);
  });

  it('a revoked session can no longer release a payment', async () => {
    const p = await TestPlatform.create(t);
    const w = await fundedWallet(p, 1_000);
    const created = await p.post('/quotes', quoteBody(w.accountId, w.fiatId, 500));
    expect(created.status).toBe(201);
    const payload = created.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign as string;
    const first = await send(p, 'delete', `/auth/sessions/${w.session.id}`, undefined);
    expect(first.status).toBe(202);
    const revoked = await signedRetry(p, 'delete', `/auth/sessions/${w.session.id}`, undefined, w.session.key, first);
    expect(revoked.status).toBe(204);
    expectError(
      await send(
        p,
        'post',
        `/quotes/${created.body.id}/execute`,
        {},
        { 'Grid-Wallet-Signature': await stamp(w.session.key, payload) },
      ),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    expect(await balanceOf(p, w.accountId)).toBe(1_000);
  });

  it('quotes from ordinary accounts carry no wallet instructions and need no stamp', async () => {
    const p = await TestPlatform.create(t);
    const w = await fundedWallet(p, 1_000);
    const funded = await p.post(`/sandbox/internal-accounts/${w.fiatId}/fund`, { amount: 1_000 });
    expect(funded.status).toBe(200);
    const created = await p.post('/quotes', quoteBody(w.fiatId, w.accountId, 400, { immediatelyExecute: true }));
    expect(created.status).toBe(201);
    expect(created.body.paymentInstructions).toBeUndefined();
    expect(created.body.status).toBe('COMPLETED');
    expect(await balanceOf(p, w.accountId)).toBe(1_400);
  });
});

describe('wallet privacy: PATCH /internal-accounts/{id}', () => {
  it('202, then the signed retry sets privateEnabled; refusals change nothing', async () => {
    const p = await TestPlatform.create(t);
    const w = await walletWithSession(p);
    const body = { privateEnabled: true };
    expect(
      invalidFields(await send(p, 'patch', `/internal-accounts/${w.accountId}`, { privateEnabled: 'yes' })),
    ).toEqual(['privateEnabled']);
    const first = await send(p, 'patch', `/internal-accounts/${w.accountId}`, body);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({
      payloadToSign: expect.any(String),
      requestId: expect.stringMatching(/^Request:/),
      expiresAt: expect.any(String),
    });
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      parameters: { privateEnabled: true, walletId: w.accountId },
    });
    const sig = await stamp(w.session.key, first.body.payloadToSign);
    expectError(
      await send(
        p,
        'patch',
        `/internal-accounts/${w.accountId}`,
        { privateEnabled: false },
        signedHeaders(sig, first.body.requestId),
      ),
      401,
      'WALLET_SIGNATURE_BODY_MISMATCH',
    );
    expectError(
      await send(p, 'patch', `/internal-accounts/${w.accountId}`, body, { 'Service-Wallet-Signature': sig }),
      401,
      'REQUEST_ID_MISSING',
    );
    const listed = async () =>
      (
        (await p.get(`/customers/internal-accounts?customerId=${w.customerId}&type=EMBEDDED_WALLET`)).body as {
          data: Array<{ privateEnabled: boolean }>;
        }
      ).data[0].privateEnabled;
    expect(await listed()).toBe(false);
    const done = await send(
      p,
      'patch',
      `/internal-accounts/${w.accountId}`,
      body,
      signedHeaders(sig, first.body.requestId, 'Grid-Wallet-Signature'),
    );
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: w.accountId, type: 'EMBEDDED_WALLET', privateEnabled: true });
    expect(await listed()).toBe(true);
    // Single use.
    expectError(
      await send(p, 'patch', `/internal-accounts/${w.accountId}`, body, signedHeaders(sig, first.body.requestId)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );

    // Not a wallet: 409; another platform's wallet: 404.
    const fiat = await customerAccount(p, w.customerId);
    expect(
      (await p.get(`/customers/internal-accounts?customerId=${w.customerId}&type=INTERNAL_FIAT`)).body.data[0]
        .privateEnabled,
    ).toBeUndefined();
    expectError(await send(p, 'patch', `/internal-accounts/${fiat.id}`, body), 409, 'WALLET_NOT_PROVISIONED');
    const q = await TestPlatform.create(t);
    expectError(await send(q, 'patch', `/internal-accounts/${w.accountId}`, body), 404, 'ACCOUNT_NOT_FOUND');
  });
});

describe('PATCH /customers/{id}: a contact tied to a wallet OTP credential', () => {
  let n = 0;
  const phone = () => `+1206${String(process.pid % 1000).padStart(3, '0')}${String(++n).padStart(4, '0')}`;
  const fresh = () => `moved-${process.pid}-${++n}-${Math.random().toString(36).slice(2)}@example.com`;
  const credentialsOf = async (p: TestPlatform, accountId: string) =>
    (
      (await p.get(`/auth/credentials?accountId=${accountId}`)).body as {
        data: Array<{ id: string; type: string; nickname: string }>;
      }
    ).data;

  /** Adds the wallet's SMS_OTP credential (the customer's phone) by the signed retry. */
  async function addSms(p: TestPlatform, w: Wallet): Promise<string> {
    const body = { type: 'SMS_OTP', accountId: w.accountId };
    const first = await p.post('/auth/credentials', body);
    expect(first.status).toBe(202);
    const created = await signedRetry(p, 'post', '/auth/credentials', body, w.session.key, first);
    expect(created.status).toBe(201);
    return created.body.id as string;
  }

  it('202, then the signed retry changes the customer and the credential together', async () => {
    const p = await TestPlatform.create(t);
    const w = await walletWithSession(p);
    const to = fresh();
    const body = { customerType: 'INDIVIDUAL', email: to };
    const first = await p.patch(`/customers/${w.customerId}`, body);
    expect(first.status).toBe(202);
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
      parameters: { userEmail: to, userId: w.customerId },
    });
    expect((await p.get(`/customers/${w.customerId}`)).body.email).toBe(w.email);
    const sig = await stamp(w.session.key, first.body.payloadToSign);
    expectError(
      await send(
        p,
        'patch',
        `/customers/${w.customerId}`,
        { ...body, email: fresh() },
        signedHeaders(sig, first.body.requestId),
      ),
      401,
      'WALLET_SIGNATURE_BODY_MISMATCH',
    );
    expectError(
      await send(p, 'patch', `/customers/${w.customerId}`, body, { 'Request-Id': first.body.requestId }),
      401,
      'WALLET_SIGNATURE_MISSING',
    );
    expect((await p.get(`/customers/${w.customerId}`)).body.email).toBe(w.email);
    const done = await send(
      p,
      'patch',
      `/customers/${w.customerId}`,
      body,
      signedHeaders(sig, first.body.requestId, 'Grid-Wallet-Signature'),
    );
    expect(done.status).toBe(200);
    expect(done.body.email).toBe(to);
    expect((await credentialsOf(p, w.accountId)).find((c) => c.type === 'EMAIL_OTP')!.nickname).toBe(to);
    // Other fields and untied contacts stay one-step.
    const plain = await p.patch(`/customers/${w.customerId}`, { customerType: 'INDIVIDUAL', phoneNumber: phone() });
    expect(plain.status).toBe(200);
  });

  it('409 *_CREDENTIAL_SET_CHANGED when the OTP credentials moved in between; nothing changes', async () => {
    const p = await TestPlatform.create(t);
    const w = await walletWithSession(p, { phoneNumber: phone() });
    const body = { customerType: 'INDIVIDUAL', email: fresh() };
    const first = await p.patch(`/customers/${w.customerId}`, body);
    expect(first.status).toBe(202);
    await addSms(p, w);
    expectError(
      await signedRetry(p, 'patch', `/customers/${w.customerId}`, body, w.session.key, first),
      409,
      'SMS_OTP_CREDENTIAL_SET_CHANGED',
    );
    expect((await p.get(`/customers/${w.customerId}`)).body.email).toBe(w.email);

    // The phone (now tied to the SMS_OTP credential); then the EMAIL_OTP credential is revoked in between.
    const phoneBody = { customerType: 'INDIVIDUAL', phoneNumber: phone() };
    const second = await p.patch(`/customers/${w.customerId}`, phoneBody);
    expect(second.status).toBe(202);
    expect(JSON.parse(second.body.payloadToSign).type).toBe('ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER');
    const smsId = (await credentialsOf(p, w.accountId)).find((c) => c.type === 'SMS_OTP')!.id;
    const smsSession = await otpLogin(p, smsId, () => '000000');
    const revoke = await send(p, 'delete', `/auth/credentials/${w.credentialId}`, undefined);
    expect(revoke.status).toBe(202);
    const revoked = await signedRetry(
      p,
      'delete',
      `/auth/credentials/${w.credentialId}`,
      undefined,
      smsSession.key,
      revoke,
    );
    expect(revoked.status).toBe(204);
    const before = (await p.get(`/customers/${w.customerId}`)).body.phoneNumber;
    expectError(
      await signedRetry(p, 'patch', `/customers/${w.customerId}`, phoneBody, smsSession.key, second),
      409,
      'EMAIL_OTP_CREDENTIAL_SET_CHANGED',
    );
    expect((await p.get(`/customers/${w.customerId}`)).body.phoneNumber).toBe(before);
  });

  it("409 *_ALREADY_EXISTS when the new contact is another wallet's", async () => {
    const p = await TestPlatform.create(t);
    const a = await walletWithSession(p, { phoneNumber: phone() });
    const b = await walletWithSession(p, { phoneNumber: phone() });
    expectError(
      await p.patch(`/customers/${a.customerId}`, { customerType: 'INDIVIDUAL', email: b.email }),
      409,
      'EMAIL_OTP_EMAIL_ALREADY_EXISTS',
    );
    await addSms(p, a);
    await addSms(p, b);
    const bPhone = (await p.get(`/customers/${b.customerId}`)).body.phoneNumber as string;
    expectError(
      await p.patch(`/customers/${a.customerId}`, { customerType: 'INDIVIDUAL', phoneNumber: bPhone }),
      409,
      'SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS',
    );
    // Another platform's customer: 404.
    const q = await TestPlatform.create(t);
    expectError(
      await q.patch(`/customers/${a.customerId}`, { customerType: 'INDIVIDUAL', email: fresh() }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
  });
});

describe('export: POST /internal-accounts/{id}/export', () => {
  it('the signed retry answers the wallet credentials HPKE-encrypted to clientPublicKey; the client decrypts them', async () => {
    const p = await TestPlatform.create(t);
    const w = await walletWithSession(p);
    const client = generateP256KeyPair();
    const body = { clientPublicKey: client.publicKeyUncompressed };
    expect(
      invalidFields(
        await send(p, 'post', `/internal-accounts/${w.accountId}/export`, { clientPublicKey: '04' + 'ab'.repeat(64) }),
      ),
    ).toEqual(['clientPublicKey']);
    const first = await send(p, 'post', `/internal-accounts/${w.accountId}/export`, body);
    expect(first.status).toBe(202);
    expect(JSON.parse(first.body.payloadToSign)).toMatchObject({
      type: 'ACTIVITY_TYPE_EXPORT_WALLET',
      parameters: { targetPublicKey: client.publicKeyUncompressed, walletId: w.accountId },
    });
    const sig = await stamp(w.session.key, first.body.payloadToSign);
    // Another key on the retry: refused (the challenge bound the first one).
    expectError(
      await send(
        p,
        'post',
        `/internal-accounts/${w.accountId}/export`,
        { clientPublicKey: generateP256KeyPair().publicKeyUncompressed },
        signedHeaders(sig, first.body.requestId),
      ),
      401,
      'WALLET_SIGNATURE_BODY_MISMATCH',
    );
    const q = await TestPlatform.create(t);
    expectError(await send(q, 'post', `/internal-accounts/${w.accountId}/export`, body), 404, 'ACCOUNT_NOT_FOUND');
    const done = await send(
      p,
      'post',
      `/internal-accounts/${w.accountId}/export`,
      body,
      signedHeaders(sig, first.body.requestId, 'Grid-Wallet-Signature'),
    );
    expect(done.status).toBe(200);
    expect(done.body.id).toBe(w.accountId);
    const mnemonic = await decryptExportBundle({
      exportBundle: done.body.encryptedWalletCredentials,
      embeddedKey: client.privateKey,
      organizationId: p.platformId,
      dangerouslyOverrideSignerPublicKey: await enclaveKey(p),
      returnMnemonic: true,
    });
    expect(mnemonic.split(' ')).toHaveLength(12);
    // Single use; a second export (another key) answers the same wallet secret.
    expectError(
      await send(p, 'post', `/internal-accounts/${w.accountId}/export`, body, signedHeaders(sig, first.body.requestId)),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    const other = generateP256KeyPair();
    const again = await send(p, 'post', `/internal-accounts/${w.accountId}/export`, {
      clientPublicKey: other.publicKeyUncompressed,
    });
    const second = await signedRetry(
      p,
      'post',
      `/internal-accounts/${w.accountId}/export`,
      { clientPublicKey: other.publicKeyUncompressed },
      w.session.key,
      again,
    );
    expect(second.status).toBe(200);
    expect(
      await decryptExportBundle({
        exportBundle: second.body.encryptedWalletCredentials,
        embeddedKey: other.privateKey,
        organizationId: p.platformId,
        dangerouslyOverrideSignerPublicKey: await enclaveKey(p),
        returnMnemonic: true,
      }),
    ).toBe(mnemonic);
    // The first client's key cannot read the second bundle.
    await expect(
      decryptExportBundle({
        exportBundle: second.body.encryptedWalletCredentials,
        embeddedKey: client.privateKey,
        organizationId: p.platformId,
        dangerouslyOverrideSignerPublicKey: await enclaveKey(p),
        returnMnemonic: true,
      }),
    ).rejects.toThrow();
  });
});

describe('delegated keys for a card funded by a wallet', () => {
  async function walletCard(p: TestPlatform) {
    const w = await fundedWallet(p, 10_000);
    const issued = await postCard(p, cardBody(w.customerId, w.accountId));
    expect(issued.status).toBe(201);
    const card = await provisioned(p, issued.body.id as string);
    expect(card.status).toBe('ACTIVE');
    return { w, cardId: card.id };
  }

  /** The three legs: 202, signed 202 (PENDING), signed 201 (ACTIVE). */
  async function createKey(p: TestPlatform, w: Wallet, cardId: string, nickname = 'Card payments key') {
    const body = { cardId, internalAccountId: w.accountId, nickname };
    const first = await send(p, 'post', '/auth/delegated-keys', body);
    expect(first.status).toBe(202);
    const second = await signedRetry(p, 'post', '/auth/delegated-keys', body, w.session.key, first);
    expect(second.status).toBe(202);
    expect(second.body.requestId).not.toBe(first.body.requestId);
    return { body, second };
  }

  it('three legs make an ACTIVE key; one ACTIVE per funding source; authorizations are signed with it; revoke', async () => {
    const p = await TestPlatform.create(t);
    const { w, cardId } = await walletCard(p);

    // No ACTIVE key: the wallet cannot fund the card's authorizations.
    const before = await p.post(`/sandbox/cards/${cardId}/simulate/authorization`, authorization(500));
    expect(before.status).toBe(202);
    expect(before.body.cardTransaction).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'NO_ELIGIBLE_FUNDING_SOURCE',
    });

    const { body, second } = await createKey(p, w, cardId);
    const pending = (await p.get(`/auth/delegated-keys?accountId=${w.accountId}`)).body.data;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      cardId,
      accountId: w.accountId,
      status: 'PENDING',
      nickname: 'Card payments key',
    });
    expect(pending[0].publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(JSON.stringify(pending[0])).not.toMatch(/privateKey|private_key/);
    // A stamp by another key on the last leg: refused, the key stays PENDING.
    expectError(
      await signedRetry(p, 'post', '/auth/delegated-keys', body, newWalletKey(), second),
      401,
      'WALLET_SIGNATURE_INVALID',
    );
    const done = await send(
      p,
      'post',
      '/auth/delegated-keys',
      body,
      signedHeaders(
        await stamp(w.session.key, second.body.payloadToSign),
        second.body.requestId,
        'Grid-Wallet-Signature',
      ),
    );
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ id: pending[0].id, status: 'ACTIVE', publicKey: pending[0].publicKey });
    expect((await p.get(`/auth/delegated-keys/${done.body.id}`)).body.status).toBe('ACTIVE');
    expect((await p.get(`/auth/delegated-keys?fundingSourceId=${done.body.fundingSourceId}`)).body.data).toHaveLength(
      1,
    );

    // At most one ACTIVE per funding source.
    expectError(await send(p, 'post', '/auth/delegated-keys', body), 409, 'CONFLICT');

    // The card's authorization is approved, signed by the delegated key, and the signature recorded.
    const approved = await p.post(`/sandbox/cards/${cardId}/simulate/authorization`, authorization(700));
    expect(approved.status).toBe(202);
    expect(approved.body.cardTransaction.status).toBe('AUTHORIZED');
    const db = t.app.get(DataSource);
    const [row] = await db.query(`SELECT wallet_authorization FROM card_transactions WHERE id = $1`, [
      (approved.body.cardTransaction.id as string).replace(/^Transaction:/, ''),
    ]);
    const signed = row.wallet_authorization as { delegatedKeyId: string; payload: string; stamp: string };
    expect(signed.delegatedKeyId).toBe(done.body.id);
    expect(JSON.parse(signed.payload)).toMatchObject({ parameters: { cardId, amount: '700', signWith: w.accountId } });
    const parsed = JSON.parse(Buffer.from(signed.stamp, 'base64url').toString()) as {
      publicKey: string;
      signature: string;
    };
    expect(parsed.publicKey).toBe(done.body.publicKey);
    expect(await verifyStampSignature(parsed.publicKey, parsed.signature, signed.payload)).toBe(true);

    // Another platform sees nothing.
    const q = await TestPlatform.create(t);
    expectError(await q.get(`/auth/delegated-keys/${done.body.id}`), 404, 'NOT_FOUND');
    expectError(await send(q, 'delete', `/auth/delegated-keys/${done.body.id}`, undefined), 404, 'NOT_FOUND');
    expect((await q.get(`/auth/delegated-keys?accountId=${w.accountId}`)).body.data).toEqual([]);

    // Revoke: 204; again 400; authorizations are declined again; a new key can be made.
    expect((await send(p, 'delete', `/auth/delegated-keys/${done.body.id}`, undefined)).status).toBe(204);
    expectError(await send(p, 'delete', `/auth/delegated-keys/${done.body.id}`, undefined), 400, 'INVALID_INPUT');
    const after = await p.post(`/sandbox/cards/${cardId}/simulate/authorization`, authorization(100));
    expect(after.body.cardTransaction).toMatchObject({
      status: 'DECLINED',
      cardDeclinedReason: 'NO_ELIGIBLE_FUNDING_SOURCE',
    });
    await createKey(p, w, cardId, 'second');
  });

  it('race: two keys completing their last leg at once: one ACTIVE, the other 409 and still PENDING', async () => {
    const p = await TestPlatform.create(t);
    const { w, cardId } = await walletCard(p);
    const a = await createKey(p, w, cardId, 'a');
    const b = await createKey(p, w, cardId, 'b');
    const finish = async (leg: { body: object; second: { body: { payloadToSign: string; requestId: string } } }) =>
      signedRetry(p, 'post', '/auth/delegated-keys', leg.body, w.session.key, leg.second);
    const results = await Promise.all([finish(a), finish(b)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const keys = (await p.get(`/auth/delegated-keys?accountId=${w.accountId}`)).body.data as Array<{ status: string }>;
    expect(keys.map((k) => k.status).sort()).toEqual(['ACTIVE', 'PENDING']);
  });

  it('refusals: not a wallet, not its card, bad bodies', async () => {
    const p = await TestPlatform.create(t);
    const { w, cardId } = await walletCard(p);
    expect(
      invalidFields(await send(p, 'post', '/auth/delegated-keys', { cardId: 'x', internalAccountId: w.accountId })),
    ).toEqual(['cardId', 'nickname']);
    expectError(
      await send(p, 'post', '/auth/delegated-keys', { cardId, internalAccountId: w.fiatId, nickname: 'k' }),
      409,
      'WALLET_NOT_PROVISIONED',
    );
    const other = await walletWithSession(p);
    expectError(
      await send(p, 'post', '/auth/delegated-keys', { cardId, internalAccountId: other.accountId, nickname: 'k' }),
      404,
      'NOT_FOUND',
    );
    expect(invalidFields(await p.get('/auth/delegated-keys'))).toEqual(['accountId']);
  });
});

describe('delegated key events (an own type: opt-in)', () => {
  it('DELEGATED_KEY.* data is the key as GET /auth/delegated-keys/{id} renders it (fundingSourceId, nickname)', async () => {
    const { recordedEvents } = await import('../support/events.js');
    const p = await wantOwnEvents(await TestPlatform.create(t), ['DELEGATED_KEY.*']);
    const w = await fundedWallet(p, 1_000);
    const { res } = await delegatedKey(p, w, 'checkout key');
    const active = (await p.get(`/auth/delegated-keys/${res.body.id}`)).body as Record<string, unknown>;
    expect((await send(p, 'delete', `/auth/delegated-keys/${res.body.id}`, undefined)).status).toBe(204);
    const revoked = (await p.get(`/auth/delegated-keys/${res.body.id}`)).body as Record<string, unknown>;
    const events = (await recordedEvents(p)).filter((e) => e.type.startsWith('DELEGATED_KEY.'));
    expect(events.map((e) => e.type)).toEqual([
      'DELEGATED_KEY.CREATED',
      'DELEGATED_KEY.ACTIVATED',
      'DELEGATED_KEY.REVOKED',
    ]);
    expect(events[1].data).toEqual(active);
    expect(events[2].data).toEqual(revoked);
    expect(events[0].data).toEqual({ ...active, status: 'PENDING', updatedAt: events[0].data.updatedAt });
    expect(active).toMatchObject({
      nickname: 'checkout key',
      fundingSourceId: expect.stringMatching(/^CardFundingSource:/),
    });
  });
});

describe('secrecy', () => {
  it('no mnemonic, delegated private key or session key in logs, events or audit; the events are written', async () => {
    const { SecretBox } = await import('../../src/secrets/secret-box.js');
    const { recordedEvents } = await import('../support/events.js');
    const logged = await startLoggedTestApp();
    try {
      const p = (await wantOwnEvents(await TestPlatform.create(t))).on(logged);
      const w = await fundedWallet(p, 10_000);
      // export
      const client = generateP256KeyPair();
      const body = { clientPublicKey: client.publicKeyUncompressed };
      const first = await send(p, 'post', `/internal-accounts/${w.accountId}/export`, body);
      const done = await signedRetry(p, 'post', `/internal-accounts/${w.accountId}/export`, body, w.session.key, first);
      expect(done.status).toBe(200);
      const mnemonic = await decryptExportBundle({
        exportBundle: done.body.encryptedWalletCredentials,
        embeddedKey: client.privateKey,
        organizationId: p.platformId,
        dangerouslyOverrideSignerPublicKey: await enclaveKey(p),
        returnMnemonic: true,
      });
      // a delegated key, an authorization signed with it, its revocation
      const { cardId, res } = await delegatedKey(p, w, 'k');
      const auth = await p.post(`/sandbox/cards/${cardId}/simulate/authorization`, authorization(300));
      expect(auth.body.cardTransaction.status).toBe('AUTHORIZED');
      expect((await send(p, 'delete', `/auth/delegated-keys/${res.body.id}`, undefined)).status).toBe(204);

      const events = await recordedEvents(p);
      const types = events.map((e) => e.type);
      for (const type of [
        'INTERNAL_ACCOUNT.EXPORTED',
        'DELEGATED_KEY.CREATED',
        'DELEGATED_KEY.ACTIVATED',
        'DELEGATED_KEY.REVOKED',
      ])
        expect(types).toContain(type);
      const db = t.app.get(DataSource);
      const box = t.app.get(SecretBox);
      const uuid = p.platformId.replace(/^Platform:/, '');
      const audit = JSON.stringify(await db.query('SELECT * FROM audit_events WHERE platform_id = $1', [uuid]));
      for (const action of ['exportInternalAccount', 'createDelegatedKey', 'revokeDelegatedKey'])
        expect(audit).toContain(action);
      const [key] = await db.query<Array<{ private_key_enc: string }>>(
        `SELECT private_key_enc FROM wallet_delegated_keys WHERE platform_id = $1`,
        [uuid],
      );
      const [seed] = await db.query<Array<{ mnemonic_enc: string }>>(
        `SELECT mnemonic_enc FROM wallet_seeds WHERE platform_id = $1`,
        [uuid],
      );
      expect(box.open(seed.mnemonic_enc)).toBe(mnemonic);
      const haystacks = { logs: logged.logs(), events: JSON.stringify(events), audit };
      expect(haystacks.logs).toContain('/auth/delegated-keys');
      for (const [where, haystack] of Object.entries(haystacks))
        for (const secret of [mnemonic, box.open(key.private_key_enc), w.session.key.privateKey, client.privateKey])
          expect({ where, secret: secret.slice(0, 6), found: haystack.includes(secret) }).toEqual({
            where,
            secret: secret.slice(0, 6),
            found: false,
          });
    } finally {
      await logged.close();
    }
  });
});
