/**
 * The fair claim walks pending events platform by platform (a skip scan over the platforms with
 * pending events, then each one's due events in time order), so it needs (platform_id,
 * next_attempt_at). The global time-ordered index it replaces has no other reader.
 */
export class OutboxFairClaim1767226700000 {
    name = 'OutboxFairClaim1767226700000';
    async up(q) {
        await q.query(`CREATE INDEX outbox_events_platform_due ON outbox_events (platform_id, next_attempt_at) WHERE status = 'PENDING'`);
        await q.query(`DROP INDEX outbox_events_due`);
    }
    async down(q) {
        await q.query(`CREATE INDEX outbox_events_due ON outbox_events (next_attempt_at) WHERE status = 'PENDING'`);
        await q.query(`DROP INDEX outbox_events_platform_due`);
    }
}
//# sourceMappingURL=1767226700000-OutboxFairClaim.js.map