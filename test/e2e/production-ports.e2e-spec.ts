import { ChildServer } from '../support/child-server.js';
import { newCustomer } from '../support/fixtures.js';
import { newDocument, uploadDocument } from '../support/documents.js';
import { credentials, keyed } from '../support/stablecoins.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * The outside world's ports in production (docs/production.md): SANDBOX=false refuses to start with
 * a sandbox adapter, naming the variable; `none` answers the port's 503 `SERVICE_UNAVAILABLE` before
 * anything is written; which adapter each port runs is on the start's log line and the operator
 * route `GET /console/api/ports`; a sandbox says so in `/readyz` and in the console's session.
 */
const MAIN = ['node', 'dist/src/main.js'];

describe('the real entry point (dist/src/main.js)', () => {
  it.each([
    ['PAYOUT_RAIL', { SANDBOX: '' }], // DATABASE_URL alone: SANDBOX defaults to false
    ['KYC_PROVIDER', { SANDBOX: 'false' }],
    ['CARD_ISSUER', { SANDBOX: 'false', DATABASE_URL: '', PGLITE_DATA_DIR: 'memory://' }], // the embedded engine too
  ])('refuses to start with %s=sandbox and SANDBOX=false, naming the variable', async (variable, env) => {
    const server = ChildServer.start(MAIN, { ...env, [variable]: 'sandbox' });
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.errors).toContain(`${variable}=sandbox: the sandbox`);
    expect(server.errors).toContain('cannot run with SANDBOX=false');
    expect(server.output.filter((l) => l.includes('listening'))).toEqual([]);
  });

  it("logs every port's adapter at start; SANDBOX=true on PostgreSQL adds a warning", async () => {
    for (const [env, expected] of [
      [{ SANDBOX: '' }, { sandbox: false, PAYOUT_RAIL: 'none', DOCUMENT_STORE: 'database', warned: false }],
      [{ SANDBOX: 'true' }, { sandbox: true, PAYOUT_RAIL: 'sandbox', DOCUMENT_STORE: 'database', warned: true }],
    ] as const) {
      const server = ChildServer.start(MAIN, env);
      try {
        const line = await server.waitFor((l) => String(l.msg).startsWith('starting '), 'the starting line');
        expect(line.sandbox).toBe(expected.sandbox);
        const ports = line.ports as Record<string, string>;
        expect(Object.keys(ports)).toEqual([
          'PAYOUT_RAIL',
          'CARD_ISSUER',
          'STABLECOIN_PROVIDER',
          'BANK_LINK_PROVIDER',
          'KYC_PROVIDER',
          'EMAIL_TRANSPORT',
          'SMS_TRANSPORT',
          'RATE_SOURCE',
          'DOCUMENT_STORE',
        ]);
        expect(ports).toMatchObject({ PAYOUT_RAIL: expected.PAYOUT_RAIL, DOCUMENT_STORE: expected.DOCUMENT_STORE });
        await server.listening();
        const warnings = server.lines.filter((l) => String(l.msg).startsWith('SANDBOX=true with DATABASE_URL'));
        expect(warnings.length).toBe(expected.warned ? 1 : 0);
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    }
  });
});

describe('/readyz says whether this is a sandbox (and nothing about adapters)', () => {
  it('sandbox: true with SANDBOX=true; {status} alone with SANDBOX=false', async () => {
    const sandbox = await startTestApp({ SANDBOX: 'true' });
    const live = await startTestApp({ SANDBOX: 'false' });
    try {
      expect((await sandbox.http.get('/readyz').expect(200)).body).toEqual({ status: 'ready', sandbox: true });
      expect((await live.http.get('/readyz').expect(200)).body).toEqual({ status: 'ready' });
    } finally {
      await sandbox.close();
      await live.close();
    }
  });
});

describe('adapter none: 503 SERVICE_UNAVAILABLE before anything is written', () => {
  let t: TestApp; // the sandbox, where the customers and documents are made
  let none: TestApp; // the same database, every port that can be none set to none
  beforeAll(async () => {
    t = await startTestApp();
    none = await startTestApp({
      STABLECOIN_PROVIDER: 'none',
      BANK_LINK_PROVIDER: 'none',
      KYC_PROVIDER: 'none',
      DOCUMENT_STORE: 'none',
      CARD_ISSUER: 'none',
    });
  });
  afterAll(async () => {
    await t.close();
    await none.close();
  });

  it('STABLECOIN_PROVIDER=none: linking (even "prod_client" credentials) and every provider route', async () => {
    const p = (await TestPlatform.create(t)).on(none);
    const linked = await keyed(p, '/stablecoin-provider-accounts', credentials('prod_client'));
    expectError(linked, 503, 'SERVICE_UNAVAILABLE');
    expect(linked.headers['x-should-retry']).toBe('false');
    expect((await p.get('/stablecoin-provider-accounts')).body).toMatchObject({ data: [], totalCount: 0 });
    const coin = 'Stablecoin:00000000-0000-7000-8000-000000000000';
    for (const path of [
      '/stablecoins',
      `/stablecoins/${coin}/grid-operations/enablement`,
      `/stablecoins/${coin}/mints`,
    ])
      expectError(await keyed(p, path, {}), 503, 'SERVICE_UNAVAILABLE');
    // the same key on the sandbox app is a first attempt: nothing was recorded under it
    const key = 'k-none-then-sandbox';
    expectError(await keyed(p, '/stablecoin-provider-accounts', credentials(), key), 503, 'SERVICE_UNAVAILABLE');
    expect((await keyed(p.on(t), '/stablecoin-provider-accounts', credentials(), key)).status).toBe(201);
  });

  it('SANDBOX=false: Brale credentials named prod_client are not accepted as ACTIVE in PRODUCTION', async () => {
    const live = await startTestApp({ SANDBOX: 'false' });
    try {
      const p = (await TestPlatform.create(t)).on(live);
      expectError(
        await keyed(p, '/stablecoin-provider-accounts', credentials('prod_client')),
        503,
        'SERVICE_UNAVAILABLE',
      );
      expect((await p.get('/stablecoin-provider-accounts')).body).toMatchObject({ data: [], totalCount: 0 });
    } finally {
      await live.close();
    }
  });

  it('BANK_LINK_PROVIDER=none: the Plaid routes', async () => {
    const sandboxSide = await TestPlatform.create(t);
    const customer = await newCustomer(sandboxSide);
    const p = sandboxSide.on(none);
    expectError(await p.post('/plaid/link-tokens', { customerId: customer.id }), 503, 'SERVICE_UNAVAILABLE');
    expectError(
      await p.post('/plaid/callback/link-sandbox-x', { publicToken: 'public-sandbox-x' }),
      503,
      'SERVICE_UNAVAILABLE',
    );
    // authentication still comes first
    expectError(await none.http.post('/2025-10-13/plaid/link-tokens').send({}), 401, 'UNAUTHORIZED');
  });

  it('KYC_PROVIDER=none: a hosted KYC link and a submission; reads still answer', async () => {
    const sandboxSide = await TestPlatform.create(t);
    const customer = await newCustomer(sandboxSide);
    const p = sandboxSide.on(none);
    expectError(await p.post(`/customers/${customer.id}/kyc-link`, {}), 503, 'SERVICE_UNAVAILABLE');
    expectError(await p.post('/verifications', { customerId: customer.id }), 503, 'SERVICE_UNAVAILABLE');
    expect((await p.get('/verifications')).body).toMatchObject({ data: [] });
  });

  it('DOCUMENT_STORE=none: upload, replace and download; metadata still reads', async () => {
    const sandboxSide = await TestPlatform.create(t);
    const customer = await newCustomer(sandboxSide);
    const doc = await newDocument(sandboxSide, customer.id, 'PASSPORT');
    const p = sandboxSide.on(none);
    const fields = { documentHolder: customer.id, documentType: 'DRIVERS_LICENSE', country: 'US' };
    expectError(await uploadDocument(p, fields), 503, 'SERVICE_UNAVAILABLE');
    expectError(
      await uploadDocument(
        p,
        { documentType: 'PASSPORT', country: 'US' },
        undefined,
        'scan.pdf',
        'put',
        `/documents/${doc.id}`,
      ),
      503,
      'SERVICE_UNAVAILABLE',
    );
    expectError(await p.get(`/documents/${doc.id}/file`), 503, 'SERVICE_UNAVAILABLE');
    expect((await p.get(`/documents/${doc.id}`)).status).toBe(200);
    expect((await p.get('/documents')).body.data.map((d: { id: string }) => d.id)).toEqual([doc.id]);
  });
});

describe('GET /console/api/ports (operators: console sessions only)', () => {
  it("lists every port's adapter and kind; the session view flags SANDBOX=true on PostgreSQL", async () => {
    const t = await startTestApp({ CARD_ISSUER: 'none', MESSAGE_HOOK_URL: 'http://127.0.0.1:9/hook' });
    try {
      const p = await TestPlatform.create(t);
      expectError(await t.http.get('/console/api/ports'), 401, 'UNAUTHORIZED');
      expectError(await t.http.get('/console/api/ports').set('Authorization', p.authorization), 401, 'UNAUTHORIZED');
      const session = await t.http
        .post('/console/api/session')
        .send({ clientId: p.clientId, clientSecret: p.clientSecret });
      expect(session.body).toMatchObject({ sandbox: true, sandboxOnDatabase: true });
      const cookie = ([] as string[]).concat(session.headers['set-cookie'] ?? [])[0].split(';')[0];
      const res = await t.http.get('/console/api/ports').set('Cookie', cookie).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.sandbox).toBe(true);
      expect(res.body.sandboxOnDatabase).toBe(true);
      const byPort = Object.fromEntries(
        (res.body.ports as { port: string; adapter: string; kind: string }[]).map((r) => [
          r.port,
          `${r.adapter}/${r.kind}`,
        ]),
      );
      expect(byPort).toEqual({
        PAYOUT_RAIL: 'sandbox/sandbox',
        CARD_ISSUER: 'none/none',
        STABLECOIN_PROVIDER: 'sandbox/sandbox',
        BANK_LINK_PROVIDER: 'sandbox/sandbox',
        KYC_PROVIDER: 'sandbox/sandbox',
        EMAIL_TRANSPORT: 'hook/real',
        SMS_TRANSPORT: 'hook/real',
        RATE_SOURCE: 'sandbox/sandbox',
        DOCUMENT_STORE: 'database/real',
      });
    } finally {
      await t.close();
    }
  });
});
