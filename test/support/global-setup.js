// Runs outside Jest's module system, so it loads the built app (`npm test` builds first).
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../dist/src/database/open-database.js';
import { startEmbeddedDatabase } from '../../dist/src/database/embedded.js';

/**
 * One database per test run: a fresh PostgreSQL database when DATABASE_URL is set, otherwise one
 * embedded PGlite engine served exactly as the app serves it (an owner-only Unix socket whose URL
 * carries the per-start password, handed to the test workers in TEST_DATABASE_URL). The real
 * migrations run once; every test file then connects with its own platform.
 *
 * The migrated state is also kept as the run's template, so a test file that needs a database of
 * its own (isolated-database.ts) gets a copy instead of running initdb and every migration again:
 * on PostgreSQL a template database (`CREATE DATABASE ... TEMPLATE`), on the embedded engine a dump
 * of the engine's files (TEST_EMBEDDED_SNAPSHOT) that a new engine starts from.
 */
export default async function globalSetup() {
  const base = process.env.DATABASE_URL;
  let url;
  if (base) {
    const name = `test_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const template = `${name}_tpl`;
    const dbUrl = (db) => {
      const parsed = new URL(base);
      parsed.pathname = `/${db}`;
      return parsed.toString();
    };
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${template}`);
      await migrate(dbUrl(template));
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } finally {
      await admin.end();
    }
    url = dbUrl(name);
    globalThis.__testDatabase = { base, name, template };
    process.env.TEST_DATABASE_ADMIN_URL = base; // isolated-database.ts creates more databases there
    process.env.TEST_DATABASE_TEMPLATE = template;
  } else {
    const db = await startEmbeddedDatabase('memory://', 64);
    url = db.url;
    globalThis.__embedded = db;
    await migrate(url);
    const dir = mkdtempSync(join(tmpdir(), 'grid-test-snapshot-'));
    const snapshot = join(dir, 'migrated.tar');
    writeFileSync(snapshot, Buffer.from(await (await db.dump()).arrayBuffer()));
    globalThis.__snapshotDir = dir;
    process.env.TEST_EMBEDDED_SNAPSHOT = snapshot;
  }
  process.env.TEST_DATABASE_URL = url;
  process.stdout.write(`\n[test] database: ${base ? 'PostgreSQL (fresh database per run)' : 'embedded PGlite'}\n`);
}
