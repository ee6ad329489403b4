import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's overview and transaction search (docs/console.md): each panel reads one platform's
 * rows over a bounded window of creation time, so each table it reads gets (platform_id, created_at).
 * Transactions of both directions (payment volume per day, failed and stuck payments, the search's
 * date range) and webhook events (delivery success and latency per day; the attempts are joined by
 * their event, outbox_attempts_event).
 */
export class ConsoleOverviewIndexes1767229000000 implements MigrationInterface {
  name = 'ConsoleOverviewIndexes1767229000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX outgoing_transactions_platform_created ON outgoing_transactions (platform_id, created_at)`,
    );
    await q.query(
      `CREATE INDEX incoming_transactions_platform_created ON incoming_transactions (platform_id, created_at)`,
    );
    await q.query(`CREATE INDEX outbox_events_platform_created ON outbox_events (platform_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX outbox_events_platform_created`);
    await q.query(`DROP INDEX incoming_transactions_platform_created`);
    await q.query(`DROP INDEX outgoing_transactions_platform_created`);
  }
}
