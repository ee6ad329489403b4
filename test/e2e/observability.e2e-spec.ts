import http from 'node:http';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Lifecycle } from '../../src/health/lifecycle.js';
import { MetricsServer } from '../../src/metrics/metrics.server.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { OUTBOX_LISTENER, OutboxDispatcher, OutboxListenerState } from '../../src/outbox/outbox.dispatcher.js';
import { WebhookCapture } from '../support/events.js';
import { isolatedDatabase, terminateConnections } from '../support/isolated-database.js';
import { StatementCounter } from '../support/statement-counter.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/** Issue 15, observability: /metrics on its own port, the probes, and readiness while draining. */
let t: TestApp;
let metricsPort: number;
beforeAll(async () => {
  t = await startTestApp({ METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' });
  metricsPort = t.app.get(MetricsServer).port!;
});
afterAll(() => t.close());

function get(port: number, path: string): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type']),
            text: Buffer.concat(chunks).toString(),
          }),
        );
      })
      .on('error', reject);
  });
}

/** The value of one sample (`name{labels}` exactly as exposed), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const scrape = async (port = metricsPort) => {
  const res = await get(port, '/metrics');
  expect(res.status).toBe(200);
  expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
};

describe('GET /metrics', () => {
  it('is served on METRICS_PORT only, never on the API port', async () => {
    expect(metricsPort).toBeGreaterThan(0);
    const apiPort = ((t.app.getHttpServer() as http.Server).address() as { port: number }).port;
    expectError(await t.http.get('/metrics'), 404, 'NOT_FOUND');
    expectError(await t.http.get(`${V}/metrics`), 404, 'NOT_FOUND');
    expect((await get(metricsPort, '/other')).status).toBe(404);
    expect(apiPort).not.toBe(metricsPort);
  });

  it('is off when METRICS_PORT is unset', async () => {
    const plain = await startTestApp();
    expect(plain.app.get(MetricsServer).port).toBeNull();
    await plain.close();
  });

  it('counts request durations by route template and status', async () => {
    const p = await TestPlatform.create(t);
    const token = await p.token(['VIEW']);
    const before = await scrape();
    await p.get(`/tokens/${token.id}`).expect(200);
    await p.get(`/tokens/${token.id}`).expect(200);
    await t.http.get(`${V}/tokens/${token.id}`).expect(401);
    await t.http.get('/no-such-path').expect(404);
    const after = await scrape();
    const count = (text: string, route: string, status: number) =>
      sample(text, `http_request_duration_seconds_count{method="GET",route="${route}",status="${status}"}`) ?? 0;
    const byId = `${V}/tokens/:tokenId`;
    expect(count(after, byId, 200) - count(before, byId, 200)).toBe(2);
    expect(count(after, byId, 401) - count(before, byId, 401)).toBe(1);
    expect(count(after, 'unmatched', 404) - count(before, 'unmatched', 404)).toBe(1);
    // the raw id never becomes a label value
    expect(after).not.toContain(token.id);
    expect(after).toMatch(/http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="[^"]+tokenId"/);
  });

  it('shows requests in flight', async () => {
    const p = await TestPlatform.create(t);
    await p.get('/config').expect(200); // cached credential
    const port = ((t.app.getHttpServer() as http.Server).address() as { port: number }).port;
    const body = JSON.stringify({ name: 'in flight', permissions: ['VIEW'] });
    // Headers and half the body: the request is being served (waiting for the rest of its body).
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${V}/tokens`,
      headers: { authorization: p.authorization, 'content-type': 'application/json', 'content-length': body.length },
    });
    const answered = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
    });
    req.write(body.slice(0, 10));
    let inFlight = 0;
    for (let i = 0; i < 200 && inFlight < 1; i++) inFlight = sample(await scrape(), 'http_requests_in_flight') ?? 0;
    expect(inFlight).toBeGreaterThanOrEqual(1);
    req.end(body.slice(10));
    expect(await answered).toBe(201);
  });

  it('reports the pool, the outbox backlog and the counters other areas use', async () => {
    const p = await TestPlatform.create(t);
    await p.patch('/config', { webhookEndpoint: 'https://hooks.example.com/metrics' }).expect(200); // queues a TEST event
    const metrics = t.app.get(MetricsService);
    metrics.cardAuthorizations.inc({ outcome: 'approved' });
    metrics.agentExecutions.inc({ outcome: 'executed' });
    const text = await scrape();
    expect(sample(text, 'db_pool_max_connections')).toBe(5);
    expect(sample(text, 'db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'db_pool_connections{state="waiting"}')).toBe(0);
    // this app runs no worker: the event stays pending
    expect(sample(text, 'outbox_pending_events')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'card_authorizations_total{outcome="approved"}')).toBe(1);
    expect(sample(text, 'agent_executions_total{outcome="executed"}')).toBe(1);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('counts webhook deliveries by outcome (the worker’s recorded attempts)', async () => {
    const db = await isolatedDatabase();
    const w = await startTestApp({ METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' }, { databaseUrl: db.url });
    try {
      const p = await TestPlatform.create(w);
      const capture = await WebhookCapture.attach(w, p); // delivers the TEST webhook
      await capture.stop();
      const text = await scrape(w.app.get(MetricsServer).port!);
      expect(sample(text, 'webhook_deliveries_total{outcome="delivered"}')).toBe(1);
      expect(sample(text, 'outbox_pending_events')).toBe(0);
      expect(sample(text, 'outbox_oldest_pending_age_seconds')).toBe(0);
    } finally {
      await w.close();
      await db.close();
    }
  });
});

describe('probes', () => {
  it('liveness never touches the database; readiness does', async () => {
    const own = await startTestApp();
    try {
      const counter = new StatementCounter(own.app);
      expect(await counter.during(() => own.http.get('/healthz').expect(200))).toEqual([]);
      expect((await counter.during(() => own.http.get('/readyz').expect(200))).length).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });

  it('while draining: readiness 503, liveness 200, and answers close the connection', async () => {
    const own = await startTestApp({ SANDBOX: 'false' }); // a production readiness answer (no `sandbox` flag)
    try {
      const p = await TestPlatform.create(own);
      expect((await own.http.get('/readyz').expect(200)).body).toEqual({ status: 'ready' });
      own.app.get(Lifecycle).drain();
      const ready = await own.http.get('/readyz');
      expectError(ready, 503, 'SERVICE_UNAVAILABLE');
      expect(ready.headers.connection).toBe('close');
      expect((await own.http.get('/healthz').expect(200)).headers.connection).toBe('close');
      // requests are still served while the load balancer catches up
      await p.get('/config').expect(200);
    } finally {
      await own.close();
    }
  });
});

// The worker's LISTEN connection exists only on PostgreSQL (the embedded engine polls).
(process.env.TEST_DATABASE_ADMIN_URL ? describe : describe.skip)('worker readiness', () => {
  it('follows the LISTEN connection: 503 while it is down, ready again once it reconnects', async () => {
    const db = await isolatedDatabase();
    const w = await startTestApp({ ROLE: 'worker' }, { databaseUrl: db.url });
    try {
      const dispatcher = w.app.get(OutboxDispatcher);
      expect(dispatcher.listening).toBe(true);
      await w.http.get('/readyz').expect(200);
      const events = w.app.get(EventEmitter2);
      const next = (connected: boolean) =>
        new Promise<void>((resolve) => {
          const on = (e: OutboxListenerState) => {
            if (e.connected !== connected) return;
            events.off(OUTBOX_LISTENER, on);
            resolve();
          };
          events.on(OUTBOX_LISTENER, on);
        });
      const lost = next(false);
      const back = next(true);
      expect(await terminateConnections(db.url, dispatcher.listenerName)).toEqual([true]);
      await lost;
      expectError(await w.http.get('/readyz'), 503, 'SERVICE_UNAVAILABLE');
      await w.http.get('/healthz').expect(200);
      await back;
      await w.http.get('/readyz').expect(200);
    } finally {
      await w.close();
      await db.close();
    }
  });
});
