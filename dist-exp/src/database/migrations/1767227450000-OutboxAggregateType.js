/**
 * `outbox_events.aggregate_type`: the resource type of the aggregate (`Card` for `Card:<uuid>`), so
 * the outbox carries every column Debezium's outbox event router reads (id, aggregate type and id,
 * event type, payload; README, Streaming the outbox with Debezium). A stored generated column
 * derived from the aggregate id, so every writer (and every existing row) has it without naming it.
 */
export class OutboxAggregateType1767227450000 {
    name = 'OutboxAggregateType1767227450000';
    async up(q) {
        await q.query(`ALTER TABLE outbox_events ADD COLUMN aggregate_type text NOT NULL
         GENERATED ALWAYS AS (split_part(aggregate_id, ':', 1)) STORED`);
    }
    async down(q) {
        await q.query(`ALTER TABLE outbox_events DROP COLUMN aggregate_type`);
    }
}
//# sourceMappingURL=1767227450000-OutboxAggregateType.js.map