import { MigrationInterface, QueryRunner } from 'typeorm';

const SYSTEM_ACCOUNTS = `'RAIL_CLEARING', 'FX', 'FEES_COLLECTED', 'PLATFORM_REVENUE', 'SANDBOX_FUNDING', 'CARD_SETTLEMENT', 'OPENING_BALANCE', 'UMA_SETTLEMENT'`;

/**
 * UMA payments between deployments (docs/uma.md): quotes and outgoing transactions to an UMA
 * address (`destination_kind` UmaAddress, `destination_uma_address`), the ledger's UMA_SETTLEMENT
 * clearing account, the sender's record of each pay-request exchange (`uma_payments`) and the
 * settlement layer's outbox of signed callbacks between deployments (`uma_settlement_messages`).
 */
export class UmaPayments1767228900000 implements MigrationInterface {
  name = 'UmaPayments1767228900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT IF EXISTS ledger_entries_system_account`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_system_account CHECK (system_account IN (${SYSTEM_ACCOUNTS}))`,
    );
    for (const table of ['quotes', 'outgoing_transactions']) {
      const checks = (await q.query(
        `SELECT c.conname FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
          WHERE t.relname = $1 AND c.contype = 'c' AND pg_get_constraintdef(c.oid) LIKE '%destination_kind%'`,
        [table],
      )) as Array<{ conname: string }>;
      for (const { conname } of checks) {
        await q.query(`ALTER TABLE ${table} DROP CONSTRAINT "${conname}"`);
      }
      await q.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_destination_kind
           CHECK (destination_kind IN ('InternalAccount', 'ExternalAccount', 'UmaAddress'))`,
      );
      await q.query(`ALTER TABLE ${table} ADD COLUMN destination_uma_address text`);
    }
    await q.query(`
      CREATE TABLE uma_payments (
        quote_id uuid PRIMARY KEY REFERENCES quotes(id),
        platform_id uuid NOT NULL REFERENCES platforms(id),
        transaction_id uuid NOT NULL UNIQUE,
        lookup_id uuid NOT NULL,
        sender_uma_address text NOT NULL,
        receiver_uma_address text NOT NULL,
        receiver_domain text NOT NULL,
        receiving_currency text NOT NULL,
        receiving_amount bigint NOT NULL CHECK (receiving_amount > 0),
        multiplier double precision NOT NULL,
        payer_data jsonb NOT NULL,
        payee_data jsonb,
        status text NOT NULL CHECK (status IN ('QUOTED', 'SETTLING', 'COMPLETED', 'FAILED')),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE uma_settlement_messages (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        kind text NOT NULL CHECK (kind IN ('PAYMENT', 'DECISION')),
        reference text NOT NULL,
        target_domain text NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (kind, reference)
      )`);
    await q.query(
      `CREATE INDEX uma_settlement_messages_due ON uma_settlement_messages (next_attempt_at) WHERE status = 'PENDING'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE uma_settlement_messages`);
    await q.query(`DROP TABLE uma_payments`);
    for (const table of ['quotes', 'outgoing_transactions']) {
      await q.query(`ALTER TABLE ${table} DROP COLUMN destination_uma_address`);
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_destination_kind`);
      await q.query(
        `ALTER TABLE ${table} ADD CONSTRAINT ${table}_destination_kind
           CHECK (destination_kind IN ('InternalAccount', 'ExternalAccount'))`,
      );
    }
  }
}
