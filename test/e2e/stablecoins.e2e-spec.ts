import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { recordedEvents } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import {
  achMint,
  bankAccount,
  burnBody,
  driveProvider,
  Json,
  keyed,
  linkProvider,
  sparkToken,
  sparkWallet,
  wireMint,
} from '../support/stablecoins.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import { wantOwnEvents } from '../support/own-events.js';

/**
 * Stablecoin issuance over HTTP on the real app (issue #39): provider links, registration, Grid
 * enablement, mints and burns with the sandbox provider, their statuses and webhooks, the ledger's
 * supply. The clock is injected: the provider's steps are driven by hand (the worker's runOnce).
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
const opTypes = async (p: TestPlatform, id: string) =>
  (await recordedEvents(p))
    .filter((e) => e.type.startsWith('STABLECOIN_OPERATION.') && e.data.id === id)
    .map((e) => `${e.type}:${String(e.data.status)}`);
const supply = async (p: TestPlatform, symbol: string) => {
  const [row] = await db().query<Array<{ s: string }>>(
    `SELECT COALESCE(SUM(amount), 0)::text AS s FROM ledger_entries
      WHERE platform_id = $1 AND system_account = 'STABLECOIN_SUPPLY' AND currency = $2`,
    [uuidOf(p), symbol],
  );
  return row.s;
};

describe('the walk: link, register, enable, mint, burn', () => {
  it('links a provider (secret sealed, never returned), registers a coin, mints by ACH and by wire, burns, with every status and webhook; the ledger holds the supply', async () => {
    const p = await platform();
    const link = await linkProvider(p, 'acme_walk');
    expect(link).toMatchObject({
      provider: 'BRALE',
      providerEnvironment: 'SANDBOX',
      status: 'ACTIVE',
      providerAccountId: expect.any(String),
    });
    expect(JSON.stringify(link)).not.toContain('acme_walk_secret');
    const [stored] = await db().query<Array<{ api_client_secret: string }>>(
      `SELECT api_client_secret FROM stablecoin_provider_accounts WHERE id = $1`,
      [parseId('StablecoinProviderAccount', link.id)],
    );
    expect(stored.api_client_secret).toMatch(/^v2\./);
    expect(stored.api_client_secret).not.toContain('acme_walk_secret');
    expect((await p.get(`/stablecoin-provider-accounts/${link.id}`)).body).toEqual(link);
    expect((await p.get('/stablecoin-provider-accounts')).body).toMatchObject({
      data: [link],
      hasMore: false,
      totalCount: 1,
    });

    const token = sparkToken();
    const registered = await keyed(p, '/stablecoins', {
      providerTokenIdentifier: 'ACME',
      networkTokenIdentifier: token,
      network: 'SPARK',
    });
    expect(registered.status).toBe(201);
    const coin = registered.body as Json;
    expect(coin).toMatchObject({
      name: 'Acme Dollar',
      symbol: 'ACME',
      baseCurrency: 'USD',
      network: 'SPARK',
      decimals: 6,
      issuanceStatus: 'PROVISIONED',
      gridOperationsStatus: 'NOT_ENABLED',
      networkTokenIdentifier: token,
      provider: 'BRALE',
      stablecoinProviderAccountId: link.id,
      providerEnvironment: 'SANDBOX',
      providerTokenIdentifier: 'ACME',
    });
    expect(coin).not.toHaveProperty('currency');
    expect((await p.get(`/stablecoins/${coin.id}`)).body).toEqual(coin);

    const requested = await p.post(`/stablecoins/${coin.id}/grid-operations/enablement`);
    expect(requested.status).toBe(200);
    expect(requested.body).toMatchObject({ gridOperationsStatus: 'PENDING_APPROVAL' });
    // A repeat while PENDING_APPROVAL succeeds.
    expect((await p.post(`/stablecoins/${coin.id}/grid-operations/enablement`)).status).toBe(200);

    const wallet = await sparkWallet(p);
    const bank = await bankAccount(p);

    // ACH debit: CREATED -> PENDING_PROVIDER -> PROCESSING -> COMPLETED.
    const ach = await keyed(p, `/stablecoins/${coin.id}/mints`, {
      ...achMint(bank, wallet, '25000000'),
      description: 'Initial program funding mint',
    });
    expect(ach.status).toBe(201);
    expect(ach.body).toMatchObject({
      stablecoinId: coin.id,
      operationType: 'MINT',
      status: 'CREATED',
      amount: '25000000',
      provider: 'BRALE',
      providerEnvironment: 'SANDBOX',
      stablecoinProviderAccountId: link.id,
      source: { type: 'ACH_DEBIT', externalAccountId: bank },
      destination: { accountId: wallet },
      description: 'Initial program funding mint',
    });
    const achId = (ach.body as Json).id as string;
    await driveProvider(t, p, clock);
    expect((await p.get(`/stablecoin-operations/${achId}`)).body).toMatchObject({
      status: 'COMPLETED',
      providerStatus: 'complete',
    });
    expect(await opTypes(p, achId)).toEqual([
      'STABLECOIN_OPERATION.CREATED:CREATED',
      'STABLECOIN_OPERATION.PENDING_PROVIDER:PENDING_PROVIDER',
      'STABLECOIN_OPERATION.PROCESSING:PROCESSING',
      'STABLECOIN_OPERATION.COMPLETED:COMPLETED',
    ]);
    expect(await supply(p, 'ACME')).toBe('25000000');

    // Wire: funding instructions, PENDING_FUNDING until the sandbox reports the wire received.
    const wire = await keyed(p, `/stablecoins/${coin.id}/mints`, wireMint(wallet, '1000000'));
    expect(wire.status).toBe(201);
    const wireOp = wire.body as Json;
    expect(wireOp.fundingInstructions).toMatchObject({
      rail: 'WIRE',
      amount: '100',
      currency: 'USD',
      valueType: 'ACME',
    });
    expect(wireOp.expiresAt).toBeDefined();
    await driveProvider(t, p, clock);
    expect((await p.get(`/stablecoin-operations/${wireOp.id}`)).body).toMatchObject({ status: 'PENDING_FUNDING' });
    const funded = await p.post(`/sandbox/stablecoin-operations/${wireOp.id}/funds-received`);
    expect(funded.status).toBe(200);
    expect(funded.body).toMatchObject({ status: 'PENDING_PROVIDER' });
    await driveProvider(t, p, clock);
    expect(await opTypes(p, wireOp.id)).toEqual([
      'STABLECOIN_OPERATION.CREATED:CREATED',
      'STABLECOIN_OPERATION.PENDING_FUNDING:PENDING_FUNDING',
      'STABLECOIN_OPERATION.PENDING_PROVIDER:PENDING_PROVIDER',
      'STABLECOIN_OPERATION.PROCESSING:PROCESSING',
      'STABLECOIN_OPERATION.COMPLETED:COMPLETED',
    ]);
    expect(await supply(p, 'ACME')).toBe('26000000');
    expectError(await p.post(`/sandbox/stablecoin-operations/${wireOp.id}/funds-received`), 409, 'CONFLICT');

    // Burn from the provider balance to the bank by ACH, and from an external wallet (funding instructions).
    const burn = await keyed(p, `/stablecoins/${coin.id}/burns`, burnBody(bank, '5000000'));
    expect(burn.status).toBe(201);
    expect(burn.body).toMatchObject({
      operationType: 'BURN',
      status: 'CREATED',
      source: { type: 'PROVIDER_INTERNAL_BALANCE' },
      destination: { accountId: bank, rail: 'ACH_CREDIT' },
      estimatedDelivery: { rail: 'ACH_CREDIT', amount: '500', currency: 'USD', timing: '1-3 business days' },
    });
    const external = await keyed(
      p,
      `/stablecoins/${coin.id}/burns`,
      burnBody(bank, '1000000', { type: 'EXTERNAL_ACCOUNT' }, 'WIRE'),
    );
    expect(external.status).toBe(201);
    expect((external.body as Json).fundingInstructions).toMatchObject({
      rail: 'SPARK',
      network: 'SPARK',
      valueType: 'ACME',
      address: expect.stringMatching(/^spark1/),
    });
    await driveProvider(t, p, clock);
    await p.post(`/sandbox/stablecoin-operations/${(external.body as Json).id}/funds-received`);
    await driveProvider(t, p, clock);
    expect(await supply(p, 'ACME')).toBe('20000000');

    // The provider's address ids of the two accounts are kept internally, once each.
    const links = await db().query<Array<{ external_account_id: string }>>(
      `SELECT external_account_id FROM stablecoin_external_account_links WHERE platform_id = $1 ORDER BY 1`,
      [uuidOf(p)],
    );
    expect(links.map((l) => l.external_account_id)).toEqual(
      [parseId('ExternalAccount', bank), parseId('ExternalAccount', wallet)].sort(),
    );
    const list = await p.get(`/stablecoins/${coin.id}/operations`);
    expect(list.body).toMatchObject({ hasMore: false, totalCount: 4 });
    expect(((list.body as Json).data as Json[]).map((o) => o.status as string)).toEqual([
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
    ]);
    const burns = await p.get(`/stablecoins/${coin.id}/operations?operationType=BURN&limit=1`);
    expect(burns.body).toMatchObject({ hasMore: true, totalCount: 2 });
    expect((await verifyLedger(db(), uuidOf(p))).ok).toBe(true);
  });
});
