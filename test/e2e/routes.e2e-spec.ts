import type { INestApplication } from '@nestjs/common';
import { createRequire } from 'node:module';
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

describe('routing edge cases', () => {
  it('any letter case, a trailing slash; a repeated slash, an unknown area or version: 404', async () => {
    const p = await TestPlatform.create(t);
    const ok = await p.get('/tokens');
    expect(ok.status).toBe(200);
    const auth = { authorization: p.authorization };
    // Express matches paths case-insensitively and with an optional trailing slash: still so.
    for (const path of ['/2025-10-13/TOKENS', '/2025-10-13/Tokens/', '/2025-10-13/tokens/']) {
      const res = await t.http.get(path).set(auth);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    // A repeated slash never matched a route; an unknown area or version neither: 404 in the error shape.
    for (const path of ['/2025-10-13//tokens', '/2025-10-13/nowhere', '/2024-01-01/tokens', '/nowhere']) {
      const res = await t.http.get(path).set(auth);
      expect({ path, status: res.status, code: (res.body as { code?: unknown }).code }).toEqual({
        path,
        status: 404,
        code: 'NOT_FOUND',
      });
    }
    // Outside the version prefix: the probes.
    expect((await t.http.get('/HEALTHZ')).status).toBe(200);
  });
});

/** A layer of Express's router stack, as src/route-order.ts reads and rewrites it. */
interface StackLayer {
  route?: { path: unknown; methods: unknown };
}

describe('the Express internals sortRoutes relies on (express 5.x / router 2.x under @nestjs/platform-express 12.x)', () => {
  const version = (pkg: string) =>
    (createRequire(import.meta.url)(`${pkg}/package.json`) as { version: string }).version.split('.')[0];

  it('are the majors src/route-order.ts was written for: an upgrade must re-check it (and this test)', () => {
    expect({
      express: version('express'),
      router: version('router'),
      core: version('@nestjs/core'),
      platform: version('@nestjs/platform-express'),
    }).toEqual({ express: '5', router: '2', core: '12', platform: '12' });
  });

  it('app.router.stack holds route layers (route.path, route.methods), sorted: literals before parameters', () => {
    const stack = (t.app.getHttpAdapter().getInstance() as { router: { stack: StackLayer[] } }).router.stack;
    expect(Array.isArray(stack)).toBe(true);
    const routes = stack.filter((l) => l.route);
    expect(routes.length).toBeGreaterThan(50);
    for (const layer of routes) {
      expect({ path: typeof layer.route!.path, methods: typeof layer.route!.methods }).toEqual({
        path: 'string',
        methods: 'object',
      });
    }
    const order = routes.map((l) => l.route!.path as string);
    const at = (path: string) => order.indexOf(path);
    expect(at('/2025-10-13/customers/external-accounts')).toBeGreaterThanOrEqual(0);
    expect(at('/2025-10-13/customers/external-accounts')).toBeLessThan(at('/2025-10-13/customers/:customerId'));
    // Different literals: the smaller group first, so the probes are not tried after every API route.
    expect(at('/healthz')).toBeLessThan(at('/2025-10-13/customers/:customerId'));
  });
});
