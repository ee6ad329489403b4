import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseId } from '../../src/common/ids.js';
import {
  SANDBOX_RETURNED_ACCOUNT_NUMBER,
  SANDBOX_SLOW_ACCOUNT_NUMBER,
} from '../../src/external-accounts/bank-validation.js';
import { BankValidationWorker } from '../../src/external-accounts/bank-validation.worker.js';
import { exampleAccountInfo } from '../../src/external-accounts/variants/index.js';
import { recordedEvents } from '../support/events.js';
import { fundedAccount, newCustomer } from '../support/fixtures.js';
import { platformQuote } from '../support/payments.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * External account verification (docs/external-accounts.md): wallet ownership by signature
 * (real keys: viem for EVM, @noble/curves Ed25519 for Solana), US bank account validation by
 * micro-entry over a return window on the platform's clock, and bank accounts linked through Plaid.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const advance = async (p: TestPlatform, seconds: number) =>
  expect((await p.post('/sandbox/clock/advance', { seconds })).status).toBe(200);
const statusEvents = async (p: TestPlatform) =>
  (await recordedEvents(p, 'EXTERNAL_ACCOUNT.STATUS_UPDATED')).map((e) => ({
    id: e.data.id,
    status: e.data.status,
  }));

/** A platform subject to counterparty requirements: self-custody wallets start PENDING_OWNERSHIP_VERIFICATION. */
async function travelRulePlatform(): Promise<TestPlatform> {
  const p = await TestPlatform.create(t);
  expect((await p.patch('/config', { counterpartyRequirements: true })).status).toBe(200);
  return p;
}

async function evmWallet(p: TestPlatform, ownershipType = 'FIRST_PARTY') {
  const signer = privateKeyToAccount(generatePrivateKey());
  const res = await p.post('/platform/external-accounts', {
    currency: 'USDC',
    ownershipType,
    accountInfo: { accountType: 'ETHEREUM_WALLET', address: signer.address },
  });
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
  return { signer, id: res.body.id as string, path: `/platform/external-accounts/${res.body.id}` };
}

describe('wallet ownership: challenge, then verify', () => {
  it('an EVM wallet signs the challenge (EIP-191): ACTIVE, one webhook per transition, and the challenge is used up', async () => {
    const p = await travelRulePlatform();
    const { signer, id, path } = await evmWallet(p);

    const challenge = await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    expect(challenge.status).toBe(201);
    expect(challenge.body).toEqual({
      method: 'WALLET_SIGNATURE',
      messageToSign: expect.stringContaining(signer.address),
      expiresAt: expect.stringMatching(/Z$/),
    });
    const signature = await signer.signMessage({ message: challenge.body.messageToSign });
    const verified = await p.post(`${path}/verify`, { signature });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id, status: 'ACTIVE', ownershipType: 'FIRST_PARTY' });
    expect((await p.get(path)).body).toEqual(verified.body);

    // Single use: the same signature again finds no outstanding challenge.
    expectError(await p.post(`${path}/verify`, { signature }), 409, 'CONFLICT');
    // Verified: a new challenge no longer applies.
    expectError(await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' }), 409, 'CONFLICT');
    expect(await statusEvents(p)).toEqual([{ id, status: 'ACTIVE' }]);
  });

  it('a signature by another key is 400 and leaves the account UNVERIFIED; a new challenge retries', async () => {
    const p = await travelRulePlatform();
    const { signer, id, path } = await evmWallet(p);
    const first = await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    const impostor = privateKeyToAccount(generatePrivateKey());
    const wrong = await p.post(`${path}/verify`, {
      signature: await impostor.signMessage({ message: first.body.messageToSign }),
    });
    expect(expectError(wrong, 400, 'INVALID_INPUT').details!.errors).toEqual([
      expect.objectContaining({ field: 'signature' }),
    ]);
    expect((await p.get(path)).body.status).toBe('UNVERIFIED');
    // A malformed signature is the same 400, never a 5xx.
    const second = await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    expect((await p.get(path)).body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    expectError(await p.post(`${path}/verify`, { signature: 'not-a-signature' }), 400, 'INVALID_INPUT');
    const third = await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    expect(third.body.messageToSign).not.toEqual(second.body.messageToSign);
    // The message of an abandoned challenge no longer verifies: only the latest one counts.
    const stale = await p.post(`${path}/verify`, {
      signature: await signer.signMessage({ message: second.body.messageToSign }),
    });
    expectError(stale, 400, 'INVALID_INPUT');
    const fourth = await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    const ok = await p.post(`${path}/verify`, {
      signature: await signer.signMessage({ message: fourth.body.messageToSign }),
    });
    expect(ok.body.status).toBe('ACTIVE');
    expect(await statusEvents(p)).toEqual([
      { id, status: 'UNVERIFIED' },
      { id, status: 'PENDING_OWNERSHIP_VERIFICATION' },
      { id, status: 'UNVERIFIED' },
      { id, status: 'PENDING_OWNERSHIP_VERIFICATION' },
      { id, status: 'UNVERIFIED' },
      { id, status: 'PENDING_OWNERSHIP_VERIFICATION' },
      { id, status: 'ACTIVE' },
    ]);
  });

  it('the challenge expires on the platform clock: after 15 minutes the right signature is refused', async () => {
    const p = await travelRulePlatform();
    const { signer, path } = await evmWallet(p);
    const challenge = await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    await advance(p, 15 * 60 + 1);
    const late = await p.post(`${path}/verify`, {
      signature: await signer.signMessage({ message: challenge.body.messageToSign }),
    });
    expect(expectError(late, 400, 'INVALID_INPUT').details!.errors).toEqual([
      expect.objectContaining({ field: 'signature', message: expect.stringContaining('expired') }),
    ]);
    expect((await p.get(path)).body.status).toBe('UNVERIFIED');
  });

  it("a customer's Solana wallet signs with Ed25519 (base58 signature)", async () => {
    const p = await travelRulePlatform();
    const c = await newCustomer(p);
    const secretKey = ed25519.utils.randomSecretKey();
    const address = base58.encode(ed25519.getPublicKey(secretKey));
    const created = await p.post('/customers/external-accounts', {
      customerId: c.id,
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'SOLANA_WALLET', address },
    });
    expect(created.body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const path = `/customers/external-accounts/${created.body.id}`;
    // The customer's account is not the platform's.
    expectError(
      await p.post(`/platform/external-accounts/${created.body.id}/challenge`, { method: 'WALLET_SIGNATURE' }),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    const challenge = await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    expect(challenge.status).toBe(201);
    const signature = base58.encode(ed25519.sign(new TextEncoder().encode(challenge.body.messageToSign), secretKey));
    const verified = await p.post(`${path}/verify`, { signature });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ customerId: c.id, status: 'ACTIVE' });
  });

  it('where it does not apply: 409 CONFLICT; unknown or foreign ids 404; bad bodies 400', async () => {
    const p = await travelRulePlatform();
    const other = await TestPlatform.create(t);
    const bank = await p.post('/platform/external-accounts', {
      currency: 'EUR',
      accountInfo: exampleAccountInfo('EUR_ACCOUNT', 71),
    });
    expectError(
      await p.post(`/platform/external-accounts/${bank.body.id}/challenge`, { method: 'WALLET_SIGNATURE' }),
      409,
      'CONFLICT',
    );
    const thirdParty = await evmWallet(p, 'THIRD_PARTY');
    expectError(await p.post(`${thirdParty.path}/challenge`, { method: 'WALLET_SIGNATURE' }), 409, 'CONFLICT');
    const mine = await evmWallet(p);
    expectError(await p.post(`${mine.path}/verify`, { signature: '0x00' }), 409, 'CONFLICT');
    expectError(await other.post(`${mine.path}/challenge`, { method: 'WALLET_SIGNATURE' }), 404, 'ACCOUNT_NOT_FOUND');
    expectError(await p.post(`${mine.path}/challenge`, { method: 'SELFIE' }), 400, 'INVALID_INPUT');
    expectError(await p.post(`${mine.path}/challenge`, { method: 'LIVENESS' }), 400, 'INVALID_INPUT');
    expectError(await p.post(`${mine.path}/verify`, {}), 400, 'INVALID_INPUT');
    expectError(
      await p.post(`/platform/external-accounts/bob/challenge`, { method: 'WALLET_SIGNATURE' }),
      400,
      'INVALID_INPUT',
    );
  });

  it('unverified, it receives below EUR 1,000 only (EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED above); verified, any amount', async () => {
    const p = await travelRulePlatform();
    const { customer, account } = await fundedAccount(p, 1_000_000);
    const signer = privateKeyToAccount(generatePrivateKey());
    const created = await p.post('/customers/external-accounts', {
      customerId: customer.id,
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'BASE_WALLET', address: signer.address },
    });
    const path = `/customers/external-accounts/${created.body.id}`;
    // $500 is about EUR 460: below the threshold, allowed while ownership is pending.
    expect((await p.post('/quotes', platformQuote(account.id, created.body.id, 50_000))).status).toBe(201);
    // $2,000 is about EUR 1,840: above it.
    const above = expectError(
      await p.post('/quotes', platformQuote(account.id, created.body.id, 200_000)),
      400,
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
    );
    expect(above.details).toEqual({
      accountId: created.body.id,
      status: 'PENDING_OWNERSHIP_VERIFICATION',
      thresholdAmount: 100_000,
      thresholdCurrency: 'EUR',
    });
    const challenge = await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    await p.post(`${path}/verify`, { signature: await signer.signMessage({ message: challenge.body.messageToSign }) });
    expect((await p.post('/quotes', platformQuote(account.id, created.body.id, 200_000))).status).toBe(201);
  });

  it('UNVERIFIED (a failed attempt) receives nothing until verified', async () => {
    const p = await travelRulePlatform();
    const { customer, account } = await fundedAccount(p, 1_000_000);
    const signer = privateKeyToAccount(generatePrivateKey());
    const created = await p.post('/customers/external-accounts', {
      customerId: customer.id,
      currency: 'USDC',
      ownershipType: 'FIRST_PARTY',
      accountInfo: { accountType: 'BASE_WALLET', address: signer.address },
    });
    const path = `/customers/external-accounts/${created.body.id}`;
    await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    expectError(await p.post(`${path}/verify`, { signature: '0x1234' }), 400, 'INVALID_INPUT');
    expectError(
      await p.post('/quotes', platformQuote(account.id, created.body.id, 1000)),
      400,
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
    );
  });

  it('concurrent verifies with one valid signature: exactly one succeeds', async () => {
    const p = await travelRulePlatform();
    const { signer, path } = await evmWallet(p);
    const challenge = await p.post(`${path}/challenge`, { method: 'WALLET_SIGNATURE' });
    const signature = await signer.signMessage({ message: challenge.body.messageToSign });
    const answers = await Promise.all(Array.from({ length: 5 }, () => p.post(`${path}/verify`, { signature })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
  });
});

describe('US bank account validation by micro-entry', () => {
  const usd = (customerId: string, accountNumber: string) => ({
    customerId,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber,
      routingNumber: '123456789',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe', birthDate: '1990-01-15', nationality: 'US' },
    },
  });
  const runWorker = (p: TestPlatform) =>
    t.app.get(BankValidationWorker).runOnce({ platformId: parseId('Platform', p.platformId)! });

  it('PENDING for the return window (409 BANK_ACCOUNT_VALIDATION_PENDING on payment), ACTIVE once it closes', async () => {
    const p = await TestPlatform.create(t);
    const { customer, account } = await fundedAccount(p, 1_000_000);
    const created = await p.post('/customers/external-accounts', usd(customer.id, SANDBOX_SLOW_ACCOUNT_NUMBER));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'PENDING', beneficiaryVerificationStatus: 'CHECKED_BY_RECEIVING_FI' });
    const pending = expectError(
      await p.post('/quotes', platformQuote(account.id, created.body.id, 1000)),
      409,
      'BANK_ACCOUNT_VALIDATION_PENDING',
    );
    expect(pending.details).toMatchObject({ accountId: created.body.id });
    const completesAt = Date.parse(pending.details!.validationCompletesAt as string);
    const now = Date.parse((await p.get('/sandbox/clock')).body.time);
    // Two banking days: at least two calendar days, at most four (over a weekend).
    expect(completesAt - now).toBeGreaterThanOrEqual(2 * 86_400_000 - 60_000);
    expect(completesAt - now).toBeLessThanOrEqual(4 * 86_400_000);

    expect(await runWorker(p)).toBe(0); // the window is still open
    await advance(p, 86_400);
    expect(await runWorker(p)).toBe(0);
    await advance(p, 3 * 86_400);
    expect(await runWorker(p)).toBe(1);
    expect((await p.get(`/customers/external-accounts/${created.body.id}`)).body).toEqual({
      ...created.body,
      status: 'ACTIVE',
    });
    expect(await statusEvents(p)).toEqual([{ id: created.body.id, status: 'ACTIVE' }]);
    expect((await p.post('/quotes', platformQuote(account.id, created.body.id, 1000))).status).toBe(201);
  });

  it('a returned micro-entry (sandbox magic number) fails the account for good: INACTIVE, 400 INVALID_BANK_ACCOUNT', async () => {
    const p = await TestPlatform.create(t);
    const { customer, account } = await fundedAccount(p, 1_000_000);
    const created = await p.post('/customers/external-accounts', usd(customer.id, SANDBOX_RETURNED_ACCOUNT_NUMBER));
    expect(created.body.status).toBe('PENDING');
    expectError(
      await p.post('/quotes', platformQuote(account.id, created.body.id, 1000)),
      409,
      'BANK_ACCOUNT_VALIDATION_PENDING',
    );
    await advance(p, 5 * 86_400);
    expect(await runWorker(p)).toBe(1);
    expect((await p.get(`/customers/external-accounts/${created.body.id}`)).body.status).toBe('INACTIVE');
    expect(await statusEvents(p)).toEqual([{ id: created.body.id, status: 'INACTIVE' }]);
    expectError(await p.post('/quotes', platformQuote(account.id, created.body.id, 1000)), 400, 'INVALID_BANK_ACCOUNT');
    expectError(
      await p.post('/transfer-in', {
        source: { accountId: created.body.id },
        destination: { accountId: account.id },
        amount: 1000,
      }),
      400,
      'INVALID_BANK_ACCOUNT',
    );
  });

  it("the platform's own US account is validated the same way; any other number is ACTIVE at once", async () => {
    const p = await TestPlatform.create(t);
    const platformBody = (accountNumber: string) => {
      const { currency, accountInfo } = usd('', accountNumber);
      return { currency, accountInfo };
    };
    const platformAccount = await p.post('/platform/external-accounts', platformBody(SANDBOX_SLOW_ACCOUNT_NUMBER));
    expect(platformAccount.body.status).toBe('PENDING');
    const key = `bank-${Math.random()}`;
    const keyed = await p
      .post('/platform/external-accounts', platformBody(SANDBOX_RETURNED_ACCOUNT_NUMBER))
      .set('Idempotency-Key', key);
    expect(keyed.body.status).toBe('PENDING');
    const replay = await p
      .post('/platform/external-accounts', platformBody(SANDBOX_RETURNED_ACCOUNT_NUMBER))
      .set('Idempotency-Key', key);
    expect(replay.body).toEqual(keyed.body);
    const c = await newCustomer(p);
    const instant = await p.post('/customers/external-accounts', usd(c.id, '12345678901'));
    expect(instant.body.status).toBe('ACTIVE');
    await advance(p, 5 * 86_400);
    expect(await runWorker(p)).toBe(2);
    expect((await p.get(`/platform/external-accounts/${platformAccount.body.id}`)).body.status).toBe('ACTIVE');
    expect((await p.get(`/platform/external-accounts/${keyed.body.id}`)).body.status).toBe('INACTIVE');
  });
});

describe('Plaid', () => {
  it('link token, then the public token: a verified, ACTIVE USD account with the owner Plaid verified', async () => {
    const p = await TestPlatform.create(t);
    const c = await newCustomer(p);
    const link = await p.post('/plaid/link-tokens', { customerId: c.id });
    expect(link.status).toBe(201);
    expect(link.body).toEqual({
      linkToken: expect.stringMatching(/^link-sandbox-/),
      expiration: expect.stringMatching(/Z$/),
      callbackUrl: expect.stringMatching(/\/plaid\/callback\/link-sandbox-/),
      requestId: expect.any(String),
    });
    expect(link.body.callbackUrl.endsWith(`/plaid/callback/${link.body.linkToken}`)).toBe(true);
    const callback = `/plaid/callback/${link.body.linkToken}`;
    const created = await p.post(callback, { publicToken: `public-sandbox-${c.id.slice(-12)}`, accountId: 'savings' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      customerId: c.id,
      currency: 'USD',
      status: 'ACTIVE',
      beneficiaryVerificationStatus: 'MATCHED',
      beneficiaryVerifiedData: { fullName: 'Alberta Bobbeth Charleson' },
      accountInfo: { accountType: 'USD_ACCOUNT', bankAccountType: 'SAVINGS' },
    });
    expect((await p.get(`/customers/external-accounts/${created.body.id}`)).body).toEqual(created.body);
    // A Link token is used once.
    const again = expectError(await p.post(callback, { publicToken: 'public-sandbox-again' }), 409, 'CONFLICT');
    expect(again.details).toEqual({ externalAccountId: created.body.id });
  });

  it('concurrent callbacks on one link token: one account, the others 409 CONFLICT', async () => {
    const p = await TestPlatform.create(t);
    const c = await newCustomer(p);
    const link = (await p.post('/plaid/link-tokens', { customerId: c.id })).body;
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        p.post(`/plaid/callback/${link.linkToken}`, { publicToken: `public-sandbox-race-${i}` }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    const list = await p.get(`/customers/external-accounts?customerId=${encodeURIComponent(c.id)}`);
    expect(list.body.totalCount).toBe(1);
  });

  it('unknown or foreign tokens 404; rejected public tokens and accounts 400; expiry after 4 hours; unknown customer 404', async () => {
    const p = await TestPlatform.create(t);
    const other = await TestPlatform.create(t);
    const c = await newCustomer(p);
    const link = (await p.post('/plaid/link-tokens', { customerId: c.id })).body;
    const callback = `/plaid/callback/${link.linkToken}`;
    expectError(await other.post(callback, { publicToken: 'public-sandbox-x' }), 404, 'NOT_FOUND');
    expectError(
      await p.post('/plaid/callback/link-sandbox-nope', { publicToken: 'public-sandbox-x' }),
      404,
      'NOT_FOUND',
    );
    expectError(await p.post(callback, { publicToken: 'garbage' }), 400, 'INVALID_INPUT');
    expectError(
      await p.post(callback, { publicToken: 'public-sandbox-x', accountId: 'brokerage' }),
      400,
      'INVALID_INPUT',
    );
    expectError(await p.post(callback, {}), 400, 'INVALID_INPUT');
    await advance(p, 4 * 3600 + 1);
    expectError(await p.post(callback, { publicToken: 'public-sandbox-x' }), 400, 'INVALID_INPUT');
    expectError(
      await p.post('/plaid/link-tokens', { customerId: 'Customer:019542f5-b3e7-1d02-0000-000000000001' }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    expectError(await p.post('/plaid/link-tokens', { customerId: 'bob' }), 400, 'INVALID_INPUT');
  });
});
