import { FakeClock } from '../support/fake-clock.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

// The operator console's sessions over HTTP (the browser tests are console.e2e-spec.ts): sign-in,
// the cookie, CSRF on writes, permissions, expiry, revocation, failed sign-ins.
const clock = new FakeClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CONSOLE_SIGNIN_FAILURES: '3' }, { clock });
});
afterAll(() => t.close());

const SESSION = '/console/api/session';

async function signIn(clientId: string, clientSecret: string) {
  const res = await t.http.post(SESSION).set('X-Forwarded-For', 'ignored').send({ clientId, clientSecret });
  expect(res.status).toBe(200);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = setCookie[0].split(';')[0];
  return { cookie, setCookie: setCookie[0], csrf: res.body.csrfToken as string, body: res.body };
}

describe('console sessions', () => {
  it('signs in with an API token: an HttpOnly SameSite=Strict cookie stands for the token on the REST routes', async () => {
    const p = await TestPlatform.create(t);
    const s = await signIn(p.clientId, p.clientSecret);
    expect(s.setCookie).toMatch(
      /^console_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/,
    );
    expect(s.body).toMatchObject({
      platformId: p.platformId,
      sandbox: true,
      idleTimeoutSeconds: 1800,
    });
    expect([...s.body.token.permissions].sort()).toEqual(['MANAGE', 'TRANSACT', 'VIEW']);
    expect(JSON.stringify(s.body)).not.toContain(p.clientSecret);
    const me = await t.http.get(SESSION).set('Cookie', s.cookie);
    expect(me.status).toBe(200);
    expect(me.body.csrfToken).toBe(s.csrf);
    const tokens = await t.http.get(`${V}/tokens`).set('Cookie', s.cookie);
    expect(tokens.status).toBe(200);
    expect(tokens.body.data.length).toBeGreaterThanOrEqual(1);
    // a new session id at every sign-in; the one presented ends
    const again = await t.http
      .post(SESSION)
      .set('Cookie', s.cookie)
      .send({ clientId: p.clientId, clientSecret: p.clientSecret });
    expect(again.status).toBe(200);
    expect(String(again.headers['set-cookie'])).not.toContain(s.cookie);
    expectError(await t.http.get(`${V}/tokens`).set('Cookie', s.cookie), 401, 'UNAUTHORIZED');
  });

  it('a write with the cookie needs the session CSRF token; the same validation and errors as the API', async () => {
    const p = await TestPlatform.create(t);
    const s = await signIn(p.clientId, p.clientSecret);
    const body = { name: 'from the console', permissions: ['VIEW'] };
    expectError(await t.http.post(`${V}/tokens`).set('Cookie', s.cookie).send(body), 403, 'FORBIDDEN');
    expectError(
      await t.http.post(`${V}/tokens`).set('Cookie', s.cookie).set('X-CSRF-Token', `${s.csrf}x`).send(body),
      403,
      'FORBIDDEN',
    );
    const ok = await t.http.post(`${V}/tokens`).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).send(body);
    expect(ok.status).toBe(201);
    const bad = await t.http.post(`${V}/tokens`).set('Cookie', s.cookie).set('X-CSRF-Token', s.csrf).send({});
    expectError(bad, 400, 'INVALID_INPUT');
  });

  it("a VIEW token's session reads but its forged writes are refused (403)", async () => {
    const p = await TestPlatform.create(t);
    const viewer = await p.token(['VIEW']);
    const s = await signIn(viewer.clientId, viewer.clientSecret);
    expect(s.body.token.permissions).toEqual(['VIEW']);
    expect((await t.http.get(`${V}/cards`).set('Cookie', s.cookie)).status).toBe(200);
    const forged = await t.http
      .post(`${V}/tokens`)
      .set('Cookie', s.cookie)
      .set('X-CSRF-Token', s.csrf)
      .send({ name: 'x', permissions: ['MANAGE'] });
    expectError(forged, 403, 'FORBIDDEN');
  });

  it('signing out, deleting the token, the idle timeout and the absolute lifetime each end a session', async () => {
    const p = await TestPlatform.create(t);
    const out = await signIn(p.clientId, p.clientSecret);
    expectError(await t.http.delete(SESSION).set('Cookie', out.cookie), 403, 'FORBIDDEN');
    const signOut = await t.http.delete(SESSION).set('Cookie', out.cookie).set('X-CSRF-Token', out.csrf);
    expect(signOut.status).toBe(204);
    expect(String(signOut.headers['set-cookie'])).toContain('console_session=; Path=/; Max-Age=0');
    expectError(await t.http.get(SESSION).set('Cookie', out.cookie), 401, 'UNAUTHORIZED');

    const other = await p.token(['VIEW', 'TRANSACT']);
    const doomed = await signIn(other.clientId, other.clientSecret);
    expect((await p.delete(`/tokens/${other.id}`)).status).toBe(204);
    expectError(await t.http.get(`${V}/cards`).set('Cookie', doomed.cookie), 401, 'UNAUTHORIZED');

    const idle = await signIn(p.clientId, p.clientSecret);
    clock.advance(29 * 60 * 1000);
    expect((await t.http.get(SESSION).set('Cookie', idle.cookie)).status).toBe(200);
    clock.advance(29 * 60 * 1000); // used 29 minutes ago: still alive
    expect((await t.http.get(`${V}/cards`).set('Cookie', idle.cookie)).status).toBe(200);
    clock.advance(30 * 60 * 1000 + 1);
    expectError(await t.http.get(`${V}/cards`).set('Cookie', idle.cookie), 401, 'UNAUTHORIZED');

    const old = await signIn(p.clientId, p.clientSecret);
    for (let i = 0; i < 25; i++) {
      clock.advance(29 * 60 * 1000);
      const res = await t.http.get(SESSION).set('Cookie', old.cookie);
      if (i < 24) expect(res.status).toBe(200);
      else expectError(res, 401, 'UNAUTHORIZED'); // 12 h after sign-in, however active
    }
  });

  it('failed sign-ins get one generic answer and are rate limited', async () => {
    const p = await TestPlatform.create(t);
    const unknown = await t.http.post(SESSION).send({ clientId: 'nobody', clientSecret: 'x' });
    const wrong = await t.http.post(SESSION).send({ clientId: p.clientId, clientSecret: 'wrong' });
    expect(expectError(unknown, 401, 'UNAUTHORIZED').reason).toBe(expectError(wrong, 401, 'UNAUTHORIZED').reason);
    expect(unknown.headers['set-cookie']).toBeUndefined();
    await t.http.post(SESSION).send({ clientId: p.clientId, clientSecret: 'wrong' });
    const limited = await t.http.post(SESSION).send({ clientId: p.clientId, clientSecret: p.clientSecret });
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('CONSOLE=false', () => {
  it('has no console: no pages, no sign-in, and a session cookie authenticates nothing', async () => {
    const off = await startTestApp({ CONSOLE: 'false' });
    try {
      const p = await TestPlatform.create(off);
      expectError(await off.http.get('/console/'), 404, 'NOT_FOUND');
      expectError(
        await off.http.post(SESSION).send({ clientId: p.clientId, clientSecret: p.clientSecret }),
        404,
        'NOT_FOUND',
      );
      expectError(await off.http.get(`${V}/cards`).set('Cookie', 'console_session=abc'), 401, 'UNAUTHORIZED');
    } finally {
      await off.close();
    }
  });
});
