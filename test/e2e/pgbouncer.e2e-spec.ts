import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { WebhookCapture } from '../support/events.js';
import { usdAccountBody } from '../support/fixtures.js';
import { isolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';
import { startTestApp, TestPlatform, type TestApp } from '../support/test-app.js';

/**
 * The service through PgBouncer in transaction mode (Debian's `pgbouncer`): every pooled query goes
 * through a pool of 2 server connections shared by a client pool of 10, while the LISTEN
 * connections and the migration lock use DATABASE_DIRECT_URL. PostgreSQL runs only (PgBouncer
 * speaks to a real server); `.ci/run` installs pgbouncer when apt can.
 */
const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find(
  (bin) => spawnSync(bin, ['--version']).status === 0,
);
const admin = process.env.TEST_DATABASE_ADMIN_URL;
const skip = !admin
  ? 'PostgreSQL run only (DATABASE_URL=postgres://... npm test)'
  : !PGBOUNCER
    ? 'pgbouncer is not installed (apt-get install pgbouncer)'
    : undefined;
if (skip) process.stderr.write(`[pgbouncer.e2e] skipped: ${skip}\n`);

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** Starts PgBouncer in the foreground and resolves once it accepts connections (its log says so). */
async function startPgBouncer(
  db: URL,
  dir: string,
  port: number,
): Promise<{ child: ChildProcess; url: string; adminUrl: string }> {
  const user = decodeURIComponent(db.username) || 'postgres';
  writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`);
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${db.hostname} port=${db.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      'default_pool_size = 2',
      'max_client_conn = 200',
      'server_reset_query =',
      'ignore_startup_parameters = extra_float_digits',
    ].join('\n'),
  );
  chmodSync(dir, 0o755);
  // PgBouncer refuses to run as root: drop to nobody (who can read the files above).
  const asRoot = process.getuid?.() === 0 ? ['-u', 'nobody'] : [];
  const child = spawn(PGBOUNCER!, [...asRoot, path.join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => {
        if (/process up|listening on/i.test(line)) resolve();
      });
    child.once('exit', (code) => reject(new Error(`pgbouncer exited with ${code}`)));
  });
  const url = new URL(db);
  url.host = `127.0.0.1:${port}`;
  const adminUrl = new URL(url);
  adminUrl.pathname = '/pgbouncer';
  return { child, url: url.toString(), adminUrl: adminUrl.toString() };
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

(skip ? describe.skip : describe)(
  `the service through PgBouncer in transaction mode${skip ? ` (${skip})` : ''}`,
  () => {
    let db: IsolatedDatabase;
    let dir: string;
    let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
    let t: TestApp;

    beforeAll(async () => {
      db = await isolatedDatabase();
      dir = mkdtempSync(path.join(tmpdir(), 'pgbouncer-'));
      bouncer = await startPgBouncer(new URL(db.url), dir, await freePort());
      // ROLE=all: the API, its token-revocation listener, and the outbox worker with its LISTEN.
      t = await startTestApp(
        { ROLE: 'all', DB_POOL_SIZE: '10', DATABASE_DIRECT_URL: db.url },
        { databaseUrl: bouncer.url },
      );
    });
    afterAll(async () => {
      await t?.close();
      bouncer?.child.kill('SIGTERM');
      if (bouncer) await once(bouncer.child, 'exit');
      await db?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('serves concurrent writes, idempotent replays and webhook delivery through 2 pooled server connections', async () => {
      const p = await TestPlatform.create(t);
      const capture = await WebhookCapture.attach(t, p);
      const bodies = Array.from({ length: 20 }, (_, i) => usdAccountBody({ accountNumber: String(40_000_000 + i) }));
      const creates = await Promise.all(
        bodies.map((body, i) => p.post('/platform/external-accounts', body).set('Idempotency-Key', `bouncer-${i}`)),
      );
      expect(creates.map((r) => r.status)).toEqual(Array(20).fill(201));
      const replay = await p.post('/platform/external-accounts', bodies[0]).set('Idempotency-Key', 'bouncer-0');
      expect(replay.status).toBe(201);
      expect(replay.body.id).toBe(creates[0].body.id);
      const list = await p.get('/platform/external-accounts?limit=100');
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(20);
      // Each status change writes an event in its transaction; the worker's claim (a multi-statement
      // transaction with SET LOCAL) and delivery work through the pooler too.
      const changes = await Promise.all(
        creates.map((r) => p.post(`/sandbox/external-accounts/${r.body.id as string}/status`, { status: 'INACTIVE' })),
      );
      expect(changes.map((r) => r.status)).toEqual(Array(20).fill(200));
      const delivered = await capture.deliver();
      expect(delivered.map((w) => w.body.type)).toEqual(Array(20).fill('EXTERNAL_ACCOUNT.STATUS_UPDATED'));
      await capture.stop();

      // Traffic went through PgBouncer ...
      const stats = await query<{ database: string; total_xact_count: string }>(bouncer.adminUrl, 'SHOW STATS');
      const ours = stats.find((s) => s.database === new URL(db.url).pathname.slice(1));
      expect(Number(ours?.total_xact_count)).toBeGreaterThan(20);
      // ... and the LISTEN connections did not: each is a session of its own, straight to PostgreSQL.
      const servers = await query<{ local_port: string }>(bouncer.adminUrl, 'SHOW SERVERS');
      const viaBouncer = new Set(servers.map((s) => Number(s.local_port)));
      const listeners = await db.query(
        `SELECT client_port FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`,
      );
      expect(listeners.rows.length).toBeGreaterThanOrEqual(2); // outbox worker + token cache
      for (const row of listeners.rows as Array<{ client_port: number }>)
        expect(viaBouncer.has(row.client_port)).toBe(false);
    });

    it('revoking a token takes effect at once through the pooler', async () => {
      const p = await TestPlatform.create(t);
      const created = await p.post('/tokens', { name: 'short-lived', permissions: ['VIEW'] });
      expect(created.status).toBe(201);
      const auth = `Basic ${Buffer.from(`${created.body.clientId}:${created.body.clientSecret}`).toString('base64')}`;
      expect((await t.http.get('/2025-10-13/tokens').set('Authorization', auth)).status).toBe(200);
      expect((await p.delete(`/tokens/${created.body.id}`)).status).toBe(204);
      expect((await t.http.get('/2025-10-13/tokens').set('Authorization', auth)).status).toBe(401);
    });
  },
);
