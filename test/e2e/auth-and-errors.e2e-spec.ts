import { expectError, startTestApp, TestApp, TestPlatform, V, basicAuth } from '../support/test-app.js';

let t: TestApp;
let p: TestPlatform;
beforeAll(async () => {
  // SANDBOX=false: a production deployment's readiness answer ({status} alone, no `sandbox` flag).
  t = await startTestApp({ SANDBOX: 'false' });
  p = await TestPlatform.create(t);
});
afterAll(() => t.close());

const basic = basicAuth;

describe('authentication (deny by default)', () => {
  const cases: Array<[string, string | undefined]> = [
    ['missing header', undefined],
    ['wrong scheme', 'Bearer abc'],
    ['not base64 credentials', 'Basic !!!'],
    ['no colon', basic('justanid')],
    ['empty secret', basic('id:')],
    ['unknown client id', basic('00000000000000000000000000000000:secret')],
  ];
  it.each(cases)('%s → 401 UNAUTHORIZED with WWW-Authenticate', async (_name, header) => {
    const req = t.http.get(`${V}/tokens`);
    const res = header === undefined ? await req : await req.set('Authorization', header);
    expectError(res, 401, 'UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    expect(res.headers['x-should-retry']).toBe('false');
  });

  it('wrong secret for a real client id → 401', async () => {
    const res = await t.http.get(`${V}/tokens`).set('Authorization', basic(`${p.clientId}:wrong`));
    expectError(res, 401, 'UNAUTHORIZED');
  });

  it('a token lacking the permission gets 403 FORBIDDEN', async () => {
    const viewer = await p.token(['VIEW']);
    const res = await t.http
      .post(`${V}/tokens`)
      .set('Authorization', viewer.authorization)
      .send({ name: 'x', permissions: ['VIEW'] });
    expectError(res, 403, 'FORBIDDEN');
    const transactOnly = await p.token(['TRANSACT']);
    expectError(await t.http.get(`${V}/tokens`).set('Authorization', transactOnly.authorization), 403, 'FORBIDDEN');
  });

  it('health probes and the OpenAPI document are public', async () => {
    expect((await t.http.get('/healthz')).status).toBe(200);
    expect((await t.http.get('/readyz')).body).toEqual({ status: 'ready' });
    const doc = await t.http.get(`${V}/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toContain('/tokens');
    expect((await t.http.get('/docs')).status).toBeLessThan(400);
  });
});

describe('error shape for every kind of bad request', () => {
  it('unknown route → 404 NOT_FOUND', async () => {
    expectError(await p.get('/no-such-thing'), 404, 'NOT_FOUND');
    expectError(await t.http.get('/nowhere'), 404, 'NOT_FOUND');
  });

  it('malformed JSON → 400 INVALID_REQUEST_FORMAT', async () => {
    const res = await p.post('/tokens').set('Content-Type', 'application/json').send('{"name": ');
    expectError(res, 400, 'INVALID_REQUEST_FORMAT');
  });

  it('a body that is not JSON → 400', async () => {
    const res = await p.post('/tokens').set('Content-Type', 'text/plain').send('name=x');
    expectError(res, 400, 'INVALID_REQUEST_FORMAT');
  });

  it('a body over 1 MiB → 400', async () => {
    const res = await p.post('/tokens', { name: 'x'.repeat(1024 * 1024 + 10), permissions: ['VIEW'] });
    expectError(res, 400, 'INVALID_REQUEST_FORMAT');
  });

  it('a JSON array or scalar body is a validation error, not a crash', async () => {
    for (const body of ['[]', '[1,2]', '"text"', '42', 'null']) {
      const res = await p.post('/tokens').set('Content-Type', 'application/json').send(body);
      expect([400]).toContain(res.status);
      expect(['INVALID_INPUT', 'INVALID_REQUEST_FORMAT']).toContain(res.body.code);
    }
  });

  it('echoes X-Request-Id, or generates one', async () => {
    const echoed = await t.http.get('/healthz').set('X-Request-Id', 'req-123');
    expect(echoed.headers['x-request-id']).toBe('req-123');
    const generated = await p.get('/nowhere');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('ROLE=worker', () => {
  it('serves only the health probes', async () => {
    // The dispatcher stays off: this test checks the HTTP surface on the shared test database.
    const worker = await startTestApp({ ROLE: 'worker' }, { runWorker: false });
    try {
      expect((await worker.http.get('/healthz')).status).toBe(200);
      expect((await worker.http.get('/readyz')).status).toBe(200);
      const res = await worker.http.get(`${V}/tokens`).set('Authorization', p.authorization);
      expectError(res, 404, 'NOT_FOUND');
    } finally {
      await worker.close();
    }
  });
});
