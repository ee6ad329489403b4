import pg from 'pg';
import { DataSource } from 'typeorm';
import { DistributionKeys1767231500000 } from '../../src/database/migrations/1767231500000-DistributionKeys.js';
import { MIGRATIONS } from '../../src/database/schema.js';
import { isolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';

/**
 * The migration that puts platform_id in every distributed table's keys (issue #49) on a populated
 * database: a hundred thousand rows in each of the largest tables (ledger_entries, outbox_events,
 * outbox_attempts), migrated while a writer on a second connection keeps inserting ledger
 * journals, outbox events and attempts and updating events. No single write may wait a second
 * (indexes are built CONCURRENTLY, foreign keys added NOT VALID and validated, the backfill runs in
 * short batches). On the embedded engine (one backend: a second connection's statement waits for
 * the migration's current statement, so write latency is not what is measured there) the same
 * populated database is migrated and must keep every row, filled.
 */
const BEFORE = MIGRATIONS.slice(0, MIGRATIONS.indexOf(DistributionKeys1767231500000));
/** Up to and including this migration (later ones are not its to undo). */
const THROUGH = MIGRATIONS.slice(0, MIGRATIONS.indexOf(DistributionKeys1767231500000) + 1);
const ROWS = 100_000;
const PLATFORM = '01900000-0000-7000-8000-00000000d151';
const ACCOUNT = '01900000-0000-7000-8000-00000000d152';
const postgres = Boolean(process.env.TEST_DATABASE_ADMIN_URL);

async function dataSource(url: string, migrations: typeof MIGRATIONS): Promise<DataSource> {
  const d = new DataSource({ type: 'postgres', url, migrations, migrationsRun: false });
  await d.initialize();
  return d;
}

/** A platform with one account, ROWS/2 balanced journals (ROWS ledger entries), ROWS events with one attempt each. */
async function populate(db: IsolatedDatabase): Promise<void> {
  await db.query(`INSERT INTO platforms (id, name) VALUES ($1, 'populated')`, [PLATFORM]);
  await db.query(
    `INSERT INTO internal_accounts (id, platform_id, type, currency, balance, ledger_seq)
     VALUES ($1, $2, 'INTERNAL_FIAT', 'USD', $3, $4)`,
    [ACCOUNT, PLATFORM, (ROWS / 2) * 100, ROWS / 2],
  );
  await db.query(
    `INSERT INTO ledger_entries (id, account_id, platform_id, seq, amount, balance_after, reason, journal_id, currency,
                                 system_account)
     SELECT gen_random_uuid(), CASE WHEN s.side = 0 THEN $2::uuid END, $1, CASE WHEN s.side = 0 THEN j.n END,
            CASE WHEN s.side = 0 THEN 100 ELSE -100 END, CASE WHEN s.side = 0 THEN j.n * 100 END, 'SEED', j.journal, 'USD',
            CASE WHEN s.side = 1 THEN 'SANDBOX_FUNDING' END
       FROM (SELECT n, gen_random_uuid() AS journal FROM generate_series(1, $3::int) n) j CROSS JOIN (VALUES (0), (1)) s(side)`,
    [PLATFORM, ACCOUNT, ROWS / 2],
  );
  await db.query(
    `INSERT INTO outbox_events (id, platform_id, type, aggregate_id, seq, body, status, next_attempt_at, retrying_since,
                                created_at, delivered_at)
     SELECT gen_random_uuid(), $1, 'CUSTOMER_UPDATE', 'Customer:' || n, 1, '{}', 'DELIVERED', now(), now(), now(), now()
       FROM generate_series(1, $2::int) n`,
    [PLATFORM, ROWS],
  );
  await db.query(
    `INSERT INTO outbox_attempts (event_id, attempted_at, duration_ms, response_status)
     SELECT id, now(), 5, 200 FROM outbox_events`,
  );
}

const counts = async (db: IsolatedDatabase) =>
  (
    await db.query(
      `SELECT (SELECT count(*) FROM ledger_entries)::int AS ledger, (SELECT count(*) FROM outbox_events)::int AS events,
              (SELECT count(*) FROM outbox_attempts)::int AS attempts`,
    )
  ).rows[0] as { ledger: number; events: number; attempts: number };

/**
 * Writes until told to stop, on its own connection, one statement at a time (each its own
 * transaction): a balanced journal, an event and its attempt (with platform_id once the column
 * exists, as the new code writes it), an update of an old event. Answers the slowest write (ms).
 */
function writer(url: string, eventIds: string[]) {
  let stop = false;
  const latencies: number[] = [];
  const done = (async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const timed = async (sql: string, params: unknown[]) => {
      const started = performance.now();
      await c.query(sql, params);
      latencies.push(performance.now() - started);
    };
    try {
      for (let i = 1; !stop; i++) {
        const seq = ROWS / 2 + i;
        await timed(
          `INSERT INTO ledger_entries (id, account_id, platform_id, seq, amount, balance_after, reason, journal_id,
                                       currency, system_account)
           SELECT gen_random_uuid(), a, $1, s, amt, b, 'WRITER', j, 'USD', sys
             FROM (SELECT gen_random_uuid() AS j) journal,
                  (VALUES ($2::uuid, $3::bigint, 100, $3::bigint * 100, NULL), (NULL, NULL, -100, NULL, 'SANDBOX_FUNDING'))
                    AS e(a, s, amt, b, sys)`,
          [PLATFORM, ACCOUNT, seq],
        );
        const id = crypto.randomUUID();
        await timed(
          `INSERT INTO outbox_events (id, platform_id, type, aggregate_id, seq, body, status, next_attempt_at,
                                      retrying_since, created_at)
           VALUES ($1, $2, 'CUSTOMER_UPDATE', $3, 1, '{}', 'PENDING', now(), now(), now())`,
          [id, PLATFORM, `Customer:w${i}`],
        );
        const withPlatform = (
          await c.query(
            `SELECT 1 FROM pg_attribute WHERE attrelid = 'outbox_attempts'::regclass AND attname = 'platform_id'`,
          )
        ).rows.length;
        await timed(
          withPlatform
            ? `INSERT INTO outbox_attempts (platform_id, event_id, attempted_at, duration_ms, response_status)
               VALUES ($2, $1, now(), 5, 200)`
            : `INSERT INTO outbox_attempts (event_id, attempted_at, duration_ms, response_status)
               VALUES ($1, now(), 5, 200)`,
          withPlatform ? [id, PLATFORM] : [id],
        );
        await timed(`UPDATE outbox_events SET attempt_count = attempt_count + 1 WHERE id = $1`, [
          eventIds[i % eventIds.length],
        ]);
      }
    } finally {
      await c.end();
    }
  })();
  return {
    latencies,
    stop: async () => {
      stop = true;
      await done;
    },
  };
}

it('a populated database migrates while a writer keeps writing: no write waits a second, every row kept', async () => {
  const db = await isolatedDatabase({ migrated: false });
  const before = await dataSource(db.url, BEFORE);
  try {
    await before.runMigrations({ transaction: 'each' });
    await before.destroy();
    let started = performance.now();
    await populate(db);
    const populateMs = Math.round(performance.now() - started);
    const seeded = await counts(db);
    expect(seeded).toEqual({ ledger: ROWS, events: ROWS, attempts: ROWS });
    const sample = (await db.query(`SELECT id FROM outbox_events ORDER BY id LIMIT 1000`)).rows.map(
      (r: { id: string }) => r.id,
    );

    const d = await dataSource(db.url, MIGRATIONS);
    const w = postgres ? writer(db.url, sample) : null;
    let migrateMs: number;
    try {
      started = performance.now();
      await d.runMigrations({ transaction: 'each' });
      migrateMs = Math.round(performance.now() - started);
    } finally {
      await w?.stop();
      await d.destroy();
    }

    const after = await counts(db);
    const writes = w?.latencies.length ?? 0;
    const slowest = Math.round(Math.max(0, ...(w?.latencies ?? [])));
    console.log(
      `[distribution-keys] ${postgres ? 'PostgreSQL' : 'embedded'}: ${ROWS} rows each in ledger_entries, outbox_events, outbox_attempts ` +
        `populated in ${populateMs} ms; migrated in ${migrateMs} ms` +
        (w ? ` with ${writes} concurrent writes, slowest ${slowest} ms` : ' (no concurrent writer: one backend)'),
    );
    const journals = Math.ceil(writes / 4);
    expect(after.ledger).toBeGreaterThanOrEqual(ROWS + 2 * (journals - 1));
    expect(after.events - ROWS).toBe(after.attempts - ROWS);
    expect(after.events).toBeGreaterThanOrEqual(ROWS + journals - 1);
    const unfilled = await db.query(
      `SELECT count(*)::int AS n FROM outbox_attempts a
        WHERE a.platform_id IS DISTINCT FROM (SELECT e.platform_id FROM outbox_events e WHERE e.id = a.event_id)`,
    );
    expect(unfilled.rows[0].n).toBe(0);
    const keys = await db.query(
      `SELECT conrelid::regclass::text AS t, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid::regclass::text IN ('ledger_entries', 'outbox_attempts') AND contype IN ('p', 'u', 'f')
          AND conname NOT LIKE '%platform_id_fkey' ORDER BY 1, 2`,
    );
    expect(keys.rows).toEqual([
      {
        t: 'ledger_entries',
        def: 'FOREIGN KEY (platform_id, account_id) REFERENCES internal_accounts(platform_id, id)',
      },
      { t: 'ledger_entries', def: 'PRIMARY KEY (id, platform_id)' },
      { t: 'ledger_entries', def: 'UNIQUE (platform_id, account_id, seq)' },
      {
        t: 'outbox_attempts',
        def: 'FOREIGN KEY (platform_id, event_id) REFERENCES outbox_events(platform_id, id) ON DELETE CASCADE',
      },
      { t: 'outbox_attempts', def: 'PRIMARY KEY (id, platform_id)' },
    ]);
    const notValid = await db.query(
      `SELECT (SELECT count(*) FROM pg_index WHERE NOT indisvalid)::int AS indexes,
              (SELECT count(*) FROM pg_constraint WHERE NOT convalidated)::int AS constraints`,
    );
    expect(notValid.rows[0]).toEqual({ indexes: 0, constraints: 0 });
    if (w) expect(slowest).toBeLessThan(1000);
  } finally {
    await db.close();
  }
}, 600_000);

it('down restores the previous keys exactly, on a database with rows; up again', async () => {
  const db = await isolatedDatabase({ migrated: false });
  const d = await dataSource(db.url, BEFORE);
  const CATALOG = `
    SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS x FROM pg_constraint
     WHERE connamespace = current_schema()::regnamespace
    UNION ALL
    SELECT pg_get_indexdef(indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE c.relnamespace = current_schema()::regnamespace
    UNION ALL
    SELECT table_name || '.' || column_name || ' ' || is_nullable FROM information_schema.columns
     WHERE table_schema = current_schema()
    ORDER BY 1`;
  try {
    await d.runMigrations({ transaction: 'each' });
    const previous = (await db.query(CATALOG)).rows;
    await db.query(`INSERT INTO platforms (id, name) VALUES ($1, 'p')`, [PLATFORM]);
    const job = '01900000-0000-7000-8000-00000000d153';
    await db.query(
      `INSERT INTO bulk_import_jobs (id, platform_id, status, created_at, updated_at) VALUES ($1, $2, 'PENDING', now(), now())`,
      [job, PLATFORM],
    );
    await db.query(
      `INSERT INTO bulk_import_rows (job_id, row_number, payload, status) SELECT $1, n, '{}', 'PENDING'
         FROM generate_series(1, 10) n`,
      [job],
    );
    await db.query(
      `INSERT INTO one_time_code_limits (scope, subject, window_started_at, updated_at)
       VALUES ('contact-code', 'nobody:EMAIL', now(), now())`,
    );
    await db.query(
      `INSERT INTO audit_heads (chain, seq, hash) VALUES ('00000000-0000-0000-0000-000000000000', 1, 'h')`,
    );
    const all = await dataSource(db.url, THROUGH);
    try {
      await all.runMigrations({ transaction: 'each' });
      const filled = await db.query(
        `SELECT (SELECT count(*) FROM bulk_import_rows WHERE platform_id = $1)::int AS rows,
                (SELECT count(*) FROM one_time_code_limits)::int AS limits,
                (SELECT platform_id FROM audit_heads) AS head`,
        [PLATFORM],
      );
      // a limit whose subject is gone is deleted; the unattributed chain's head has the nil uuid
      expect(filled.rows[0]).toEqual({ rows: 10, limits: 0, head: '00000000-0000-0000-0000-000000000000' });
      await all.undoLastMigration({ transaction: 'none' }); // CONCURRENTLY
      expect((await db.query(CATALOG)).rows).toEqual(previous);
      await all.runMigrations({ transaction: 'each' });
      await all.undoLastMigration({ transaction: 'each' }); // TypeORM's default: in a transaction, the plain form
      expect((await db.query(CATALOG)).rows).toEqual(previous);
      expect((await db.query(`SELECT count(*)::int AS n FROM bulk_import_rows`)).rows[0].n).toBe(10);
      await all.runMigrations({ transaction: 'each' });
    } finally {
      await all.destroy();
    }
  } finally {
    await d.destroy();
    await db.close();
  }
}, 300_000);
