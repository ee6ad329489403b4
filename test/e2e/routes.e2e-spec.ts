import type { INestApplication } from '@nestjs/common';
import { createRequire } from 'node:module';
import { compareRoutePaths, listRoutes, requestKey, routeKey, shadowedRoutes } from '../../src/route-order.js';
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

describe('route index (dispatch by the first two segments)', () => {
  it('answers exactly as the routes did: any letter case, a trailing slash, a repeated slash, an unknown area', async () => {
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

  it('keys a route by its first two literal segments, and a request by its first two non-empty ones', () => {
    expect(routeKey('/2025-10-13/cards/:id')).toBe('2025-10-13/cards');
    expect(routeKey('/healthz')).toBe('healthz');
    expect(routeKey('/2025-10-13/:area/x')).toBeNull();
    expect(routeKey('/docs/{*path}')).toBeNull(); // a wildcard: tried for every key
    expect(requestKey('/2025-10-13/Cards/abc')).toBe('2025-10-13/cards');
    expect(requestKey('//2025-10-13///cards')).toBe('2025-10-13/cards');
    expect(requestKey('/')).toBe('');
  });
});

/** A layer of Express's router stack, as src/route-order.ts reads and rewrites it. */
interface StackLayer {
  route?: { path: unknown; methods: unknown };
  routeRun?: StackLayer[];
  match?: (path: string) => boolean;
}

describe('the Express internals the route patches rely on (express 5.x / router 2.x under @nestjs/platform-express 12.x)', () => {
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

  it('app.router.stack holds route layers (route.path, route.methods, match()) that the index replaced with dispatch layers', () => {
    const stack = (t.app.getHttpAdapter().getInstance() as { router: { stack: StackLayer[] } }).router.stack;
    expect(Array.isArray(stack)).toBe(true);
    expect(stack.filter((l) => l.route)).toEqual([]); // every route went into the index
    // One dispatch layer per run of consecutive routes (middleware such as the OpenAPI document's sits between).
    const dispatch = stack.filter((l) => l.routeRun);
    expect(dispatch.length).toBeGreaterThan(0);
    const run = dispatch.flatMap((l) => l.routeRun!);
    expect(run.length).toBe(routesOf(t.app).length);
    expect(run.map((l) => l.route?.path)).toContain('/2025-10-13/tokens');
    for (const layer of run) {
      expect({
        path: typeof layer.route?.path,
        methods: typeof layer.route?.methods,
        match: typeof layer.match,
      }).toEqual({
        path: 'string',
        methods: 'object',
        match: 'function',
      });
    }
  });

  it('a request is tried only against the routes of its key (the dispatch happens)', async () => {
    const p = await TestPlatform.create(t);
    const stack = (t.app.getHttpAdapter().getInstance() as { router: { stack: StackLayer[] } }).router.stack;
    const run = stack.flatMap((l) => l.routeRun ?? []);
    const tried: string[] = [];
    const originals = run.map((layer) => layer.match!);
    run.forEach((layer, i) => {
      layer.match = (path: string) => {
        tried.push(layer.route!.path as string);
        return originals[i].call(layer, path);
      };
    });
    try {
      expect((await p.get('/tokens')).status).toBe(200);
    } finally {
      run.forEach((layer, i) => (layer.match = originals[i]));
    }
    expect(tried).toContain('/2025-10-13/tokens');
    expect([...new Set(tried.map(routeKey))]).toEqual(expect.arrayContaining(['2025-10-13/tokens']));
    expect(tried.filter((path) => ![null, '2025-10-13/tokens'].includes(routeKey(path)))).toEqual([]);
  });
});
