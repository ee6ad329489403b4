import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `outbox_events.trace_context`: the W3C `traceparent` of the request that wrote the event (null
 * when tracing was off), so the worker's delivery span joins that trace (src/tracing/).
 */
export class OutboxTraceContext1767227800000 implements MigrationInterface {
  name = 'OutboxTraceContext1767227800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_events ADD COLUMN trace_context text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox_events DROP COLUMN trace_context`);
  }
}
