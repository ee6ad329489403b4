// Runs outside Jest's module system, so it loads the built app (`npm test` builds first).
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { migrate } from '../../dist/src/database/open-database.js';
import { startEmbeddedDatabase } from '../../dist/src/database/embedded.js';

/**
 * One database per test run: a fresh PostgreSQL database when DATABASE_URL is set, otherwise one
 * embedded PGlite engine served exactly as the app serves it (an owner-only Unix socket whose URL
 * carries the per-start password, handed to the test workers in TEST_DATABASE_URL). The real
 * migrations run once; every test file then connects with its own platform.
 */
export default async function globalSetup() {
  const base = process.env.DATABASE_URL;
  let url;
  if (base) {
    const name = `test_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const parsed = new URL(base);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
    globalThis.__testDatabase = { base, name };
    process.env.TEST_DATABASE_ADMIN_URL = base; // isolated-database.ts creates more databases there
  } else {
    const db = await startEmbeddedDatabase('memory://', 64);
    url = db.url;
    globalThis.__embedded = db;
  }
  await migrate(url);
  process.env.TEST_DATABASE_URL = url;
  process.stdout.write(`\n[test] database: ${base ? 'PostgreSQL (fresh database per run)' : 'embedded PGlite'}\n`);
}
