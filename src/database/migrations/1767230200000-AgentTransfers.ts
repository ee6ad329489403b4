import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent transfers (`POST /agents/me/transfer-in` and `/transfer-out`): an agent action is also a
 * TRANSFER_OUT (a same-currency quote, executed like EXECUTE_QUOTE) or a TRANSFER_IN (no quote: an
 * incoming transaction once it runs). `transfer` holds the reference's AgentTransferDetails.
 */
export class AgentTransfers1767230200000 implements MigrationInterface {
  name = 'AgentTransfers1767230200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agent_actions DROP CONSTRAINT agent_actions_type_check`);
    await q.query(`ALTER TABLE agent_actions ALTER COLUMN quote_id DROP NOT NULL`);
    await q.query(`ALTER TABLE agent_actions ADD COLUMN transfer jsonb`);
    await q.query(
      `ALTER TABLE agent_actions ADD COLUMN incoming_transaction_id uuid REFERENCES incoming_transactions(id)`,
    );
    await q.query(`
      ALTER TABLE agent_actions ADD CONSTRAINT agent_actions_type_check CHECK (
        (type = 'EXECUTE_QUOTE' AND quote_id IS NOT NULL AND transfer IS NULL AND incoming_transaction_id IS NULL)
        OR (type = 'TRANSFER_OUT' AND quote_id IS NOT NULL AND transfer IS NOT NULL AND incoming_transaction_id IS NULL)
        OR (type = 'TRANSFER_IN' AND quote_id IS NULL AND transfer IS NOT NULL)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM agent_actions WHERE type <> 'EXECUTE_QUOTE'`);
    await q.query(`ALTER TABLE agent_actions DROP CONSTRAINT agent_actions_type_check`);
    await q.query(`ALTER TABLE agent_actions DROP COLUMN incoming_transaction_id`);
    await q.query(`ALTER TABLE agent_actions DROP COLUMN transfer`);
    await q.query(`ALTER TABLE agent_actions ALTER COLUMN quote_id SET NOT NULL`);
    await q.query(
      `ALTER TABLE agent_actions ADD CONSTRAINT agent_actions_type_check CHECK (type IN ('EXECUTE_QUOTE'))`,
    );
  }
}
