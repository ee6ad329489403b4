import pg from 'pg';
import { rmSync } from 'node:fs';

export default async function globalTeardown() {
  if (globalThis.__embedded) await globalThis.__embedded.stop();
  if (globalThis.__snapshotDir) rmSync(globalThis.__snapshotDir, { recursive: true, force: true });
  const testDb = globalThis.__testDatabase;
  if (testDb) {
    const admin = new pg.Client({ connectionString: testDb.base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${testDb.name} WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS ${testDb.template} WITH (FORCE)`);
    await admin.end();
  }
}
