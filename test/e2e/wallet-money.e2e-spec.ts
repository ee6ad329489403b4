import { customerAccount } from '../support/fixtures.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import {
  newWalletKey,
  send,
  signedHeaders,
  stamp,
  walletWithSession,
  type TestWallet,
  type WalletSession,
} from '../support/wallet-client.js';

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

  it('a revoked session can no longer release a payment', async () => {
    const p = await TestPlatform.create(t);
    const w = await fundedWallet(p, 1_000);
    const created = await p.post('/quotes', quoteBody(w.accountId, w.fiatId, 500));
    expect(created.status).toBe(201);
    const payload = created.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign as string;
    const first = await send(p, 'delete', `/auth/sessions/${w.session.id}`, undefined);
    expect(first.status).toBe(202);
    const revoked = await send(
      p,
      'delete',
      `/auth/sessions/${w.session.id}`,
      undefined,
      signedHeaders(await stamp(w.session.key, first.body.payloadToSign), first.body.requestId),
    );
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
