import { ChildServer } from '../support/child-server.js';
import { individual } from '../support/customers.js';
import { isolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * What a start prints at LOG_LEVEL=info (the built service as a child process): a handful of
 * lines, the credentials banner last and nowhere else, never a database password, and not one
 * Node warning, at start or while the outbox worker claims and delivers (`--throw-deprecation`
 * makes a deprecation fatal; anything else on stderr fails the test).
 */
const MAX_START_LINES = 12;
const MAIN = [process.execPath, '--throw-deprecation', 'dist/src/main.js'];
/** An embedded start migrates a new database (15 s on a quiet 2-core machine), then delivers. */
const SLOW_START_MS = 240_000;

async function stop(server: ChildServer): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toEqual({ code: 0, signal: null }); // a clean, handled SIGTERM
}

describe('an empty embedded database', () => {
  let server: ChildServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    server = ChildServer.start(MAIN, { DATABASE_URL: '', PGLITE_DATA_DIR: 'memory://', ROLE: 'all', SANDBOX: 'true' });
  });
  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await receiver.stop();
  });

  it(
    'prints at most 12 lines, the credentials banner last; no warning while webhooks are delivered',
    async () => {
      const curl = await server.waitForOutput((l) => l.trim().startsWith('curl -u'), 'the banner');
      const start = [...server.output];
      expect(start.length).toBeLessThanOrEqual(MAX_START_LINES);
      expect(start.at(-1)).toBe(curl);

      const [, clientId, clientSecret, base, path] =
        /curl -u '([^:]+):([^']+)' (http:\/\/localhost:\d+)(\/\S+)/.exec(curl) ?? [];
      expect(path).toBe('/2025-10-13/tokens');
      const banner = start.slice(start.findIndex((l) => l.startsWith('Created Platform:')));
      expect(banner).toEqual([
        expect.stringMatching(/^Created Platform:\S+ on the empty embedded database\. .*\(shown once\):$/),
        `  clientId:     ${clientId}`,
        `  clientSecret: ${clientSecret}`,
        `Operator console (sign in with these credentials): ${base}/console/`,
        'Try:',
        curl,
      ]);
      // Before the banner: log lines only (JSON), naming the version, engine, role and URL.
      const logs = start.slice(0, start.length - banner.length).filter((l) => l.trim() !== '');
      const parsed = logs.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(parsed[0]).toMatchObject({ msg: expect.stringMatching(/^starting /), engine: 'embedded', role: 'all' });
      expect(parsed[0].version).toEqual(expect.any(String));
      expect(parsed.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['migrations applied', `listening on ${base}`, 'outbox worker started']),
      );
      expect(parsed.filter((l) => l.context === 'InstanceLoader' || l.context === 'RouterExplorer')).toEqual([]);

      // A few deliveries through the worker's claim loop: PATCH /config queues a TEST event, each
      // KYC decision a CUSTOMER event.
      const call = async (method: string, route: string, body: object) => {
        const res = await fetch(`${base}/2025-10-13${route}`, {
          method,
          headers: {
            Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify(body),
        });
        expect(res.status).toBeLessThan(300);
        return (await res.json()) as { id: string };
      };
      await call('PATCH', '/config', { webhookEndpoint: receiver.url });
      for (let i = 0; i < 3; i++) {
        const customer = await call('POST', '/customers', individual());
        await call('POST', `/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'APPROVED' });
      }
      const delivered = await receiver.waitFor(4);
      expect(delivered.map((d) => d.body.type)).toEqual(expect.arrayContaining(['TEST', 'CUSTOMER.KYC_APPROVED']));

      await stop(server);
      expect(server.errors).toBe('');
      // The credentials appear in the banner only (request logs, shutdown lines included).
      const elsewhere = server.output.filter((l, i) => !(i >= start.length - banner.length && i < start.length));
      expect(elsewhere.filter((l) => l.includes(clientSecret))).toEqual([]);
      expect(elsewhere.filter((l) => l.includes(clientId))).toEqual([]);
    },
    SLOW_START_MS,
  );
});

describe('PostgreSQL (DATABASE_URL)', () => {
  let db: IsolatedDatabase;

  beforeAll(async () => {
    db = await isolatedDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it(
    'names the host and database, never the password, in a few lines and without a warning',
    async () => {
      // A password in the URL (the embedded engine's socket needs its own; a trusting PostgreSQL ignores one).
      const url = new URL(db.url);
      if (!url.password) url.password = 'a-password-no-log-may-show';
      const password = decodeURIComponent(url.password);
      const server = ChildServer.start(MAIN, { DATABASE_URL: url.toString(), ROLE: 'all' });
      try {
        await server.listening();
        const starting = await server.waitFor((l) => String(l.msg).startsWith('starting '), 'the starting line');
        expect(starting).toMatchObject({
          engine: 'postgresql',
          host: decodeURIComponent(url.hostname),
          database: url.pathname.slice(1),
          role: 'all',
        });
        expect(server.output.length).toBeLessThanOrEqual(MAX_START_LINES);
      } finally {
        await stop(server);
      }
      expect(server.errors).toBe('');
      expect(server.output.filter((l) => l.includes(password) || l.includes(url.password))).toEqual([]);
      expect(server.output.filter((l) => /clientSecret/.test(l))).toEqual([]);
    },
    SLOW_START_MS,
  );
});
