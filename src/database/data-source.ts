import { DataSource, DataSourceOptions, QueryRunner } from 'typeorm';
import { ENTITIES, MIGRATIONS } from './schema.js';

/** The one DataSource definition: PostgreSQL, or the embedded engine served over a socket. */
export function dataSourceOptions(url: string, poolSize: number, acquireTimeoutMs = 5000): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: { max: poolSize, connectionTimeoutMillis: acquireTimeoutMs },
  };
}

export function createDataSource(url: string, poolSize: number): DataSource {
  return new DataSource(dataSourceOptions(url, poolSize));
}

/** Arbitrary constant key for the migration advisory lock. */
const MIGRATION_LOCK_KEY = 720_251_013;

/**
 * Waits for the migration lock by polling `pg_try_advisory_lock`, never blocking in
 * `pg_advisory_lock`: a backend blocked there holds a snapshot, and a migration that builds an
 * index CONCURRENTLY waits for every older snapshot in the database, so it would wait for the
 * replica that waits for it.
 */
async function acquireMigrationLock(runner: QueryRunner): Promise<void> {
  for (;;) {
    const [row] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY])) as Array<{
      locked: boolean;
    }>;
    if (row?.locked) return;
    await new Promise((resolve) => setTimeout(resolve, MIGRATION_LOCK_POLL_MS));
  }
}
const MIGRATION_LOCK_POLL_MS = 200;

/**
 * Applies pending migrations under a session advisory lock, so replicas starting together
 * run them once.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await acquireMigrationLock(runner);
    try {
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}
