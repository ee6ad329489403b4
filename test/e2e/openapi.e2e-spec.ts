import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateApi } from 'swagger-typescript-api';
import { ERROR_STATUS } from '../../src/error-catalogue.js';
import { usdAccountBody } from '../support/fixtures.js';
import { startTestApp, TestPlatform, V, type TestApp } from '../support/test-app.js';

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { oneOf?: unknown[]; discriminator?: { propertyName: string; mapping: object } }>;
  };
}

/**
 * The reference's operationIds for the operations this service has or is adding (paths with their
 * parameter names blanked, as the two documents name parameters differently).
 */
const REFERENCE_OPERATION_IDS: Record<string, string> = {
  'GET /agents': 'listAgents',
  'POST /agents': 'createAgent',
  'GET /agents/approvals': 'listAgentApprovals',
  'POST /agents/device-codes/{}/redeem': 'redeemAgentDeviceCode',
  'GET /agents/device-codes/{}/status': 'getAgentDeviceCodeStatus',
  'GET /agents/me': 'getAgentMe',
  'GET /agents/me/actions': 'agentListActions',
  'GET /agents/me/actions/{}': 'agentGetAction',
  'GET /agents/me/external-accounts': 'agentListExternalAccounts',
  'POST /agents/me/external-accounts': 'agentCreateExternalAccount',
  'DELETE /agents/me/external-accounts/{}': 'agentDeleteExternalAccount',
  'GET /agents/me/external-accounts/{}': 'agentGetExternalAccount',
  'GET /agents/me/internal-accounts': 'agentListInternalAccounts',
  'POST /agents/me/quotes': 'agentCreateQuote',
  'GET /agents/me/quotes/{}': 'agentGetQuote',
  'POST /agents/me/quotes/{}/execute': 'agentExecuteQuote',
  'GET /agents/me/transactions': 'agentListTransactions',
  'GET /agents/me/transactions/{}': 'agentGetTransaction',
  'POST /agents/me/transfer-in': 'agentCreateTransferIn',
  'POST /agents/me/transfer-out': 'agentCreateTransferOut',
  'DELETE /agents/{}': 'deleteAgent',
  'GET /agents/{}': 'getAgentById',
  'PATCH /agents/{}': 'updateAgent',
  'POST /agents/{}/actions/{}/approve': 'approveAgentAction',
  'POST /agents/{}/actions/{}/reject': 'rejectAgentAction',
  'POST /agents/{}/device-codes': 'regenerateAgentDeviceCode',
  'PATCH /agents/{}/policy': 'updateAgentPolicy',
  'GET /cards': 'listCards',
  'POST /cards': 'createCard',
  'GET /cards/{}': 'getCardById',
  'PATCH /cards/{}': 'updateCardById',
  'POST /cards/{}/reveal': 'revealCard',
  'GET /auth/credentials': 'listAuthCredentials',
  'POST /auth/credentials': 'createAuthCredential',
  'DELETE /auth/credentials/{}': 'revokeAuthCredential',
  'POST /auth/credentials/{}/challenge': 'challengeAuthCredential',
  'POST /auth/credentials/{}/verify': 'verifyAuthCredential',
  'GET /auth/sessions': 'listAuthSessions',
  'DELETE /auth/sessions/{}': 'revokeAuthSession',
  'POST /auth/sessions/{}/refresh': 'refreshAuthSession',
  'GET /config': 'getPlatformConfig',
  'POST /crypto/estimate-withdrawal-fee': 'estimateCryptoWithdrawalFee',
  'PATCH /config': 'updatePlatformConfig',
  'GET /customers': 'listCustomers',
  'GET /discoveries': 'getDiscoveries',
  'POST /customers': 'createCustomer',
  'GET /customers/external-accounts': 'listCustomerExternalAccounts',
  'POST /customers/external-accounts': 'createCustomerExternalAccount',
  'DELETE /customers/external-accounts/{}': 'deleteCustomerExternalAccountById',
  'GET /customers/external-accounts/{}': 'getCustomerExternalAccountById',
  'GET /customers/internal-accounts': 'listCustomerInternalAccounts',
  'DELETE /customers/{}': 'deleteCustomerById',
  'GET /customers/{}': 'getCustomerById',
  'PATCH /customers/{}': 'updateCustomerById',
  'PATCH /internal-accounts/{}': 'updateInternalAccount',
  'GET /platform/external-accounts': 'listPlatformExternalAccounts',
  'POST /platform/external-accounts': 'createPlatformExternalAccount',
  'DELETE /platform/external-accounts/{}': 'deletePlatformExternalAccountById',
  'GET /platform/external-accounts/{}': 'getPlatformExternalAccountById',
  'GET /platform/internal-accounts': 'listPlatformInternalAccounts',
  'POST /sandbox/cards/{}/simulate/authorization': 'sandboxSimulateCardAuthorization',
  'POST /sandbox/cards/{}/simulate/authorization_advice': 'sandboxSimulateCardAuthorizationAdvice',
  'POST /sandbox/cards/{}/simulate/authorization_expiry': 'sandboxSimulateCardAuthorizationExpiry',
  'POST /sandbox/cards/{}/simulate/authorization_reversal': 'sandboxSimulateCardAuthorizationReversal',
  'POST /sandbox/cards/{}/simulate/balance_inquiry': 'sandboxSimulateCardBalanceInquiry',
  'POST /sandbox/cards/{}/simulate/clearing': 'sandboxSimulateCardClearing',
  'POST /sandbox/cards/{}/simulate/credit_authorization': 'sandboxSimulateCardCreditAuthorization',
  'POST /sandbox/cards/{}/simulate/credit_authorization_advice': 'sandboxSimulateCardCreditAuthorizationAdvice',
  'POST /sandbox/cards/{}/simulate/financial_authorization': 'sandboxSimulateCardFinancialAuthorization',
  'POST /sandbox/cards/{}/simulate/financial_credit_authorization': 'sandboxSimulateCardFinancialCreditAuthorization',
  'POST /sandbox/cards/{}/simulate/return': 'sandboxSimulateCardReturn',
  'POST /sandbox/cards/{}/simulate/return_reversal': 'sandboxSimulateCardReturnReversal',
  'POST /sandbox/internal-accounts/{}/fund': 'sandboxFundInternalAccount',
  'POST /sandbox/webhooks/test': 'sendTestWebhook',
  'GET /tokens': 'listTokens',
  'POST /tokens': 'createToken',
  'DELETE /tokens/{}': 'deleteTokenById',
  'GET /vasps': 'listVasps',
  'GET /tokens/{}': 'getTokenById',
};

const ROOT = path.resolve(import.meta.dirname, '../..');

function operations(doc: Document) {
  return Object.entries(doc.paths).flatMap(([p, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })),
  );
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ SANDBOX: 'true' });
    doc = (await t.http.get(`${V}/openapi.json`).expect(200)).body as Document;
    dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives every operation a summary, a tag, an explicit unique operationId and its error responses', () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(20);
    const problems: string[] = [];
    const seen = new Map<string, string>();
    for (const { key, op } of ops) {
      if (!op.summary?.trim()) problems.push(`${key}: no summary`);
      if (!op.tags?.length) problems.push(`${key}: no tag`);
      // Nest's default is `<Controller>_<method>`: not stable across refactors.
      if (!op.operationId || /Controller_/.test(op.operationId)) problems.push(`${key}: no @ApiOperation operationId`);
      else if (seen.has(op.operationId))
        problems.push(`${key}: operationId ${op.operationId} also on ${seen.get(op.operationId)}`);
      else seen.set(op.operationId, key);
      const reference = REFERENCE_OPERATION_IDS[key.replace(/\{[^}]+\}/g, '{}')];
      if (reference && op.operationId !== reference)
        problems.push(`${key}: operationId ${op.operationId}, reference ${reference}`);
      const statuses = Object.keys(op.responses);
      if (!statuses.some((s) => /^2/.test(s))) problems.push(`${key}: no 2xx response`);
      if (!statuses.some((s) => /^4/.test(s))) problems.push(`${key}: no 4xx response`);
      for (const status of statuses.filter((s) => /^[45]/.test(s))) {
        const ref = op.responses[status].content?.['application/json']?.schema?.$ref ?? '';
        if (!/^#\/components\/schemas\/Error\d{3}$/.test(ref)) problems.push(`${key} ${status}: not the error schema`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives each error status the catalogue codes of that status', () => {
    const error404 = JSON.stringify(doc.components.schemas.Error404);
    expect(error404).toContain('#/components/schemas/Error');
    expect(error404).toContain('NOT_FOUND');
    expect(error404).toContain('ACCOUNT_NOT_FOUND');
    expect(JSON.stringify(doc.components.schemas.Error400)).toContain('INVALID_INPUT');
    // Exactly the catalogue's codes (src/error-catalogue.ts) of each status, no more, no fewer.
    const statuses = Object.keys(doc.components.schemas).filter((name) => /^Error\d{3}$/.test(name));
    expect(statuses.length).toBeGreaterThan(5);
    for (const name of statuses) {
      const status = Number(name.slice('Error'.length));
      const listed = JSON.stringify(doc.components.schemas[name]).match(/"enum":(\[[^\]]*\])/)?.[1];
      const codes = Object.entries(ERROR_STATUS)
        .filter(([, s]) => s === status)
        .map(([code]) => code)
        .sort();
      expect({ name, codes: listed ? (JSON.parse(listed) as string[]) : [] }).toEqual({ name, codes });
    }
  });

  it('describes accountInfo as a discriminated oneOf of the 49 variants, in requests and responses', () => {
    for (const name of ['ExternalAccountCreateInfoOneOf', 'ExternalAccountInfoOneOf']) {
      const union = doc.components.schemas[name];
      expect(union.oneOf).toHaveLength(49);
      expect(union.discriminator?.propertyName).toBe('accountType');
      expect(Object.keys(union.discriminator?.mapping ?? {})).toHaveLength(49);
    }
    const usd = JSON.stringify(doc.components.schemas.UsdExternalAccountCreateInfo);
    expect(usd).toContain('"routingNumber"');
    const create = JSON.stringify(doc.components.schemas.PlatformExternalAccountCreateRequest);
    expect(create).toContain('#/components/schemas/ExternalAccountCreateInfoOneOf');
    expect(JSON.stringify(doc.components.schemas.ExternalAccount)).toContain(
      '#/components/schemas/ExternalAccountInfoOneOf',
    );
  });

  it('passes `redocly lint` with the recommended rules (redocly.yaml)', () => {
    const result = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'),
        'lint',
        '--config',
        path.join(ROOT, 'redocly.yaml'),
        '--format',
        'stylish',
        path.join(dir, 'openapi.json'),
      ],
      { encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    );
    expect({ status: result.status, output: result.stdout + result.stderr }).toEqual(
      expect.objectContaining({ status: 0 }),
    );
    expect(result.stdout + result.stderr).not.toMatch(/You have \d+ warnings?/);
  });

  it('generates a working client (swagger-typescript-api, fetch) that creates and reads an external account', async () => {
    const out = path.join(dir, 'client');
    await generateApi({
      input: path.join(dir, 'openapi.json'),
      output: out,
      fileName: 'client.ts',
      httpClientType: 'fetch',
      toJS: true,
      silent: true,
    });
    writeFileSync(path.join(out, 'package.json'), '{"type":"module"}');
    const { Api } = (await import(pathToFileURL(path.join(out, 'client.js')).href)) as {
      Api: new (config: object) => {
        platform: {
          createPlatformExternalAccount(body: object): Promise<{ status: number; data: { id: string } }>;
          getPlatformExternalAccountById(id: string): Promise<{ data: { id: string; accountInfo: object } }>;
        };
      };
    };
    const p = await TestPlatform.create(t);
    const address = t.app.getHttpServer().address() as { port: number };
    const api = new Api({
      baseUrl: `http://127.0.0.1:${address.port}${V}`,
      baseApiParams: { headers: { Authorization: p.authorization } },
    });
    const created = await api.platform.createPlatformExternalAccount(usdAccountBody());
    expect(created.status).toBe(201);
    expect(created.data.id).toMatch(/^ExternalAccount:/);
    const read = await api.platform.getPlatformExternalAccountById(created.data.id);
    expect(read.data).toMatchObject({ id: created.data.id, accountInfo: { accountType: 'USD_ACCOUNT' } });
  });
});
