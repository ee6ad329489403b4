import type { MigrationInterface, QueryRunner } from 'typeorm';

const BEFORE = `'RAIL_CLEARING', 'FX', 'FEES_COLLECTED', 'PLATFORM_REVENUE', 'SANDBOX_FUNDING', 'CARD_SETTLEMENT', 'OPENING_BALANCE'`;
const AFTER = `${BEFORE}, 'UMA_SETTLEMENT'`;

/**
 * Incoming payments with the platform's approval (docs/payments.md, "Incoming payments"): an
 * incoming transaction now records where it came from (`origin`: SANDBOX, UMA or BANK), the
 * sender's reference (one transaction per platform and reference), the sender's UMA address and
 * payer data, the sender side's opaque settlement data, the failure reason, and two due times on
 * the platform's clock: `decide_by` (the platform's approval window) and `settles_business_at`
 * (the sandbox's slow settlement). The ledger gains the UMA_SETTLEMENT clearing account.
 */
export class IncomingPayments1767228960000 implements MigrationInterface {
  name = 'IncomingPayments1767228960000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE incoming_transactions DROP CONSTRAINT incoming_transactions_source_kind_check`);
    await q.query(`ALTER TABLE incoming_transactions ADD CONSTRAINT incoming_transactions_source_kind_check
      CHECK (source_kind IN ('ExternalAccount', 'RealtimeFunding', 'UmaAddress', 'Bank'))`);
    await q.query(`ALTER TABLE incoming_transactions
      ADD COLUMN origin text CHECK (origin IN ('SANDBOX', 'UMA', 'BANK')),
      ADD COLUMN reference text CHECK (char_length(reference) BETWEEN 1 AND 255),
      ADD COLUMN sender_uma_address text,
      ADD COLUMN receiver_uma_address text,
      ADD COLUMN counterparty_information jsonb,
      ADD COLUMN settlement jsonb,
      ADD COLUMN failure_reason text,
      ADD COLUMN receiver_customer_info jsonb,
      ADD COLUMN requested_fields jsonb,
      ADD COLUMN decide_by timestamptz,
      ADD COLUMN settles_business_at timestamptz`);
    await q.query(`CREATE UNIQUE INDEX incoming_transactions_reference ON incoming_transactions (platform_id, reference)
      WHERE reference IS NOT NULL`);
    await q.query(`CREATE INDEX incoming_transactions_decide_by ON incoming_transactions (decide_by)
      WHERE decide_by IS NOT NULL`);
    await q.query(`CREATE INDEX incoming_transactions_settles ON incoming_transactions (settles_business_at)
      WHERE settles_business_at IS NOT NULL`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_system_account`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_system_account
      CHECK (system_account IN (${AFTER}))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_system_account`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_system_account
      CHECK (system_account IN (${BEFORE}))`);
    await q.query(`DROP INDEX incoming_transactions_settles`);
    await q.query(`DROP INDEX incoming_transactions_decide_by`);
    await q.query(`DROP INDEX incoming_transactions_reference`);
    for (const c of [
      'settles_business_at',
      'decide_by',
      'requested_fields',
      'receiver_customer_info',
      'failure_reason',
      'settlement',
      'counterparty_information',
      'receiver_uma_address',
      'sender_uma_address',
      'reference',
      'origin',
    ])
      await q.query(`ALTER TABLE incoming_transactions DROP COLUMN ${c}`);
    await q.query(`ALTER TABLE incoming_transactions DROP CONSTRAINT incoming_transactions_source_kind_check`);
    await q.query(`ALTER TABLE incoming_transactions ADD CONSTRAINT incoming_transactions_source_kind_check
      CHECK (source_kind IN ('ExternalAccount', 'RealtimeFunding'))`);
  }
}
