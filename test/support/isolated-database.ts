import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startEmbeddedDatabase } from '../../src/database/embedded.js';
import { migrate } from '../../src/database/open-database.js';

export interface IsolatedDatabase {
  url: string;
  /** Runs SQL on it (test bookkeeping, e.g. emptying the outbox between tests). */
  query(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
  close(): Promise<void>;
}

/**
 * A migrated database of the test file's own, on the run's engine: a fresh PostgreSQL database
 * (when the run uses PostgreSQL), or another in-memory embedded engine. Outbox workers run here so
 * they never claim the events of apps in other test files, nor theirs. `{ migrated: false }` leaves
 * it empty (for tests of the migrate command). A migrated one is a copy of the run's migrated
 * database (global-setup.js keeps it as a template), so the migrations run once per run.
 */
export async function isolatedDatabase(options: { migrated?: boolean } = {}): Promise<IsolatedDatabase> {
  const admin = process.env.TEST_DATABASE_ADMIN_URL;
  const migrated = options.migrated ?? true;
  const template = process.env.TEST_DATABASE_TEMPLATE;
  const snapshot = process.env.TEST_EMBEDDED_SNAPSHOT;
  let url: string;
  let stop: () => Promise<void>;
  let copied = false;
  if (admin) {
    const name = `test_iso_${Date.now()}_${randomBytes(3).toString('hex')}`;
    copied = migrated && Boolean(template);
    await withClient(admin, (c) =>
      createDatabase(c, `CREATE DATABASE ${name}${copied ? ` TEMPLATE ${template}` : ''}`),
    );
    const parsed = new URL(admin);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
    stop = () =>
      withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);
  } else {
    copied = migrated && Boolean(snapshot);
    const loadDataDir = copied ? new Blob([readFileSync(snapshot!)]) : undefined;
    const db = await startEmbeddedDatabase('memory://', 40, { loadDataDir });
    url = db.url;
    stop = () => db.stop();
  }
  if (migrated && !copied) await migrate(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    url,
    query: (sql, params) => client.query(sql, params),
    close: async () => {
      await client.end();
      await stop();
    },
  };
}

/**
 * Terminates the connections named `applicationName` on the server behind `url` (PostgreSQL):
 * how a test drops a LISTEN connection. Answers whether each was terminated.
 */
export async function terminateConnections(url: string, applicationName: string): Promise<boolean[]> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ terminated: boolean }>(
      'SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1',
      [applicationName],
    );
    return rows.map((r) => r.terminated);
  });
}

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** CREATE DATABASE, again while the template is briefly in use (55006: autovacuum, a closing pool). */
async function createDatabase(c: pg.Client, sql: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await c.query(sql);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((ok) => setTimeout(ok, 100));
    }
  }
}
