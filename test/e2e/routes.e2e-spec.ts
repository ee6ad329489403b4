import type { INestApplication } from '@nestjs/common';
import { compareRoutePaths, listRoutes, shadowedRoutes } from '../../src/route-order.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

const routesOf = (app: INestApplication) => listRoutes(app.getHttpAdapter().getInstance() as object);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SANDBOX: 'true' }); // every route mounted
});
afterAll(() => t.close());

describe('route registration', () => {
  it('no registered route is captured by an earlier parameterised one', () => {
    const routes = routesOf(t.app);
    const listing = routes.map((r) => `${r.methods.join(',')} ${r.path}`);
    expect(listing).toEqual(expect.arrayContaining(['GET /2025-10-13/customers/:customerId', 'GET /healthz']));
    expect(shadowedRoutes(routes)).toEqual([]);
  });

  it('literal segments answer their own route, not /customers/{customerId}', async () => {
    const p = await TestPlatform.create(t);
    for (const path of ['/customers/internal-accounts', '/customers/external-accounts']) {
      const res = await p.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.body).toMatchObject({ data: [], hasMore: false });
    }
  });

  it('the check itself finds a shadowed literal path', () => {
    const routes = [
      { path: '/v/customers/:customerId', methods: ['GET'] },
      { path: '/v/customers/kyc-link', methods: ['GET'] },
      { path: '/v/customers/kyc-link', methods: ['POST'] },
    ];
    expect(shadowedRoutes(routes)).toEqual([
      { shadowed: 'GET /v/customers/kyc-link', by: 'GET /v/customers/:customerId' },
    ]);
  });

  it('orders literal before parameter before wildcard at the first differing segment', () => {
    const sorted = ['/docs/{*path}', '/c/:id', '/c/:id/x', '/c/kyc-link', '/c/:id/:sub', '/c'].sort(compareRoutePaths);
    expect(sorted).toEqual(['/c', '/c/kyc-link', '/c/:id', '/c/:id/x', '/c/:id/:sub', '/docs/{*path}']);
  });
});
