import pg from 'pg';

export default async function globalTeardown() {
  if (globalThis.__embedded) await globalThis.__embedded.stop();
  const testDb = globalThis.__testDatabase;
  if (testDb) {
    const admin = new pg.Client({ connectionString: testDb.base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${testDb.name} WITH (FORCE)`);
    await admin.end();
  }
}
