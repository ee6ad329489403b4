import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { STABLECOINS_ERRORS } from '../../src/stablecoins/stablecoins.errors.js';
import { recordedEvents } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { customerAccount, kycApprovedCustomer } from '../support/fixtures.js';
import {
  achMint,
  bankAccount,
  burnBody,
  credentials,
  driveProvider,
  issuer,
  Json,
  key,
  keyed,
  linkProvider,
  registerCoin,
  sparkToken,
  sparkWallet,
  wireMint,
} from '../support/stablecoins.js';
import {
  expectError,
  invalidFields,
  startTestApp,
  TEST_WEBHOOK_KEY,
  TestApp,
  TestPlatform,
} from '../support/test-app.js';
import { wantOwnEvents } from '../support/own-events.js';

/**
 * Every stablecoin code of the spec (and the reference's 404s), each produced by a request; the
 * sandbox provider's magic values; tenancy; enablement driven by the operator (sandbox route, CLI).
 */
const clock = new FakeClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

// Stablecoin events are this service's own types: opt-in (docs/webhooks.md#own-event-types).
const platform = async () => wantOwnEvents(await TestPlatform.create(t));
const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;
const db = () => t.app.get(DataSource);
const produced = new Set<string>();
const expectCode = (res: { status: number; body: unknown }, status: number, code: string) => {
  produced.add(code);
  return expectError(res, status, code);
};
const operator = (p: TestPlatform, coinId: string, gridOperationsStatus: string) =>
  p.post(`/sandbox/stablecoins/${coinId}/grid-operations-status`, { gridOperationsStatus });
const enable = async (p: TestPlatform, coinId: string) => {
  expect((await p.post(`/stablecoins/${coinId}/grid-operations/enablement`)).status).toBe(200);
  expect((await operator(p, coinId, 'ENABLING')).status).toBe(200);
  expect((await operator(p, coinId, 'ENABLED')).body).toMatchObject({ gridOperationsStatus: 'ENABLED' });
};

describe('provider account links', () => {
  it('an invalid pair is STABLECOIN_PROVIDER_ACCOUNT_INVALID; the Idempotency-Key is required and replays; a second link of the same account is 409; an unreachable provider is 503', async () => {
    const p = await platform();
    const bad = await keyed(p, '/stablecoin-provider-accounts', { ...credentials('acme_x'), apiClientSecret: 'nope' });
    expectCode(bad, 400, 'STABLECOIN_PROVIDER_ACCOUNT_INVALID');
    const noKey = await p.post('/stablecoin-provider-accounts', credentials('acme_x'));
    expect(invalidFields(noKey)).toEqual(['Idempotency-Key']);
    expect(
      invalidFields(await keyed(p, '/stablecoin-provider-accounts', { provider: 'CIRCLE', apiClientId: 5 })),
    ).toEqual(['apiClientId', 'apiClientSecret', 'provider']);
    const k = key();
    const first = await keyed(p, '/stablecoin-provider-accounts', credentials('acme_x'), k);
    expect(first.status).toBe(201);
    const replay = await keyed(p, '/stablecoin-provider-accounts', credentials('acme_x'), k);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const again = await keyed(p, '/stablecoin-provider-accounts', credentials('acme_x'));
    expect(expectError(again, 409, 'CONFLICT').details).toEqual({
      stablecoinProviderAccountId: (first.body as Json).id,
    });
    expectCode(
      await keyed(p, '/stablecoin-provider-accounts', credentials('unavailable_1')),
      503,
      'SERVICE_UNAVAILABLE',
    );
    // Credentials exposing several accounts need providerAccountId; one they do not expose is INVALID.
    expect(invalidFields(await keyed(p, '/stablecoin-provider-accounts', credentials('multi_a')))).toEqual([
      'providerAccountId',
    ]);
    expectCode(
      await keyed(p, '/stablecoin-provider-accounts', { ...credentials('multi_a'), providerAccountId: 'other' }),
      400,
      'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
    );
  });

  it('several links: registration without a choice is SELECTION_REQUIRED; a revoked link refuses registration and operations; an INVALID one too', async () => {
    const p = await platform();
    expectCode(
      await keyed(p, '/stablecoins', {
        providerTokenIdentifier: 'ACME',
        networkTokenIdentifier: sparkToken(),
        network: 'SPARK',
      }),
      404,
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
    );
    const a = await linkProvider(p);
    const b = await linkProvider(p);
    const body = { providerTokenIdentifier: 'ACME', networkTokenIdentifier: sparkToken(), network: 'SPARK' };
    const sel = expectCode(await keyed(p, '/stablecoins', body), 400, 'STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED');
    expect((sel.details!.stablecoinProviderAccountIds as string[]).sort()).toEqual([a.id, b.id].sort());
    const coin = (await keyed(p, '/stablecoins', { ...body, stablecoinProviderAccountId: b.id })).body as Json;
    expect(coin.stablecoinProviderAccountId).toBe(b.id);
    const wallet = await sparkWallet(p);

    const revoked = await p.post(`/sandbox/stablecoin-provider-accounts/${b.id}/status`, { status: 'REVOKED' });
    expect(revoked.body).toMatchObject({ status: 'REVOKED' });
    expect((await p.get(`/stablecoin-provider-accounts?status=REVOKED`)).body).toMatchObject({ totalCount: 1 });
    expectCode(
      await keyed(p, `/stablecoins/${coin.id}/mints`, wireMint(wallet, '1000000')),
      400,
      'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
    );
    expectCode(
      await keyed(p, '/stablecoins', {
        ...body,
        networkTokenIdentifier: sparkToken(),
        stablecoinProviderAccountId: b.id,
      }),
      400,
      'STABLECOIN_PROVIDER_ACCOUNT_REVOKED',
    );
    await p.post(`/sandbox/stablecoin-provider-accounts/${b.id}/status`, { status: 'INVALID' });
    expectCode(
      await keyed(p, `/stablecoins/${coin.id}/mints`, wireMint(wallet, '1000000')),
      400,
      'STABLECOIN_PROVIDER_ACCOUNT_INVALID',
    );
    await p.post(`/sandbox/stablecoin-provider-accounts/${b.id}/status`, { status: 'ACTIVE' });
    expect((await keyed(p, `/stablecoins/${coin.id}/mints`, wireMint(wallet, '1000000'))).status).toBe(201);
  });
});

describe('registration', () => {
  it('symbol and token identifier are unique per platform (409s); an unknown token is VERIFICATION_FAILED; issuanceStatus comes from the provider', async () => {
    const p = await platform();
    await linkProvider(p);
    const token = sparkToken();
    const first = await keyed(p, '/stablecoins', {
      providerTokenIdentifier: 'ACME',
      networkTokenIdentifier: token,
      network: 'SPARK',
    });
    expect(first.status).toBe(201);
    expectCode(
      await keyed(p, '/stablecoins', {
        providerTokenIdentifier: 'BETA',
        networkTokenIdentifier: token,
        network: 'SPARK',
      }),
      409,
      'STABLECOIN_TOKEN_IDENTIFIER_ALREADY_EXISTS',
    );
    expectCode(
      await keyed(p, '/stablecoins', {
        providerTokenIdentifier: 'ACME_REVIEW',
        networkTokenIdentifier: sparkToken(),
        network: 'SPARK',
      }),
      409,
      'STABLECOIN_SYMBOL_ALREADY_EXISTS',
    );
    expectCode(
      await keyed(p, '/stablecoins', {
        providerTokenIdentifier: 'UNKNOWN1',
        networkTokenIdentifier: sparkToken(),
        network: 'SPARK',
      }),
      400,
      'STABLECOIN_VERIFICATION_FAILED',
    );
    expectCode(
      await keyed(p, '/stablecoins', {
        providerTokenIdentifier: 'GAMMA',
        networkTokenIdentifier: '0xdeadbeef',
        network: 'SPARK',
      }),
      400,
      'STABLECOIN_VERIFICATION_FAILED',
    );
    expect(
      invalidFields(await keyed(p, '/stablecoins', { network: 'ETHEREUM', stablecoinProviderAccountId: 'x' })),
    ).toEqual(['network', 'networkTokenIdentifier', 'providerTokenIdentifier', 'stablecoinProviderAccountId']);
    // Another platform may register the same symbol and token.
    const q = await platform();
    await linkProvider(q);
    expect(
      (
        await keyed(q, '/stablecoins', {
          providerTokenIdentifier: 'ACME',
          networkTokenIdentifier: token,
          network: 'SPARK',
        })
      ).status,
    ).toBe(201);

    const review = await registerCoin(p, 'DELTA_REVIEW');
    expect(review).toMatchObject({ symbol: 'DELTA', issuanceStatus: 'PENDING_REVIEW' });
    expect((await p.get('/stablecoins?issuanceStatus=PENDING_REVIEW')).body).toMatchObject({ totalCount: 1 });
    expectCode(await p.post(`/stablecoins/${review.id}/grid-operations/enablement`), 400, 'STABLECOIN_NOT_PROVISIONED');
    const wallet = await sparkWallet(p);
    expectCode(
      await keyed(p, `/stablecoins/${review.id}/mints`, wireMint(wallet, '1000000')),
      400,
      'STABLECOIN_NOT_PROVISIONED',
    );
  });
});

describe('enablement', () => {
  it('the platform requests (repeat while PENDING_APPROVAL succeeds, else 409); the operator drives ENABLING, ENABLED, DISABLED (sandbox route, CLI), each with its webhook, audited', async () => {
    const p = await platform();
    await linkProvider(p);
    const coin = await registerCoin(p);
    expect(expectError(await operator(p, coin.id, 'ENABLED'), 409, 'INVALID_STATE_TRANSITION').details).toMatchObject({
      gridOperationsStatus: 'NOT_ENABLED',
    });
    expect((await p.post(`/stablecoins/${coin.id}/grid-operations/enablement`)).body).toMatchObject({
      gridOperationsStatus: 'PENDING_APPROVAL',
    });
    expect((await operator(p, coin.id, 'ENABLING')).body).toMatchObject({ gridOperationsStatus: 'ENABLING' });
    expectCode(
      await p.post(`/stablecoins/${coin.id}/grid-operations/enablement`),
      409,
      'STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE',
    );
    expectError(await operator(p, coin.id, 'ENABLING'), 409, 'INVALID_STATE_TRANSITION');

    const env = {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      WEBHOOK_KEY_ENCRYPTION_KEY: TEST_WEBHOOK_KEY,
      LOG_LEVEL: 'silent',
    };
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['dist/src/cli.js', ...args], { env }).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );
    const enabled = await cli('stablecoin:enablement', '--stablecoin', coin.id, '--status', 'ENABLED');
    expect({ code: enabled.code, stderr: enabled.code ? enabled.stderr : '' }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(enabled.stdout)).toMatchObject({
      id: coin.id,
      gridOperationsStatus: 'ENABLED',
      currency: 'ACME',
    });
    expect((await p.get(`/stablecoins/${coin.id}`)).body).toMatchObject({
      gridOperationsStatus: 'ENABLED',
      currency: 'ACME',
    });
    expect((await cli('stablecoin:enablement', '--stablecoin', coin.id, '--status', 'ENABLING')).code).toBe(3);
    expect((await cli('stablecoin:enablement', '--stablecoin', 'nope', '--status', 'ENABLED')).code).toBe(2);
    expectCode(
      await p.post(`/stablecoins/${coin.id}/grid-operations/enablement`),
      409,
      'STABLECOIN_SERVICE_ENABLEMENT_NOT_REQUESTABLE',
    );
    expect((await operator(p, coin.id, 'DISABLED')).body).toMatchObject({ gridOperationsStatus: 'DISABLED' });
    expect((await p.get(`/stablecoins/${coin.id}`)).body).not.toHaveProperty('currency');

    const events = (await recordedEvents(p, 'STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED')).map(
      (e) => e.data.gridOperationsStatus,
    );
    expect(events).toEqual(['PENDING_APPROVAL', 'ENABLING', 'ENABLED', 'DISABLED']);
    const [audit] = await db().query<Array<{ n: string }>>(
      `SELECT COUNT(*)::text AS n FROM audit_events WHERE platform_id = $1 AND action = 'cli:stablecoin:enablement'`,
      [uuidOf(p)],
    );
    expect(audit.n).toBe('1');
  });
});

describe('mints and burns: every refusal', () => {
  it('funding sources, destinations, amounts and the provider’s refusals answer their codes; nothing is created', async () => {
    const p = await platform();
    const { coin, wallet, bank } = await issuer(p);
    const mint = (body: object) => keyed(p, `/stablecoins/${coin.id}/mints`, body);
    const customer = await kycApprovedCustomer(p);
    const internal = (await customerAccount(p, customer.id)).id;

    expect(invalidFields(await p.post(`/stablecoins/${coin.id}/mints`, wireMint(wallet, '1000000')))).toEqual([
      'Idempotency-Key',
    ]);
    expect(invalidFields(await mint({ amount: '-5', fundingSource: { type: 'CHEQUE' }, destination: {} }))).toEqual([
      'amount',
      'destination.accountId',
      'fundingSource.type',
    ]);
    expect(
      invalidFields(
        await mint({ amount: '0', fundingSource: { type: 'ACH_DEBIT' }, destination: { accountId: wallet } }),
      ),
    ).toEqual(['amount', 'fundingSource.externalAccountId']);
    expectCode(await mint(wireMint(wallet, '1000001')), 400, 'STABLECOIN_AMOUNT_NOT_REPRESENTABLE');
    expectCode(
      await mint({
        ...wireMint(wallet, '1000000'),
        fundingSource: { type: 'GRID_INTERNAL_ACCOUNT', accountId: internal },
      }),
      400,
      'STABLECOIN_OPERATION_NOT_SUPPORTED',
    );
    expectCode(
      await mint({
        ...wireMint(wallet, '1000000'),
        fundingSource: { type: 'PROVIDER_INTERNAL_BALANCE', sourceTokenIdentifier: 'USDC', cryptoNetwork: 'SOLANA' },
      }),
      400,
      'STABLECOIN_OPERATION_NOT_SUPPORTED',
    );
    // An InternalAccount destination needs an ENABLED coin, and then an embedded wallet (not yet).
    expectCode(await mint(wireMint(internal, '1000000')), 400, 'STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED');
    expectCode(await mint(wireMint(bank, '1000000')), 400, 'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED');
    expectCode(await mint(achMint(wallet, wallet, '1000000')), 400, 'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED');
    expectCode(
      await mint(wireMint('ExternalAccount:019542f5-b3e7-1d02-0000-000000000201', '1000000')),
      404,
      'STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND',
    );
    expectCode(
      await mint(achMint(await bankAccount(p, '0401'), wallet, '1000000')),
      400,
      'STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_FAILED',
    );
    expectCode(
      await mint(achMint(await bankAccount(p, '0402'), wallet, '1000000')),
      400,
      'STABLECOIN_EXTERNAL_ACCOUNT_LINK_FAILED',
    );
    const noMethod = await bankAccount(p, '0403');
    expectCode(
      await mint(achMint(noMethod, wallet, '1000000', 'SAME_DAY_ACH_DEBIT')),
      400,
      'STABLECOIN_EXTERNAL_ACCOUNT_LINK_METHOD_REQUIRED',
    );
    expectCode(
      await mint(achMint(await bankAccount(p, '0404'), wallet, '1000000')),
      400,
      'STABLECOIN_EXTERNAL_ACCOUNT_PROVIDER_LINK_REQUIRED',
    );
    const inactive = await sparkWallet(p);
    expect((await p.post(`/sandbox/external-accounts/${inactive}/status`, { status: 'INACTIVE' })).status).toBe(200);
    expectCode(await mint(wireMint(inactive, '1000000')), 400, 'STABLECOIN_EXTERNAL_ACCOUNT_NOT_LINKED');
    // Magic amounts: ...001 cents the provider refuses, ...005 it is unavailable.
    expectCode(await mint(wireMint(wallet, '10010000')), 400, 'STABLECOIN_PROVIDER_ERROR');
    expectCode(await mint(wireMint(wallet, '10050000')), 503, 'SERVICE_UNAVAILABLE');
    expect((await p.get(`/stablecoins/${coin.id}/operations`)).body).toMatchObject({ totalCount: 0 });

    // Burns: the coins must exist; then the sources and destinations.
    const burn = (body: object) => keyed(p, `/stablecoins/${coin.id}/burns`, body);
    expect(expectError(await burn(burnBody(bank, '1000000')), 400, 'INSUFFICIENT_FUNDS').details).toMatchObject({
      available: '0',
    });
    const minted = await mint(achMint(noMethod === bank ? bank : bank, wallet, '5000000'));
    expect(minted.status).toBe(201);
    await driveProvider(t, p, clock);
    // 0403 has no debit method but can be paid out to.
    expect((await burn(burnBody(noMethod, '1000000'))).status).toBe(201);
    expectCode(
      await burn(burnBody(bank, '1000000', { type: 'GRID_INTERNAL_ACCOUNT', accountId: internal })),
      400,
      'STABLECOIN_SERVICE_OPERATIONS_NOT_ENABLED',
    );
    expectCode(await burn(burnBody(wallet, '1000000')), 400, 'STABLECOIN_EXTERNAL_ACCOUNT_NOT_SUPPORTED');
    expect(
      (await burn(burnBody(bank, '1000000', { type: 'PROVIDER_INTERNAL_BALANCE' }, 'RTP_CREDIT'))).body,
    ).toMatchObject({
      estimatedDelivery: { rail: 'RTP_CREDIT', amount: '100', timing: 'within minutes' },
    });
    expect(
      invalidFields(
        await burn({
          amount: '100',
          source: { type: 'NOPE' },
          destination: { type: 'EXTERNAL_ACCOUNT', externalAccountId: bank, rail: 'SWIFT' },
        }),
      ),
    ).toEqual(['destination.rail', 'source.type']);
    await enable(p, coin.id);
    expectCode(await mint(wireMint(internal, '1000000')), 400, 'STABLECOIN_OPERATION_NOT_SUPPORTED');
    expectCode(
      await burn(burnBody(bank, '1000000', { type: 'GRID_INTERNAL_ACCOUNT', accountId: internal })),
      400,
      'STABLECOIN_BURN_SOURCE_NOT_SUPPORTED',
    );
    expectCode(
      await burn(
        burnBody(bank, '1000000', {
          type: 'GRID_INTERNAL_ACCOUNT',
          accountId: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000201',
        }),
      ),
      404,
      'ACCOUNT_NOT_FOUND',
    );

    // A provider account without an internal balance.
    const q = await platform();
    await linkProvider(q, 'nobalance_1');
    const qc = await registerCoin(q);
    const qWallet = await sparkWallet(q);
    const qBank = await bankAccount(q);
    await keyed(q, `/stablecoins/${qc.id}/mints`, achMint(qBank, qWallet, '3000000'));
    await driveProvider(t, q, clock);
    expectCode(
      await keyed(q, `/stablecoins/${qc.id}/burns`, burnBody(qBank, '1000000')),
      400,
      'STABLECOIN_PROVIDER_SOURCE_NOT_LINKED',
    );
    expect(
      (await keyed(q, `/stablecoins/${qc.id}/burns`, burnBody(qBank, '1000000', { type: 'EXTERNAL_ACCOUNT' }))).status,
    ).toBe(201);
    expect((await verifyLedger(db(), uuidOf(p))).ok).toBe(true);
  });

  it('magic outcomes: ...002 FAILS after PROCESSING, ...003 the provider EXPIRES it, ...004 the funds never arrive (EXPIRED after 7 days of the platform’s clock); none moves money', async () => {
    const p = await platform();
    const { coin, wallet, bank } = await issuer(p);
    const mint = async (body: object) => (await keyed(p, `/stablecoins/${coin.id}/mints`, body)).body as Json;
    const fail = await mint(achMint(bank, wallet, '10020000'));
    const expire = await mint(achMint(bank, wallet, '10030000'));
    const never = await mint(achMint(bank, wallet, '10040000'));
    const neverWire = await mint(wireMint(wallet, '10040000'));
    const wire = await mint(wireMint(wallet, '20000000'));
    await driveProvider(t, p, clock);
    const get = async (id: string) => (await p.get(`/stablecoin-operations/${id}`)).body as Json;
    expect(await get(fail.id)).toMatchObject({ status: 'FAILED', failureReason: 'PROVIDER_TRANSFER_FAILED' });
    expect(await get(expire.id)).toMatchObject({ status: 'EXPIRED', failureReason: 'PROVIDER_OPERATION_EXPIRED' });
    expect(await get(never.id)).toMatchObject({ status: 'PENDING_FUNDING' });
    expect(never.expiresAt).toBeDefined();
    expectError(await p.post(`/sandbox/stablecoin-operations/${neverWire.id}/funds-received`), 409, 'CONFLICT');
    expect((await p.post('/sandbox/clock/advance', { seconds: 7 * 86_400 - 60 })).status).toBe(200);
    await driveProvider(t, p, clock);
    expect(await get(never.id)).toMatchObject({ status: 'PENDING_FUNDING' });
    expect((await p.post('/sandbox/clock/advance', { seconds: 120 })).status).toBe(200);
    await driveProvider(t, p, clock);
    for (const op of [never, neverWire, wire])
      expect(await get(op.id)).toMatchObject({ status: 'EXPIRED', failureReason: 'FUNDING_NOT_RECEIVED' });
    const events = await recordedEvents(p);
    const of = (id: string) => events.filter((e) => e.data.id === id).map((e) => e.type);
    expect(of(fail.id)).toEqual([
      'STABLECOIN_OPERATION.CREATED',
      'STABLECOIN_OPERATION.PENDING_PROVIDER',
      'STABLECOIN_OPERATION.PROCESSING',
      'STABLECOIN_OPERATION.FAILED',
    ]);
    expect(of(expire.id)).toEqual([
      'STABLECOIN_OPERATION.CREATED',
      'STABLECOIN_OPERATION.PENDING_PROVIDER',
      'STABLECOIN_OPERATION.EXPIRED',
    ]);
    expect(of(wire.id)).toEqual([
      'STABLECOIN_OPERATION.CREATED',
      'STABLECOIN_OPERATION.PENDING_FUNDING',
      'STABLECOIN_OPERATION.EXPIRED',
    ]);
    const [{ n }] = await db().query<Array<{ n: string }>>(
      `SELECT COUNT(*)::text AS n FROM ledger_entries WHERE platform_id = $1 AND reason LIKE 'STABLECOIN_%'`,
      [uuidOf(p)],
    );
    expect(n).toBe('0');
    expect((await verifyLedger(db(), uuidOf(p))).ok).toBe(true);
  });
});

describe('tenancy', () => {
  it("another platform's links, coins and operations are 404; so are its accounts in a request", async () => {
    const p = await platform();
    const { link, coin, wallet, bank } = await issuer(p);
    const op = (await keyed(p, `/stablecoins/${coin.id}/mints`, achMint(bank, wallet, '1000000'))).body as Json;
    const q = await platform();
    const mine = await issuer(q, 'ZETA');
    expectCode(await q.get(`/stablecoin-provider-accounts/${link.id}`), 404, 'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND');
    expectCode(await q.get(`/stablecoins/${coin.id}`), 404, 'STABLECOIN_NOT_FOUND');
    expectCode(await q.get(`/stablecoins/${coin.id}/operations`), 404, 'STABLECOIN_NOT_FOUND');
    expectCode(await q.get(`/stablecoin-operations/${op.id}`), 404, 'STABLECOIN_OPERATION_NOT_FOUND');
    expectCode(
      await keyed(q, `/stablecoins/${coin.id}/mints`, wireMint(mine.wallet, '1000000')),
      404,
      'STABLECOIN_NOT_FOUND',
    );
    expectCode(
      await keyed(q, `/stablecoins/${coin.id}/burns`, burnBody(mine.bank, '1000000')),
      404,
      'STABLECOIN_NOT_FOUND',
    );
    expectCode(await q.post(`/stablecoins/${coin.id}/grid-operations/enablement`), 404, 'STABLECOIN_NOT_FOUND');
    expectError(await operator(q, coin.id, 'ENABLING'), 404, 'STABLECOIN_NOT_FOUND');
    expectError(
      await q.post(`/sandbox/stablecoin-operations/${op.id}/funds-received`),
      404,
      'STABLECOIN_OPERATION_NOT_FOUND',
    );
    expectError(
      await q.post(`/sandbox/stablecoin-provider-accounts/${link.id}/status`, { status: 'REVOKED' }),
      404,
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
    );
    expectCode(
      await keyed(q, '/stablecoins', {
        providerTokenIdentifier: 'ETA',
        networkTokenIdentifier: sparkToken(),
        network: 'SPARK',
        stablecoinProviderAccountId: link.id,
      }),
      404,
      'STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND',
    );
    expectCode(
      await keyed(q, `/stablecoins/${mine.coin.id}/mints`, wireMint(wallet, '1000000')),
      404,
      'STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND',
    );
    expectCode(
      await keyed(q, `/stablecoins/${mine.coin.id}/mints`, achMint(bank, mine.wallet, '1000000')),
      404,
      'STABLECOIN_EXTERNAL_ACCOUNT_NOT_FOUND',
    );
    expect((await q.get('/stablecoins')).body).toMatchObject({ totalCount: 1, data: [{ id: mine.coin.id }] });
    expect((await q.get('/stablecoin-provider-accounts')).body).toMatchObject({ totalCount: 1 });
    // Ids of the wrong type are INVALID_INPUT on the path.
    expect(invalidFields(await q.get('/stablecoins/Card:019542f5-b3e7-1d02-0000-000000000201'))).toEqual([
      'stablecoinId',
    ]);
  });
});

describe('no provider configured (STABLECOIN_PROVIDER=none, docs/production.md)', () => {
  it('503 SERVICE_UNAVAILABLE before anything is written', async () => {
    const none = await startTestApp({ STABLECOIN_PROVIDER: 'none' }, { clock });
    try {
      const p = (await platform()).on(none);
      expectCode(await keyed(p, '/stablecoin-provider-accounts', credentials('acme_x')), 503, 'SERVICE_UNAVAILABLE');
      expect((await p.get('/stablecoin-provider-accounts')).body).toMatchObject({ totalCount: 0 });
    } finally {
      await none.close();
    }
  });
});

it('every stablecoin code of the catalogue was produced by a request above', () => {
  const missing = Object.keys(STABLECOINS_ERRORS).filter((c) => !produced.has(c));
  expect(missing).toEqual([]);
});
