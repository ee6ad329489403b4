import pg from 'pg';
import { parseId } from '../../src/common/ids.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * Issue 15, protection: per-credential rate limits (429 RATE_LIMITED, Retry-After, RateLimit-*),
 * security headers, CORS off unless configured, the request timeout; every refusal in the error shape.
 */
let limited: TestApp;
let open: TestApp;
beforeAll(async () => {
  // A window no test outlasts: the counts below are exact, whatever the machine's speed.
  limited = await startTestApp({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_MS: '3600000' });
  open = await startTestApp({ CORS_ORIGINS: 'https://app.example.com, https://admin.example.com' });
});
afterAll(async () => {
  await limited.close();
  await open.close();
});

describe('rate limiting per credential', () => {
  it('answers RateLimit-* on every request and 429 RATE_LIMITED with Retry-After past the limit', async () => {
    const p = await TestPlatform.create(limited);
    for (let i = 0; i < 3; i++) {
      const res = await p.get('/tokens').expect(200);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(res.headers['ratelimit-remaining']).toBe(String(2 - i));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(res.headers['ratelimit-policy']).toBe('3;w=3600');
    }
    const refused = await p.get('/tokens');
    const body = expectError(refused, 429, 'RATE_LIMITED');
    expect(body.details).toEqual({ limit: 3, windowMs: 3_600_000 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['x-should-retry']).toBe('true');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    // A write past the limit is refused before it is read or run: nothing is created.
    const write = await p.post('/customers', { customerType: 'INDIVIDUAL' });
    expectError(write, 429, 'RATE_LIMITED');
  });

  it('counts each credential on its own: another token of the same platform still passes', async () => {
    const p = await TestPlatform.create(limited);
    const second = await p.token(['VIEW']); // the first token's 1st request
    for (let i = 0; i < 2; i++) await p.get('/tokens').expect(200);
    expectError(await p.get('/tokens'), 429, 'RATE_LIMITED');
    const res = await limited.http.get(`${V}/tokens/${second.id}`).set('Authorization', second.authorization);
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('2');
  });

  it('does not limit the public probes nor count refused credentials against a token', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await limited.http.get('/healthz').expect(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
    const p = await TestPlatform.create(limited);
    const wrong = `Basic ${Buffer.from(`${p.clientId}:not-the-secret`).toString('base64')}`;
    for (let i = 0; i < 5; i++)
      expectError(await limited.http.get(`${V}/tokens`).set('Authorization', wrong), 401, 'UNAUTHORIZED');
    expect((await p.get('/tokens').expect(200)).headers['ratelimit-remaining']).toBe('2');
  });
});

describe('security headers and CORS', () => {
  it('sends the API’s security headers on answers and errors alike, and helmet’s defaults on /docs', async () => {
    const p = await TestPlatform.create(open);
    const answers = [await p.get('/tokens'), await open.http.get(`${V}/tokens`), await open.http.get('/healthz')];
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=/);
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      // Headers that only steer how a browser runs an HTML page are not sent on JSON answers.
      expect(res.headers['x-xss-protection']).toBeUndefined();
      expect(res.headers['x-dns-prefetch-control']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
    const docs = await open.http.get('/docs/');
    expect(docs.status).toBe(200);
    expect(docs.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(docs.headers['x-xss-protection']).toBe('0');
  });

  it('answers no CORS headers unless CORS_ORIGINS is set', async () => {
    const res = await limited.http.get('/healthz').set('Origin', 'https://evil.example.com');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await limited.http
      .options(`${V}/tokens`)
      .set('Origin', 'https://evil.example.com')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(typeof (preflight.body as { code?: unknown }).code).toBe('string');
  });

  it('with CORS_ORIGINS, allows exactly those origins', async () => {
    const preflight = await open.http
      .options(`${V}/tokens`)
      .set('Origin', 'https://admin.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Idempotency-Key/i);
    const other = await open.http.get('/healthz').set('Origin', 'https://evil.example.com');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const p = await TestPlatform.create(open);
    const res = await p.get('/tokens').set('Origin', 'https://app.example.com').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(res.headers['access-control-expose-headers']).toMatch(/RateLimit-Remaining/);
  });
});

describe('request timeout', () => {
  it('answers 503 SERVICE_UNAVAILABLE (retryable) when the handler takes longer than REQUEST_TIMEOUT_MS', async () => {
    const slow = await startTestApp({ REQUEST_TIMEOUT_MS: '200' });
    const p = await TestPlatform.create(slow);
    await p.get('/config').expect(200); // the credential is cached: authentication needs no database
    // Hold the platform's settings row: PATCH /config waits for it (SELECT ... FOR UPDATE).
    const holder = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM platform_configs WHERE platform_id = $1 FOR UPDATE', [
        parseId('Platform', p.platformId),
      ]);
      const res = await p.patch('/config', { umaDomain: 'slow.example.com' });
      const body = expectError(res, 503, 'SERVICE_UNAVAILABLE');
      expect(body.reason).toMatch(/200 ms/);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.headers['x-should-retry']).toBe('true');
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    // The app serves on: nothing leaked from the timed-out request. On a loaded machine a read can
    // itself pass 200 ms (a 503 the client retries), so it is asked again until it is served; a
    // leaked connection or lock would refuse every attempt.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20 && statuses.at(-1) !== 200; attempt++) {
      statuses.push((await p.get('/config')).status);
    }
    expect({ last: statuses.at(-1), others: [...new Set(statuses.slice(0, -1))].filter((s) => s !== 503) }).toEqual({
      last: 200,
      others: [],
    });
    await slow.close();
  });
});
