import { exampleAccountInfo } from '../../src/external-accounts/variants/index.js';
import { individual } from '../support/customers.js';
import { customerAccount, newCustomer } from '../support/fixtures.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * Sandbox routes belong to their areas (customers, external accounts, outbox), each in its own
 * sandbox module that AppModule mounts only with SANDBOX=true. These pin the whole set.
 */
const SANDBOX_PATHS = [
  '/sandbox/cards/{id}/simulate/authorization',
  '/sandbox/cards/{id}/simulate/authorization_advice',
  '/sandbox/cards/{id}/simulate/authorization_expiry',
  '/sandbox/cards/{id}/simulate/authorization_reversal',
  '/sandbox/cards/{id}/simulate/balance_inquiry',
  '/sandbox/cards/{id}/simulate/clearing',
  '/sandbox/cards/{id}/simulate/credit_authorization',
  '/sandbox/cards/{id}/simulate/credit_authorization_advice',
  '/sandbox/cards/{id}/simulate/financial_authorization',
  '/sandbox/cards/{id}/simulate/financial_credit_authorization',
  '/sandbox/cards/{id}/simulate/provisioning',
  '/sandbox/cards/{id}/simulate/return',
  '/sandbox/cards/{id}/simulate/return_reversal',
  '/sandbox/clock',
  '/sandbox/clock/advance',
  '/sandbox/clock/advances',
  '/sandbox/customers/{customerId}/kyc',
  '/sandbox/external-accounts/{externalAccountId}/status',
  '/sandbox/internal-accounts/{accountId}/fund',
  '/sandbox/kyc/{token}',
  '/sandbox/kyc/{token}/approve',
  '/sandbox/kyc/{token}/reject',
  '/sandbox/oauth/jwks',
  '/sandbox/oauth/token',
  '/sandbox/send',
  '/sandbox/stablecoin-operations/{stablecoinOperationId}/funds-received',
  '/sandbox/stablecoin-provider-accounts/{stablecoinProviderAccountId}/status',
  '/sandbox/stablecoins/{stablecoinId}/grid-operations-status',
  '/sandbox/uma/receive',
  '/sandbox/verifications/{verificationId}/complete',
  '/sandbox/webhooks/test',
  '/webhooks/test',
];
const sandboxPaths = (doc: { paths: Record<string, unknown> }) =>
  Object.keys(doc.paths)
    .filter((path) => path.startsWith('/sandbox/') || path === '/webhooks/test')
    .sort();

describe('SANDBOX=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it("mounts every area's sandbox routes, POST /webhooks/test included", async () => {
    const doc = (await t.http.get(`${V}/openapi.json`)).body;
    expect(sandboxPaths(doc)).toEqual(SANDBOX_PATHS);
    const reads = new Set(['/sandbox/clock', '/sandbox/clock/advances', '/sandbox/kyc/{token}', '/sandbox/oauth/jwks']);
    for (const path of SANDBOX_PATHS) expect(Object.keys(doc.paths[path])).toEqual([reads.has(path) ? 'get' : 'post']);
  });
});

describe('SANDBOX=false', () => {
  let live: TestApp;
  beforeAll(async () => {
    live = await startTestApp({ SANDBOX: 'false' });
  });
  afterAll(() => live.close());

  it('has none of them (404 NOT_FOUND, not documented) while the rest works', async () => {
    const p = await TestPlatform.create(live);
    const customer = await newCustomer(p, individual());
    const account = await customerAccount(p, customer.id);
    const external = await p.post('/platform/external-accounts', {
      currency: 'EUR',
      accountInfo: exampleAccountInfo('EUR_ACCOUNT', Math.floor(Math.random() * 1000)),
    });
    expect(external.status).toBe(201);
    const calls: Array<[string, object]> = [
      [`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'APPROVED' }],
      [`/sandbox/internal-accounts/${account.id}/fund`, { amount: 1 }],
      [`/sandbox/external-accounts/${external.body.id}/status`, { status: 'INACTIVE' }],
      ['/sandbox/webhooks/test', {}],
      ['/webhooks/test', {}],
      ['/sandbox/clock/advance', { seconds: 60 }],
      ['/sandbox/send', {}],
      ['/sandbox/uma/receive', {}],
      ['/sandbox/stablecoin-operations/StablecoinOperation:01900000-0000-7000-8000-000000000001/funds-received', {}],
      [
        '/sandbox/stablecoin-provider-accounts/StablecoinProviderAccount:01900000-0000-7000-8000-000000000001/status',
        { status: 'REVOKED' },
      ],
      [
        '/sandbox/stablecoins/Stablecoin:01900000-0000-7000-8000-000000000001/grid-operations-status',
        { gridOperationsStatus: 'ENABLED' },
      ],
      ['/sandbox/verifications/Verification:01900000-0000-7000-8000-000000000001/complete', {}],
      ['/sandbox/oauth/token', { sub: 'a', aud: 'b' }],
    ];
    for (const [path, body] of calls) expectError(await p.post(path, body), 404, 'NOT_FOUND');
    for (const path of ['/sandbox/clock', '/sandbox/clock/advances', '/sandbox/oauth/jwks'])
      expectError(await p.get(path), 404, 'NOT_FOUND');
    expect((await p.get(`/customers/${customer.id}`)).body.kycStatus).toBe('UNVERIFIED');
    expect((await customerAccount(p, customer.id)).balance.amount).toBe(0);
    expect((await p.get(`/platform/external-accounts/${external.body.id}`)).body.status).toBe('ACTIVE');
    expect(sandboxPaths((await live.http.get(`${V}/openapi.json`)).body)).toEqual([]);
  });
});
