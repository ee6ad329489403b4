import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Platform payments (issue #29): quotes and outgoing transactions serve platforms as well as
 * agents (agent and customer optional: a platform's own account has no customer), platform fees,
 * the rail lifecycle (PENDING -> PROCESSING -> COMPLETED / FAILED, refunds, returns) with its two
 * kinds of due time, the status timeline, receipt confirmation, and incoming transactions
 * (transfer-in, sandbox funds for a quote funded by payment instructions).
 */
export class Payments1767228400000 implements MigrationInterface {
  name = 'Payments1767228400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE quotes ALTER COLUMN agent_id DROP NOT NULL`);
    await q.query(`ALTER TABLE quotes ALTER COLUMN customer_id DROP NOT NULL`);
    await q.query(`ALTER TABLE quotes ALTER COLUMN source_account_id DROP NOT NULL`);
    await q.query(`ALTER TABLE quotes ADD COLUMN source_type text NOT NULL DEFAULT 'ACCOUNT'
      CHECK (source_type IN ('ACCOUNT', 'REALTIME_FUNDING'))`);
    await q.query(`ALTER TABLE quotes ADD COLUMN platform_fees_included bigint NOT NULL DEFAULT 0
      CHECK (platform_fees_included >= 0)`);
    await q.query(`ALTER TABLE quotes ADD COLUMN remittance_information text`);
    await q.query(`ALTER TABLE quotes ADD COLUMN sender_customer_info jsonb`);
    await q.query(`ALTER TABLE quotes ADD COLUMN origin text NOT NULL DEFAULT 'QUOTE'
      CHECK (origin IN ('QUOTE', 'TRANSFER_OUT'))`);
    await q.query(`CREATE INDEX quotes_platform ON quotes (platform_id, id)`);

    await q.query(`ALTER TABLE outgoing_transactions ALTER COLUMN customer_id DROP NOT NULL`);
    await q.query(`ALTER TABLE outgoing_transactions ALTER COLUMN source_account_id DROP NOT NULL`);
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN platform_fees bigint NOT NULL DEFAULT 0
      CHECK (platform_fees >= 0)`);
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN receipt_delivery_confirmed_at timestamptz`);
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN refund jsonb`);
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN timeline jsonb NOT NULL DEFAULT '[]'`);
    // The sandbox rail's chosen outcome (magic amounts, docs/payments.md) and its step.
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN rail_outcome text`);
    // Infrastructure due time (real clock): when the rail worker takes the next step of a fast payment.
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN rail_due_real_at timestamptz`);
    // Business due time (the platform's clock, test clocks move it): when a slow rail settles.
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN rail_settles_business_at timestamptz`);
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN expected_settlement_at timestamptz`);
    await q.query(`CREATE INDEX outgoing_transactions_rail_due ON outgoing_transactions (rail_due_real_at)
      WHERE rail_due_real_at IS NOT NULL`);
    await q.query(`CREATE INDEX outgoing_transactions_rail_business ON outgoing_transactions (rail_settles_business_at)
      WHERE rail_settles_business_at IS NOT NULL`);
    await q.query(`CREATE INDEX outgoing_transactions_platform ON outgoing_transactions (platform_id, id)`);

    await q.query(`
      CREATE TABLE incoming_transactions (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid REFERENCES customers(id),
        status text NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')),
        source_kind text NOT NULL CHECK (source_kind IN ('ExternalAccount', 'RealtimeFunding')),
        source_account_id uuid,
        destination_account_id uuid NOT NULL REFERENCES internal_accounts(id),
        received_amount bigint NOT NULL CHECK (received_amount > 0),
        currency text NOT NULL,
        quote_id uuid REFERENCES quotes(id),
        description text,
        receipt_delivery_confirmed_at timestamptz,
        timeline jsonb NOT NULL DEFAULT '[]',
        settled_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX incoming_transactions_platform ON incoming_transactions (platform_id, id)`);

    // GET /transactions pages over both directions by the time-ordered id.
    await q.query(`
      CREATE VIEW payment_transactions AS
        SELECT id, platform_id, customer_id, 'OUTGOING' AS type, status, 'InternalAccount' AS source_kind,
               source_account_id, destination_kind, destination_account_id, quote_id, created_at, updated_at
          FROM outgoing_transactions
        UNION ALL
        SELECT id, platform_id, customer_id, 'INCOMING', status, source_kind,
               source_account_id, 'InternalAccount', destination_account_id, quote_id, created_at, updated_at
          FROM incoming_transactions`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP VIEW payment_transactions`);
    await q.query(`DROP TABLE incoming_transactions`);
    await q.query(`DROP INDEX outgoing_transactions_platform`);
    await q.query(`DROP INDEX outgoing_transactions_rail_business`);
    await q.query(`DROP INDEX outgoing_transactions_rail_due`);
    for (const c of [
      'expected_settlement_at',
      'rail_settles_business_at',
      'rail_due_real_at',
      'rail_outcome',
      'timeline',
      'refund',
      'receipt_delivery_confirmed_at',
      'platform_fees',
    ])
      await q.query(`ALTER TABLE outgoing_transactions DROP COLUMN ${c}`);
    await q.query(`DROP INDEX quotes_platform`);
    for (const c of [
      'origin',
      'sender_customer_info',
      'remittance_information',
      'platform_fees_included',
      'source_type',
    ])
      await q.query(`ALTER TABLE quotes DROP COLUMN ${c}`);
  }
}
