import { formatId, newUuid } from '../../src/common/ids.js';
import { referenceNodeVerify } from '../support/signatures.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The HTTP surface of webhooks: keys in GET /config, secret rotation, the sandbox TEST webhook
 * (sent synchronously, no worker needed), the operator endpoints and the SSRF guard. These apps
 * run with ROLE=api on the run's shared database: nothing here is delivered in the background.
 */
let t: TestApp;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
  for (const r of receivers) await r.stop();
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start();
  receivers.push(r);
  return r;
}

async function platformWithEndpoint(url: string, app = t): Promise<TestPlatform> {
  const p = await TestPlatform.create(app);
  expect((await p.patch('/config', { webhookEndpoint: url })).status).toBe(200);
  return p;
}

describe('webhook credentials in GET /config', () => {
  it('shows the public key to every token and the whsec_ secret to MANAGE tokens only', async () => {
    const p = await TestPlatform.create(t);
    const manage = (await p.get('/config')).body;
    expect(manage.webhookPublicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(manage.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);

    const viewer = await p.token(['VIEW']);
    const view = await t.http.get('/2025-10-13/config').set('Authorization', viewer.authorization);
    expect(view.status).toBe(200);
    expect(view.body.webhookPublicKey).toBe(manage.webhookPublicKey);
    expect(view.body).not.toHaveProperty('webhookSecret');

    const other = (await (await TestPlatform.create(t)).get('/config')).body;
    expect(other.webhookPublicKey).not.toBe(manage.webhookPublicKey);
    expect(other.webhookSecret).not.toBe(manage.webhookSecret);
  });

  it('rotating the secret needs MANAGE and keeps the key pair', async () => {
    const p = await TestPlatform.create(t);
    const before = (await p.get('/config')).body;
    for (const permissions of [['VIEW'], ['TRANSACT', 'VIEW']]) {
      const token = await p.token(permissions);
      const res = await t.http
        .post('/2025-10-13/config/webhook-secret/rotate')
        .set('Authorization', token.authorization);
      expectError(res, 403, 'FORBIDDEN');
    }
    const rotated = await p.post('/config/webhook-secret/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhookSecret).not.toBe(before.webhookSecret);
    expect(rotated.body.webhookPublicKey).toBe(before.webhookPublicKey);
    expect((await p.get('/config')).body.webhookSecret).toBe(rotated.body.webhookSecret);
  });

  it('PATCH /config answers the credentials too', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.patch('/config', { umaDomain: 'pay.example.com' });
    expect(res.body.webhookPublicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(res.body.webhookSecret).toMatch(/^whsec_/);
  });
});

describe('PATCH /config webhookEndpoint', () => {
  it('queues one TEST webhook when the endpoint changes, none otherwise', async () => {
    const p = await TestPlatform.create(t);
    await p.patch('/config', { webhookEndpoint: 'https://hooks.example.com/a' });
    await p.patch('/config', { webhookEndpoint: 'https://hooks.example.com/a' }); // unchanged
    await p.patch('/config', { umaDomain: 'pay.example.com' });
    await p.patch('/config', { webhookEndpoint: null }); // cleared: nothing to test
    await p.patch('/config', { webhookEndpoint: 'https://hooks.example.com/b' });
    const list = await p.get('/webhook-events');
    expect(list.status).toBe(200);
    expect(list.body.totalCount).toBe(2);
    const configId = (await p.get('/config')).body.id as string;
    for (const event of list.body.data) {
      expect(event).toMatchObject({
        type: 'TEST',
        status: 'PENDING',
        aggregateId: configId,
        deliveredAt: null,
        attempts: [],
        payload: { id: event.id, type: 'TEST', data: {} },
      });
      expect(event.nextAttemptAt).toEqual(expect.any(String));
    }
  });

  it('a PATCH that fails validation queues nothing', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.patch('/config', {
      webhookEndpoint: 'https://hooks.example.com/x',
      cardConfigs: { maxSpendPerDay: 0 },
    });
    expectError(res, 400, 'INVALID_INPUT');
    expect((await p.get('/webhook-events')).body.totalCount).toBe(0);
  });
});

// POST /webhooks/test (the older SDK's path) is an alias: the same rules, pinned by the same tests.
describe.each(['/sandbox/webhooks/test', '/webhooks/test'])('POST %s', (path) => {
  it('sends a signed TEST webhook now and answers the receiver response', async () => {
    const r = await receiver();
    r.respondWith({ status: 200, body: '{"received":true}' });
    const p = await platformWithEndpoint(r.url);
    const res = await p.post(path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: r.url, response_status: 200, response_body: '{"received":true}' });
    const got = await r.nth(1);
    expect(got.body).toMatchObject({ type: 'TEST', data: {} });
    const { webhookPublicKey } = (await p.get('/config')).body;
    expect(referenceNodeVerify(got.headers['x-grid-signature'] as string, got.rawBody, webhookPublicKey)).toBe(true);

    const event = (await p.get(`/webhook-events/${got.body.id}`)).body;
    expect(event).toMatchObject({ id: got.body.id, type: 'TEST', status: 'DELIVERED', payload: got.body });
    expect(event.attempts).toEqual([
      expect.objectContaining({ responseStatus: 200, responseBody: '{"received":true}', error: null }),
    ]);
  });

  it('a 409 counts as delivered', async () => {
    const r = await receiver();
    r.respondWith({ status: 409, body: 'seen it' });
    const p = await platformWithEndpoint(r.url);
    const res = await p.post(path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: r.url, response_status: 409, response_body: 'seen it' });
  });

  it('400 WEBHOOK_ENDPOINT_NOT_SET without an endpoint', async () => {
    const p = await TestPlatform.create(t);
    expectError(await p.post(path), 400, 'WEBHOOK_ENDPOINT_NOT_SET');
    expect((await p.get('/webhook-events')).body.totalCount).toBe(0);
  });

  it('400 WEBHOOK_DELIVERY_ERROR when the receiver fails, and the TEST event is FAILED (never retried)', async () => {
    const r = await receiver();
    r.respondWith({ status: 500, body: 'boom' });
    const p = await platformWithEndpoint(r.url);
    const res = await p.post(path);
    const body = expectError(res, 400, 'WEBHOOK_DELIVERY_ERROR');
    expect(body.details).toEqual({ url: r.url, response_status: 500, response_body: 'boom', error: null });
    const failed = await p.get('/webhook-events?status=FAILED');
    expect(failed.body.data).toHaveLength(1);
    expect(failed.body.data[0]).toMatchObject({ type: 'TEST', nextAttemptAt: null });
  });

  it('400 WEBHOOK_DELIVERY_ERROR when the receiver cannot be reached', async () => {
    const r = await receiver();
    const p = await platformWithEndpoint(r.url);
    await r.stop();
    const body = expectError(await p.post(path), 400, 'WEBHOOK_DELIVERY_ERROR');
    expect(body.details).toMatchObject({ url: r.url, response_status: null, error: 'ECONNREFUSED' });
  });

  it('needs MANAGE', async () => {
    const p = await TestPlatform.create(t);
    const viewer = await p.token(['VIEW', 'TRANSACT']);
    const res = await t.http.post(`/2025-10-13${path}`).set('Authorization', viewer.authorization);
    expectError(res, 403, 'FORBIDDEN');
  });
});

describe('SSRF guard with private targets off', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
  });
  afterAll(() => strict.close());

  it('refuses loopback, private, metadata addresses and names that resolve to them, before connecting', async () => {
    const r = await receiver();
    const port = new URL(r.url).port;
    for (const url of [
      r.url,
      `http://10.0.0.1:${port}/hook`,
      'http://169.254.169.254/latest/meta-data',
      `http://localhost:${port}/hook`,
      `http://[::1]:${port}/hook`,
    ]) {
      const p = await platformWithEndpoint(url, strict);
      const body = expectError(await p.post('/sandbox/webhooks/test'), 400, 'WEBHOOK_DELIVERY_ERROR');
      expect({ url, error: body.details!.error }).toEqual({ url, error: 'blocked: private address' });
    }
    expect(r.received).toHaveLength(0);
  });

  it('with DATABASE_URL, refuses private targets by default even with SANDBOX=true (no readable SSRF)', async () => {
    const byDefault = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: '', SANDBOX: 'true' });
    try {
      const r = await receiver();
      r.respondWith({ status: 200, body: 'internal-service-answer' });
      const p = await platformWithEndpoint(r.url, byDefault);
      const body = expectError(await p.post('/sandbox/webhooks/test'), 400, 'WEBHOOK_DELIVERY_ERROR');
      expect(body.details).toMatchObject({ error: 'blocked: private address' });
      expect(JSON.stringify(body)).not.toContain('internal-service-answer');
      expect(r.received).toHaveLength(0);
    } finally {
      await byDefault.close();
    }
  });

  it('WEBHOOK_ALLOW_PRIVATE_TARGETS=true lets the local receiver be reached', async () => {
    const r = await receiver();
    const p = await platformWithEndpoint(r.url);
    expect((await p.post('/sandbox/webhooks/test')).status).toBe(200);
  });
});

describe('GET /webhook-events', () => {
  it('filters by type, status and creation time, and pages with a cursor', async () => {
    const r = await receiver();
    const p = await platformWithEndpoint(r.url); // one PENDING TEST from the PATCH
    r.respondWith({ status: 200 }, { status: 500 }, { status: 200 });
    await p.post('/sandbox/webhooks/test');
    await p.post('/sandbox/webhooks/test');
    await p.post('/sandbox/webhooks/test');

    const all = await p.get('/webhook-events?limit=2');
    expect(all.body).toMatchObject({ totalCount: 4, hasMore: true });
    expect(all.body.data).toHaveLength(2);
    const rest = await p.get(`/webhook-events?limit=2&cursor=${all.body.nextCursor}`);
    expect(rest.body.hasMore).toBe(false);
    const ids = [...all.body.data, ...rest.body.data].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(4);

    expect((await p.get('/webhook-events?status=DELIVERED')).body.totalCount).toBe(2);
    expect((await p.get('/webhook-events?status=FAILED')).body.totalCount).toBe(1);
    expect((await p.get('/webhook-events?status=PENDING')).body.totalCount).toBe(1);
    expect((await p.get('/webhook-events?type=TEST')).body.totalCount).toBe(4);
    expect((await p.get('/webhook-events?type=CARD.STATUS_CHANGE')).body.totalCount).toBe(0);
    const newest = all.body.data[0] as { createdAt: string };
    expect((await p.get(`/webhook-events?createdAfter=${newest.createdAt}`)).body.totalCount).toBeGreaterThanOrEqual(1);
    expect((await p.get('/webhook-events?createdBefore=2000-01-01T00:00:00Z')).body.totalCount).toBe(0);
  });

  it('rejects unknown filter values', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.get('/webhook-events?status=LOST&type=NOPE&createdAfter=yesterday');
    const body = expectError(res, 400, 'INVALID_INPUT');
    expect((body.details!.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual([
      'createdAfter',
      'status',
      'type',
    ]);
  });

  it("another platform's event is 404 NOT_FOUND, for reads and redelivery alike", async () => {
    const owner = await TestPlatform.create(t);
    await owner.patch('/config', { webhookEndpoint: 'https://hooks.example.com/x' });
    const [event] = (await owner.get('/webhook-events')).body.data as Array<{ id: string }>;
    const stranger = await TestPlatform.create(t);
    expectError(await stranger.get(`/webhook-events/${event.id}`), 404, 'NOT_FOUND');
    expectError(await stranger.post(`/webhook-events/${event.id}/redeliver`), 404, 'NOT_FOUND');
    expectError(await owner.get(`/webhook-events/${formatId('Webhook', newUuid())}`), 404, 'NOT_FOUND');
    const malformed = expectError(await owner.get('/webhook-events/Card:123'), 400, 'INVALID_INPUT');
    expect(malformed.details!.errors).toEqual([expect.objectContaining({ field: 'eventId' })]);
  });

  it('redeliver needs MANAGE, keeps the id, and queues the event again', async () => {
    const r = await receiver();
    r.respondWith({ status: 500 });
    const p = await platformWithEndpoint(r.url);
    await p.post('/sandbox/webhooks/test');
    const [failed] = (await p.get('/webhook-events?status=FAILED')).body.data as Array<{ id: string; payload: object }>;
    const viewer = await p.token(['VIEW']);
    expectError(
      await t.http.post(`/2025-10-13/webhook-events/${failed.id}/redeliver`).set('Authorization', viewer.authorization),
      403,
      'FORBIDDEN',
    );
    const res = await p.post(`/webhook-events/${failed.id}/redeliver`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: failed.id, status: 'PENDING', payload: failed.payload });
    expect(res.body.attempts).toHaveLength(1);
  });
});

describe('SANDBOX=false', () => {
  it('has no /sandbox routes', async () => {
    const prod = await startTestApp({ SANDBOX: 'false' });
    try {
      const p = await TestPlatform.create(prod);
      expectError(await p.post('/sandbox/webhooks/test'), 404, 'NOT_FOUND');
    } finally {
      await prod.close();
    }
  });
});
