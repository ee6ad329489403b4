import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * UMA settlement reconciliation (docs/uma.md, "Reconciliation: the settlement inquiry"). The
 * sender's `uma_payments` gain the inquiry's schedule on real time: `settling_since` (when the
 * payment went to the settlement layer: the inquiry's age and the retry horizon count from it) and
 * `inquiry_due_at` (the next signed status inquiry to the receiver), with its attempts, last error
 * and how the payment was resolved. The receiver keeps `uma_settlement_receipts`: one row per
 * sender's reference, RECEIVED (the PAYMENT callback was taken, with its message, so an interrupted
 * receipt can be finished) or TOMBSTONE (refused, or unknown when the sender gave up: a late
 * callback for it is refused, never credited). The primary key makes the two exclusive.
 */
export class UmaReconciliation1767229200000 implements MigrationInterface {
  name = 'UmaReconciliation1767229200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE uma_payments
      ADD COLUMN settling_since timestamptz,
      ADD COLUMN inquiry_due_at timestamptz,
      ADD COLUMN inquiry_attempts integer NOT NULL DEFAULT 0,
      ADD COLUMN last_error text,
      ADD COLUMN resolution text`);
    await q.query(
      `UPDATE uma_payments SET settling_since = updated_at, inquiry_due_at = updated_at WHERE status = 'SETTLING'`,
    );
    await q.query(`CREATE INDEX uma_payments_inquiry_due ON uma_payments (inquiry_due_at) WHERE status = 'SETTLING'`);
    await q.query(
      `CREATE INDEX uma_payments_settling ON uma_payments (platform_id, settling_since) WHERE status = 'SETTLING'`,
    );
    await q.query(`
      CREATE TABLE uma_settlement_receipts (
        reference text PRIMARY KEY CHECK (char_length(reference) BETWEEN 1 AND 600),
        state text NOT NULL CHECK (state IN ('RECEIVED', 'TOMBSTONE')),
        platform_id uuid REFERENCES platforms(id),
        message jsonb,
        reason text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX incoming_transactions_uma_reference ON incoming_transactions (reference) WHERE origin = 'UMA'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX incoming_transactions_uma_reference`);
    await q.query(`DROP TABLE uma_settlement_receipts`);
    await q.query(`DROP INDEX uma_payments_settling`);
    await q.query(`DROP INDEX uma_payments_inquiry_due`);
    await q.query(`ALTER TABLE uma_payments
      DROP COLUMN resolution, DROP COLUMN last_error, DROP COLUMN inquiry_attempts,
      DROP COLUMN inquiry_due_at, DROP COLUMN settling_since`);
  }
}
