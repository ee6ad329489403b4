import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The payout rail port (docs/payments.md "The rail"): the execute no longer asks the rail
 * anything; `rail_due_real_at` now marks a payout to hand to the rail (the worker's claim lease and
 * retry backoff move it), `rail_settles_business_at` when the reconciliation poll is due. The
 * provider and its payment id are recorded when the hand-off answers. `rail_events` deduplicates
 * the providers' news on (provider, event_id) (insert-on-conflict in the transaction that applies
 * it). `sandbox_rail_payments` is the sandbox rail's own side (what the simulated provider holds:
 * the outcome the magic amount chose and its next news).
 */
export class RailPort1767230900000 implements MigrationInterface {
  name = 'RailPort1767230900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN rail_provider text`);
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN rail_provider_ref text`);
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN rail_send_attempts integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN rail_sent_at timestamptz`);
    await q.query(`ALTER TABLE outgoing_transactions DROP COLUMN rail_outcome`);
    await q.query(`CREATE UNIQUE INDEX outgoing_transactions_rail_ref ON outgoing_transactions (rail_provider, rail_provider_ref)
      WHERE rail_provider_ref IS NOT NULL`);
    await q.query(`
      CREATE TABLE rail_events (
        provider text NOT NULL,
        event_id text NOT NULL,
        transaction_id uuid NOT NULL,
        provider_ref text NOT NULL,
        status text NOT NULL CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED', 'RETURNED')),
        failure_reason text,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        PRIMARY KEY (provider, event_id)
      )`);
    await q.query(`CREATE INDEX rail_events_transaction ON rail_events (transaction_id)`);
    await q.query(`
      CREATE TABLE sandbox_rail_payments (
        id uuid PRIMARY KEY,
        transaction_id uuid NOT NULL UNIQUE,
        platform_id uuid NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('COMPLETE', 'SLOW', 'FAIL', 'RETURN')),
        reported jsonb NOT NULL DEFAULT '[]',
        next_status text,
        due_real_at timestamptz,
        settles_business_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sandbox_rail_payments_due ON sandbox_rail_payments (due_real_at)
      WHERE due_real_at IS NOT NULL`);
    await q.query(`CREATE INDEX sandbox_rail_payments_settles ON sandbox_rail_payments (settles_business_at)
      WHERE settles_business_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_rail_payments`);
    await q.query(`DROP TABLE rail_events`);
    await q.query(`DROP INDEX outgoing_transactions_rail_ref`);
    await q.query(`ALTER TABLE outgoing_transactions ADD COLUMN rail_outcome text`);
    for (const column of ['rail_sent_at', 'rail_send_attempts', 'rail_provider_ref', 'rail_provider'])
      await q.query(`ALTER TABLE outgoing_transactions DROP COLUMN ${column}`);
  }
}
