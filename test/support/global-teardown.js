import pg from 'pg';
import { rmSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../dist/src/database/data-source.js';
import { verifyLedger } from '../../dist/src/ledger/ledger-verify.js';

/**
 * `ledger:verify` over the whole run's database (every platform every test file made), then the
 * database goes. A violation fails the run, naming the first one; so does a verification that
 * cannot run. `LEDGER_VERIFY_AFTER_TESTS=false` skips it (e.g. a run stopped half-way on purpose).
 */
export default async function globalTeardown() {
  let failure = null;
  const url = process.env.TEST_DATABASE_URL;
  if (url && process.env.LEDGER_VERIFY_AFTER_TESTS !== 'false') {
    const data = new DataSource(dataSourceOptions(url, 1));
    try {
      await data.initialize();
      const result = await verifyLedger(data);
      if (result.ok) {
        process.stdout.write(
          `[test] ledger:verify clean after the run: ${result.journals} journals, ${result.postings} postings, ${result.accounts} accounts\n`,
        );
      } else {
        const v = result.violation;
        failure = new Error(`ledger:verify after the test run: ${v.rule}: ${v.problem} (${JSON.stringify(v)})`);
      }
    } catch (err) {
      failure = new Error(
        `ledger:verify after the test run could not run: ${err instanceof Error ? err.message : err}`,
      );
    } finally {
      if (data.isInitialized) await data.destroy();
    }
  }
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
  if (failure) throw failure;
}
