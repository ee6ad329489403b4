import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('API tokens', () => {
  it('creates a token whose secret is shown once and authenticates at once', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/tokens', { name: 'read only', permissions: ['VIEW'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'read only', permissions: ['VIEW'] });
    expect(res.body.id).toMatch(/^Token:[0-9a-f-]{36}$/);
    expect(res.body.clientId).not.toContain(':');
    expect(res.body.clientSecret).toEqual(expect.any(String));
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);

    const fetched = await p.get(`/tokens/${res.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.clientSecret).toBeUndefined();

    const auth = `Basic ${Buffer.from(`${res.body.clientId}:${res.body.clientSecret}`).toString('base64')}`;
    const asNew = await t.http.get(`${V}/tokens`).set('Authorization', auth);
    expect(asNew.status).toBe(200);
  });

  it('revocation takes effect on the very next request', async () => {
    const p = await TestPlatform.create(t);
    const other = await p.token(['VIEW']);
    expect((await t.http.get(`${V}/tokens`).set('Authorization', other.authorization)).status).toBe(200);
    expect((await p.delete(`/tokens/${other.id}`)).status).toBe(204);
    const after = await t.http.get(`${V}/tokens`).set('Authorization', other.authorization);
    expectError(after, 401, 'UNAUTHORIZED');
    expectError(await p.get(`/tokens/${other.id}`), 404, 'TOKEN_NOT_FOUND');
    expectError(await p.delete(`/tokens/${other.id}`), 404, 'TOKEN_NOT_FOUND');
  });

  it('another platform’s token is 404, never 403', async () => {
    const a = await TestPlatform.create(t);
    const b = await TestPlatform.create(t);
    const tokenOfA = await a.token(['VIEW']);
    expectError(await b.get(`/tokens/${tokenOfA.id}`), 404, 'TOKEN_NOT_FOUND');
    expectError(await b.delete(`/tokens/${tokenOfA.id}`), 404, 'TOKEN_NOT_FOUND');
    const list = await b.get('/tokens?limit=100');
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(tokenOfA.id);
  });

  it('a malformed token id is a FieldError on the path parameter', async () => {
    const p = await TestPlatform.create(t);
    const body = expectError(await p.get('/tokens/not-an-id'), 400, 'INVALID_INPUT');
    expect(body.details).toEqual({
      errors: [expect.objectContaining({ field: 'tokenId', constraint: { pattern: expect.any(String) } })],
    });
  });

  it('reports every invalid field of a create in one response', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/tokens', { name: '', permissions: ['VIEW', 'ROOT'], extra: 1 });
    const body = expectError(res, 400, 'INVALID_INPUT');
    const fields = (body.details!.errors as Array<{ field: string; constraint?: unknown }>).map((e) => e.field).sort();
    expect(fields).toEqual(['extra', 'name', 'permissions']);
    const perm = (body.details!.errors as Array<{ field: string; constraint?: { enum?: string[] } }>).find(
      (e) => e.field === 'permissions',
    );
    expect(perm?.constraint?.enum).toEqual(['VIEW', 'TRANSACT', 'MANAGE']);
    expect(res.headers['x-should-retry']).toBe('false');
  });

  it('filters by name and pages with a stable cursor while rows are inserted', async () => {
    const p = await TestPlatform.create(t);
    for (let i = 0; i < 5; i++) await p.token(['VIEW']);
    const first = await p.get('/tokens?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 6 });
    expect(first.body.data).toHaveLength(2);
    await p.token(['VIEW']); // inserted between pages: must not shift the next page
    const seen: string[] = first.body.data.map((x: { id: string }) => x.id);
    let cursor: string | undefined = first.body.nextCursor;
    while (cursor) {
      const page = await p.get(`/tokens?limit=2&cursor=${encodeURIComponent(cursor)}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((x: { id: string }) => x.id));
      cursor = page.body.hasMore ? page.body.nextCursor : undefined;
      if (!page.body.hasMore) expect(page.body.nextCursor).toBeUndefined();
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    const named = await p.get(`/tokens?name=${encodeURIComponent('Test platform admin')}`);
    expect(named.body.data).toHaveLength(1);
  });

  it('rejects limits outside 1..100 and foreign cursors', async () => {
    const p = await TestPlatform.create(t);
    for (const bad of ['0', '101', 'abc', '1.5']) {
      const body = expectError(await p.get(`/tokens?limit=${bad}`), 400, 'INVALID_INPUT');
      expect((body.details!.errors as Array<{ field: string }>)[0].field).toBe('limit');
    }
    const body = expectError(await p.get('/tokens?cursor=bogus'), 400, 'INVALID_INPUT');
    expect((body.details!.errors as Array<{ field: string }>)[0].field).toBe('cursor');
    const dates = expectError(await p.get('/tokens?createdAfter=yesterday'), 400, 'INVALID_INPUT');
    expect((dates.details!.errors as Array<{ field: string }>)[0].field).toBe('createdAfter');
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and body', async () => {
    const p = await TestPlatform.create(t);
    const body = { name: 'idem', permissions: ['VIEW'] };
    const first = await p.post('/tokens', body).set('Idempotency-Key', 'k-1');
    expect(first.status).toBe(201);
    const again = await p.post('/tokens', body).set('Idempotency-Key', 'k-1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const list = await p.get('/tokens?name=idem');
    expect(list.body.totalCount).toBe(1);
  });

  it('refuses the same key with a different body', async () => {
    const p = await TestPlatform.create(t);
    await p.post('/tokens', { name: 'a', permissions: ['VIEW'] }).set('Idempotency-Key', 'k-2');
    const res = await p.post('/tokens', { name: 'b', permissions: ['VIEW'] }).set('Idempotency-Key', 'k-2');
    expectError(res, 409, 'CONFLICT');
    expect(res.headers['x-should-retry']).toBe('false');
  });

  it('keys are scoped to the platform', async () => {
    const a = await TestPlatform.create(t);
    const b = await TestPlatform.create(t);
    const body = { name: 'scoped', permissions: ['VIEW'] };
    const ra = await a.post('/tokens', body).set('Idempotency-Key', 'shared');
    const rb = await b.post('/tokens', body).set('Idempotency-Key', 'shared');
    expect(rb.headers['idempotent-replayed']).toBeUndefined();
    expect(rb.body.id).not.toBe(ra.body.id);
  });

  it('concurrent requests with one key create exactly one token', async () => {
    const p = await TestPlatform.create(t);
    const body = { name: 'race', permissions: ['VIEW'] };
    const results = await Promise.all(
      Array.from({ length: 8 }, async () => await p.post('/tokens', body).set('Idempotency-Key', 'k-race')),
    );
    const created = results.filter((r) => r.status === 201);
    const inFlight = results.filter((r) => r.status === 409);
    expect(created.length + inFlight.length).toBe(8);
    expect(new Set(created.map((r) => r.body.id as string)).size).toBe(1);
    for (const r of inFlight) {
      expect(r.body.code).toBe('CONFLICT');
      expect(r.headers['x-should-retry']).toBe('true');
      expect(r.headers['retry-after']).toBeDefined();
    }
    expect((await p.get('/tokens?name=race')).body.totalCount).toBe(1);
  });

  it('rejects an over-long key', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/tokens', { name: 'x', permissions: ['VIEW'] }).set('Idempotency-Key', 'k'.repeat(256));
    const body = expectError(res, 400, 'INVALID_INPUT');
    expect(body.details).toEqual({ errors: [expect.objectContaining({ field: 'Idempotency-Key' })] });
  });
});
