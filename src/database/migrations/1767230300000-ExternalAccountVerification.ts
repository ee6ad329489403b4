import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * External account verification (docs/external-accounts.md):
 * - wallet ownership: the outstanding WALLET_SIGNATURE challenge (the exact message to sign and
 *   when it expires, on the platform's clock); cleared when used, so a challenge verifies once;
 * - US bank account validation by micro-entry: the outcome the return window ends with
 *   (`VALIDATED` or `RETURNED`) and when the window closes (banking days on the platform's clock),
 *   claimed by the bank-validation worker while the account is `PENDING`;
 * - Plaid Link tokens a platform created for a customer, used once by the public-token callback.
 */
export class ExternalAccountVerification1767230300000 implements MigrationInterface {
  name = 'ExternalAccountVerification1767230300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE external_accounts ADD COLUMN ownership_challenge_message text`);
    await q.query(`ALTER TABLE external_accounts ADD COLUMN ownership_challenge_expires_at timestamptz`);
    await q.query(`ALTER TABLE external_accounts ADD COLUMN bank_validation text`);
    await q.query(`ALTER TABLE external_accounts ADD COLUMN bank_validation_due_at timestamptz`);
    await q.query(`CREATE INDEX external_accounts_bank_validation_due ON external_accounts (bank_validation_due_at)
      WHERE status = 'PENDING' AND bank_validation_due_at IS NOT NULL`);
    await q.query(`CREATE TABLE plaid_link_tokens (
      link_token text PRIMARY KEY,
      platform_id uuid NOT NULL REFERENCES platforms(id),
      customer_id uuid NOT NULL,
      expires_at timestamptz NOT NULL,
      external_account_id uuid,
      created_at timestamptz NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE plaid_link_tokens`);
    await q.query(`DROP INDEX external_accounts_bank_validation_due`);
    await q.query(`ALTER TABLE external_accounts DROP COLUMN bank_validation_due_at`);
    await q.query(`ALTER TABLE external_accounts DROP COLUMN bank_validation`);
    await q.query(`ALTER TABLE external_accounts DROP COLUMN ownership_challenge_expires_at`);
    await q.query(`ALTER TABLE external_accounts DROP COLUMN ownership_challenge_message`);
  }
}
