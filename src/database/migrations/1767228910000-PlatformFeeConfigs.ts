import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The platform's own fees (the reference's PlatformConfig `feeConfigs`): added to the service's on
 * every quote of their kind and source currency, and shown by GET /exchange-rates (docs/payments.md).
 * And the postings of a transaction found by its reference (the console's transaction page).
 */
export class PlatformFeeConfigs1767228910000 implements MigrationInterface {
  name = 'PlatformFeeConfigs1767228910000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_configs ADD COLUMN fee_configs jsonb NOT NULL DEFAULT '[]'::jsonb`);
    await q.query(`CREATE INDEX ledger_entries_reference ON ledger_entries (reference) WHERE reference IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ledger_entries_reference`);
    await q.query(`ALTER TABLE platform_configs DROP COLUMN fee_configs`);
  }
}
