import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `outbox_events.aggregate_type`: the resource type of the aggregate (`Card` for `Card:<uuid>`), so
 * the outbox carries every column Debezium's outbox event router reads (id, aggregate type and id,
 * event type, payload; README, Streaming the outbox with Debezium). Written by OutboxService.write
 * from the aggregate id; existing rows are backfilled the same way.
 */
export class OutboxAggregateType1767227450000 implements MigrationInterface {
  name = 'OutboxAggregateType1767227450000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_events ADD COLUMN aggregate_type text`);
    await q.query(`UPDATE outbox_events SET aggregate_type = split_part(aggregate_id, ':', 1)`);
    await q.query(`ALTER TABLE outbox_events ALTER COLUMN aggregate_type SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_events DROP COLUMN aggregate_type`);
  }
}
