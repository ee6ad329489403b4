import http from 'node:http';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { ChildServer } from '../support/child-server.js';
import { usdAccountBody } from '../support/fixtures.js';
import { isolatedDatabase } from '../support/isolated-database.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 15, graceful shutdown, on real processes (`node dist/src/main.js`, as the container runs
 * it, and `npm start`): SIGTERM during load turns readiness 503 first, every request the server
 * accepted is answered, the worker finishes its delivery, and the process exits 0.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Outcome {
  status?: number;
  id?: string;
  error?: string;
  answeredAfterSignal: boolean;
}

function post(port: number, agent: http.Agent, path: string, authorization: string, body: object) {
  const text = JSON.stringify(body);
  return new Promise<{ status: number; body: { id?: string } }>((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      agent,
      method: 'POST',
      path,
      headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) as { id?: string } }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}

function getStatus(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

it('SIGTERM during load: readiness 503 first, no accepted request fails, exit 0', async () => {
  const p = await TestPlatform.create(t);
  const server = ChildServer.start(['node', 'dist/src/main.js'], { SHUTDOWN_DRAIN_DELAY_MS: '2000' });
  const { port } = await server.listening();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const outcomes: Outcome[] = [];
  let signalled = false;
  let answered = 0;
  let reached: () => void;
  const enoughLoad = new Promise<void>((resolve) => (reached = resolve));

  // Eight clients creating accounts back to back until the server stops accepting connections.
  let sent = 0;
  const client = async () => {
    for (;;) {
      try {
        const body = usdAccountBody({ accountNumber: String(10_000_000_000 + sent++) });
        const res = await post(port, agent, `${V}/platform/external-accounts`, p.authorization, body);
        outcomes.push({ status: res.status, id: res.body.id, answeredAfterSignal: signalled });
        if (++answered === 40) reached();
      } catch (error) {
        outcomes.push({ error: (error as NodeJS.ErrnoException).code, answeredAfterSignal: signalled });
        return;
      }
    }
  };
  const clients = Promise.all(Array.from({ length: 8 }, client));
  await enoughLoad;
  expect(await getStatus(port, '/readyz')).toBe(200);
  signalled = true;
  server.child.kill('SIGTERM');
  await server.log('shutting down');
  expect(await getStatus(port, '/readyz')).toBe(503); // while it still serves (the drain delay)
  await clients;
  agent.destroy();
  const exit = await server.exited;

  expect(exit).toEqual({ code: 0, signal: null });
  expect(server.lines.find((l) => l.msg === 'stopped')).toMatchObject({ clean: true });
  // Every answer was a success, also those served after the signal.
  const answers = outcomes.filter((o) => o.status !== undefined);
  expect(answers.filter((o) => o.status !== 201)).toEqual([]);
  expect(answers.filter((o) => o.answeredAfterSignal).length).toBeGreaterThan(0);
  // A request that got no answer was refused at the door (the listener had closed)...
  const failed = outcomes.filter((o) => o.error !== undefined);
  expect(failed.length).toBe(8); // one per client: each stops at its first refusal
  // (a connection accepted but still silent when the listener closed may be reset instead)
  for (const o of failed) expect(['ECONNREFUSED', 'ECONNRESET']).toContain(o.error);
  // ...and nothing was created that its client was not told about: the accounts are exactly the answered ones.
  const stored = await t.app
    .get(DataSource)
    .query<Array<{ id: string }>>('SELECT id FROM external_accounts WHERE platform_id = $1', [
      parseId('Platform', p.platformId),
    ]);
  expect(new Set(stored.map((r) => r.id))).toEqual(new Set(answers.map((o) => parseId('ExternalAccount', o.id!))));
}, 120_000);

it('SIGTERM with a webhook in flight: the worker finishes and records it, then exits 0', async () => {
  const db = await isolatedDatabase();
  const api = await startTestApp({}, { databaseUrl: db.url });
  const receiver = await WebhookReceiver.start();
  let release: () => void = () => undefined;
  receiver.respondWith({ status: 200, after: new Promise<void>((resolve) => (release = resolve)) });
  try {
    const p = await TestPlatform.create(api);
    await p.patch('/config', { webhookEndpoint: receiver.url }).expect(200); // queues the TEST webhook
    const worker = ChildServer.start(['node', 'dist/src/main.js'], {
      DATABASE_URL: db.url,
      ROLE: 'worker',
      OUTBOX_POLL_INTERVAL_MS: '50',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    await worker.listening();
    await receiver.nth(1); // in flight: the receiver holds its answer
    worker.child.kill('SIGTERM');
    await worker.log('shutting down');
    release();
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(worker.lines.find((l) => l.msg === 'outbox worker stopped')).toMatchObject({ released: 0 });
    const { rows } = await db.query(`SELECT status, attempt_count FROM outbox_events WHERE platform_id = $1`, [
      parseId('Platform', p.platformId),
    ]);
    expect(rows).toEqual([{ status: 'DELIVERED', attempt_count: 1 }]);
  } finally {
    release();
    await receiver.stop();
    await api.close();
    await db.close();
  }
}, 120_000);

it.each(['SIGTERM', 'SIGINT'] as const)(
  '`npm start` stops with its server on %s',
  async (signal) => {
    // --ignore-scripts skips the prestart build (`npm test` has just built); the start script is the README's.
    const npm = ChildServer.start(['npm', 'start', '--ignore-scripts', '--silent']);
    const { port, pid } = await npm.listening();
    expect(pid).not.toBe(npm.child.pid); // the server is npm's child process
    expect(await getStatus(port, '/healthz')).toBe(200);
    npm.child.kill(signal);
    expect(await npm.exited).toEqual({ code: 0, signal: null });
    expect(npm.lines.find((l) => l.msg === 'stopped')).toMatchObject({ clean: true });
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }) as Error);
  },
  120_000,
);
