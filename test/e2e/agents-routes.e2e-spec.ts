import type { INestApplication } from '@nestjs/common';
import { listRoutes, shadowedRoutes, sortRoutes } from '../../src/route-order.js';
import { installedAgent, newAgent, redeem } from '../support/agents.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

// `/agents/me`, `/agents/approvals` and `/agents/device-codes/...` are literals: `/agents/{agentId}`
// must never capture them, whatever order the modules register their controllers in.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const routesOf = (app: INestApplication) => listRoutes(app.getHttpAdapter().getInstance() as object);

/** The agents area's paths, literal ones included (approvals belongs to the quotes part). */
const AGENT_PATHS: Array<[string, string]> = [
  ['GET', `${V}/agents/:agentId`],
  ['PATCH', `${V}/agents/:agentId`],
  ['DELETE', `${V}/agents/:agentId`],
  ['PATCH', `${V}/agents/:agentId/policy`],
  ['POST', `${V}/agents/:agentId/device-codes`],
  ['POST', `${V}/agents/:agentId/actions/:actionId/approve`],
  ['GET', `${V}/agents`],
  ['GET', `${V}/agents/me`],
  ['GET', `${V}/agents/me/internal-accounts`],
  ['GET', `${V}/agents/me/external-accounts/:externalAccountId`],
  ['GET', `${V}/agents/approvals`],
  ['GET', `${V}/agents/device-codes/:code/status`],
  ['POST', `${V}/agents/device-codes/:code/redeem`],
];

describe('agent route registration', () => {
  it('in the running app, every literal /agents/... route is tried before /agents/:agentId', () => {
    const routes = routesOf(t.app);
    const order = routes.map((r) => `${r.methods.join(',')} ${r.path}`);
    const at = (route: string) => {
      const i = order.indexOf(route);
      expect({ route, registered: i >= 0 }).toEqual({ route, registered: true });
      return i;
    };
    const byId = at(`GET ${V}/agents/:agentId`);
    for (const literal of [`GET ${V}/agents/me`, `GET ${V}/agents/device-codes/:code/status`])
      expect(at(literal)).toBeLessThan(byId);
    expect(at(`POST ${V}/agents/device-codes/:code/redeem`)).toBeLessThan(at(`POST ${V}/agents/:agentId/device-codes`));
    expect(shadowedRoutes(routes.filter((r) => r.path.startsWith(`${V}/agents`)))).toEqual([]);
  });

  it('whatever the registration order (parameterised routes first, reversed, shuffled), the sort puts the literals first', () => {
    const orders = [
      AGENT_PATHS,
      [...AGENT_PATHS].reverse(),
      [...AGENT_PATHS].sort((a, b) => (a[1].includes(':agentId') ? -1 : 0) - (b[1].includes(':agentId') ? -1 : 0)),
    ];
    // Registered as they come, the parameterised route would capture the literals.
    const unsorted = orders[2].map(([method, path]) => ({ path, methods: [method] }));
    expect(shadowedRoutes(unsorted)).toEqual(
      expect.arrayContaining([
        { shadowed: `GET ${V}/agents/me`, by: `GET ${V}/agents/:agentId` },
        { shadowed: `GET ${V}/agents/approvals`, by: `GET ${V}/agents/:agentId` },
      ]),
    );
    for (const paths of orders) {
      const stack = paths.map(([method, path]) => ({ route: { path, methods: { [method.toLowerCase()]: true } } }));
      const app = { router: { stack } };
      sortRoutes(app);
      const sorted = listRoutes(app);
      expect(shadowedRoutes(sorted)).toEqual([]);
      const index = (path: string) => sorted.findIndex((r) => r.path === path);
      for (const literal of ['/agents/me', '/agents/approvals', '/agents/device-codes/:code/status'])
        expect(index(`${V}${literal}`)).toBeLessThan(index(`${V}/agents/:agentId`));
    }
  });

  it('over HTTP the literal routes answer themselves, not /agents/{agentId}', async () => {
    const p = await TestPlatform.create(t);
    const { client, agent } = await installedAgent(p);
    // /agents/:agentId would refuse the Bearer token (401) and "me" as an id (400).
    const me = await client.get('/agents/me');
    expect({ status: me.status, id: me.body.id }).toEqual({ status: 200, id: agent.id });
    const { deviceCode } = await newAgent(p);
    const status = await p.get(`/agents/device-codes/${deviceCode.code}/status`);
    expect({ status: status.status, body: status.body }).toEqual({
      status: 200,
      body: { code: deviceCode.code, redeemed: false },
    });
    expect((await redeem(p, deviceCode.code)).status).toBe(200);
  });
});

describe('agent routes in the OpenAPI document', () => {
  it("carry the reference's operationIds and security: Basic for management, AgentAuth for /agents/me, none for redeem", async () => {
    const doc = (await t.http.get(`${V}/openapi.json`)).body as {
      paths: Record<string, Record<string, { operationId?: string; security?: unknown[]; tags?: string[] }>>;
    };
    const op = (path: string, method: string) => doc.paths[path]?.[method] ?? {};
    const expected: Array<[string, string, string]> = [
      ['/agents', 'post', 'createAgent'],
      ['/agents', 'get', 'listAgents'],
      ['/agents/{agentId}', 'get', 'getAgentById'],
      ['/agents/{agentId}', 'patch', 'updateAgent'],
      ['/agents/{agentId}', 'delete', 'deleteAgent'],
      ['/agents/{agentId}/policy', 'patch', 'updateAgentPolicy'],
      ['/agents/{agentId}/device-codes', 'post', 'regenerateAgentDeviceCode'],
      ['/agents/device-codes/{code}/status', 'get', 'getAgentDeviceCodeStatus'],
      ['/agents/device-codes/{code}/redeem', 'post', 'redeemAgentDeviceCode'],
      ['/agents/me', 'get', 'getAgentMe'],
      ['/agents/me/internal-accounts', 'get', 'agentListInternalAccounts'],
      ['/agents/me/external-accounts', 'get', 'agentListExternalAccounts'],
      ['/agents/me/external-accounts', 'post', 'agentCreateExternalAccount'],
      ['/agents/me/external-accounts/{externalAccountId}', 'get', 'agentGetExternalAccount'],
      ['/agents/me/external-accounts/{externalAccountId}', 'delete', 'agentDeleteExternalAccount'],
    ];
    for (const [path, method, operationId] of expected) {
      const o = op(path, method);
      expect({ path, method, operationId: o.operationId }).toEqual({ path, method, operationId });
      const scheme = path.startsWith('/agents/me') ? 'AgentAuth' : path.endsWith('/redeem') ? null : 'BasicAuth';
      const schemes = (o.security ?? []).flatMap((s) => Object.keys(s as object));
      expect({ path, method, schemes }).toEqual({ path, method, schemes: scheme ? [scheme] : [] });
    }
  });
});
