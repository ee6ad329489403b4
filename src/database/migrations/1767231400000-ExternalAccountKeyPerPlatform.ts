import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `platformAccountId` is unique per platform, no longer across all platforms (issue #49): the
 * global key let platform B learn from a 409 that platform A already used a `platformAccountId`.
 * The partial condition (live accounts that have one) stays.
 *
 * The new index is built CONCURRENTLY, so creates are not blocked while it builds; that cannot run
 * in a transaction, hence `transaction = false` (PostgreSQL and the embedded engine both run it).
 * It may leave an INVALID index behind if the process dies mid-build, so each step first drops
 * what it is about to create. The old index goes only once the new one enforces the rule.
 * Replicas waiting for the migration lock poll for it (runMigrations) instead of blocking in
 * `pg_advisory_lock`, whose open snapshot a concurrent build would wait for forever.
 */
export class ExternalAccountKeyPerPlatform1767231400000 implements MigrationInterface {
  name = 'ExternalAccountKeyPerPlatform1767231400000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS external_accounts_platform_account_id_per_platform`);
    await q.query(`
      CREATE UNIQUE INDEX CONCURRENTLY external_accounts_platform_account_id_per_platform
      ON external_accounts (platform_id, platform_account_id)
      WHERE deleted_at IS NULL AND platform_account_id IS NOT NULL`);
    await q.query(`DROP INDEX CONCURRENTLY IF EXISTS external_accounts_platform_account_id`);
  }

  /**
   * Fails (and keeps the per-platform index) when two platforms now share a live platformAccountId.
   * TypeORM reverts in a transaction unless told otherwise (`migration:revert -t none`), where
   * CONCURRENTLY cannot run: the plain form is used then.
   */
  async down(q: QueryRunner): Promise<void> {
    const how = q.isTransactionActive ? '' : ' CONCURRENTLY';
    await q.query(`DROP INDEX${how} IF EXISTS external_accounts_platform_account_id`);
    await q.query(`
      CREATE UNIQUE INDEX${how} external_accounts_platform_account_id ON external_accounts (platform_account_id)
      WHERE deleted_at IS NULL AND platform_account_id IS NOT NULL`);
    await q.query(`DROP INDEX${how} IF EXISTS external_accounts_platform_account_id_per_platform`);
  }
}
