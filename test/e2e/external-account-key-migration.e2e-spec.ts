import { DataSource } from 'typeorm';
import { ExternalAccountKeyPerPlatform1767231400000 } from '../../src/database/migrations/1767231400000-ExternalAccountKeyPerPlatform.js';
import { migrate } from '../../src/database/open-database.js';
import { MIGRATIONS } from '../../src/database/schema.js';
import { isolatedDatabase } from '../support/isolated-database.js';

/**
 * The migration that makes `platformAccountId` unique per platform (issue #49) builds its index
 * CONCURRENTLY, outside a transaction: it must finish while other replicas wait for the migration
 * lock, and `down` must restore the global index.
 */
const BEFORE = MIGRATIONS.slice(0, MIGRATIONS.indexOf(ExternalAccountKeyPerPlatform1767231400000));
/** Up to this migration (the down test reverts it as the last one). */
const THROUGH = MIGRATIONS.slice(0, BEFORE.length + 1);
/** What a migrator applies after BEFORE: this migration and any later ones. */
const PENDING = MIGRATIONS.slice(BEFORE.length).map((m) => m.name);
const INDEXES = `SELECT indexname, indexdef FROM pg_indexes
  WHERE tablename = 'external_accounts' AND indexname LIKE 'external_accounts_platform_account_id%'`;
const PLATFORMS = ['01900000-0000-7000-8000-0000000000a1', '01900000-0000-7000-8000-0000000000a2'];

async function dataSource(url: string, migrations: typeof MIGRATIONS): Promise<DataSource> {
  const d = new DataSource({ type: 'postgres', url, migrations, migrationsRun: false });
  await d.initialize();
  return d;
}

const insertAccount = (d: DataSource, id: string, platformId: string, platformAccountId: string) =>
  d.query(
    `INSERT INTO external_accounts (id, platform_id, platform_account_id, currency, status,
       beneficiary_verification_status, account_type, account_info, identity)
     VALUES ($1::uuid, $2, $3, 'USD', 'ACTIVE', 'NOT_APPLICABLE', 'USD_ACCOUNT', '{}', $1::text)`,
    [id, platformId, platformAccountId],
  );

// Several migrators against one PostgreSQL database; the embedded engine has one backend, so the
// advisory lock does not exclude its connections from each other (and one process migrates it).
(process.env.TEST_DATABASE_ADMIN_URL ? it : it.skip)(
  'replicas migrating together: one builds the index CONCURRENTLY while the others wait, none hangs',
  async () => {
    const db = await isolatedDatabase({ migrated: false });
    try {
      const before = await dataSource(db.url, BEFORE);
      await before.runMigrations({ transaction: 'each' });
      await before.destroy();
      const applied = await Promise.all([migrate(db.url), migrate(db.url), migrate(db.url)]);
      expect(applied.flat()).toEqual(PENDING);
      expect(PENDING[0]).toBe('ExternalAccountKeyPerPlatform1767231400000');
      const { rows } = await db.query(INDEXES);
      expect(rows.map((r: { indexname: string }) => r.indexname)).toEqual([
        'external_accounts_platform_account_id_per_platform',
      ]);
      expect((await db.query('SELECT count(*)::int AS n FROM pg_index WHERE NOT indisvalid')).rows[0].n).toBe(0);
    } finally {
      await db.close();
    }
  },
  60_000,
);

it('up keys platformAccountId by platform, keeps the partial condition; down restores the global key', async () => {
  const db = await isolatedDatabase({ migrated: false });
  const d = await dataSource(db.url, THROUGH);
  try {
    await d.runMigrations({ transaction: 'each' });
    for (const [i, id] of PLATFORMS.entries())
      await d.query(`INSERT INTO platforms (id, name) VALUES ($1, $2)`, [id, `p${i}`]);
    const [index] = (await db.query(INDEXES)).rows as Array<{ indexname: string; indexdef: string }>;
    expect(index.indexname).toBe('external_accounts_platform_account_id_per_platform');
    expect(index.indexdef).toContain('(platform_id, platform_account_id)');
    expect(index.indexdef).toContain('WHERE ((deleted_at IS NULL) AND (platform_account_id IS NOT NULL))');
    await insertAccount(d, '01900000-0000-7000-8000-0000000000b1', PLATFORMS[0], 'shared');
    await insertAccount(d, '01900000-0000-7000-8000-0000000000b2', PLATFORMS[1], 'shared');
    await expect(insertAccount(d, '01900000-0000-7000-8000-0000000000b3', PLATFORMS[0], 'shared')).rejects.toThrow(
      /duplicate key/,
    );

    await d.query(`DELETE FROM external_accounts`);
    await d.undoLastMigration({ transaction: 'each' }); // TypeORM's default: in a transaction, the plain form
    expect((await db.query(INDEXES)).rows.map((r: { indexname: string }) => r.indexname)).toEqual([
      'external_accounts_platform_account_id',
    ]);
    await insertAccount(d, '01900000-0000-7000-8000-0000000000b1', PLATFORMS[0], 'shared');
    await expect(insertAccount(d, '01900000-0000-7000-8000-0000000000b2', PLATFORMS[1], 'shared')).rejects.toThrow(
      /duplicate key/,
    );

    await d.runMigrations({ transaction: 'each' });
    await d.undoLastMigration({ transaction: 'none' }); // CONCURRENTLY
    await d.runMigrations({ transaction: 'each' });
    expect((await db.query(INDEXES)).rows.map((r: { indexname: string }) => r.indexname)).toEqual([
      'external_accounts_platform_account_id_per_platform',
    ]);
  } finally {
    await d.destroy();
    await db.close();
  }
}, 60_000);
