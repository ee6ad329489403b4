/**
 * The claim checks that each candidate is the head of its aggregate (its lowest pending seq) with
 * one probe of (platform_id, aggregate_id, seq). With `WHERE status = 'PENDING'`, that index had
 * the same predicate as (platform_id, next_attempt_at), and whenever the table's statistics were
 * missing or stale (a fresh database, right after a burst of writes) the planner took the smaller
 * one for the probe: a walk over every pending event of the platform for each candidate, 25-40 ms
 * per claim with 15,000 pending instead of 0.4. This index says "not settled" in words that the
 * claim's probe repeats and that `status = 'PENDING'` does not match (the status CHECK allows
 * PENDING, DELIVERED and FAILED only, so it holds the same rows), so no other index can serve it.
 */
export class OutboxHeadIndex1767226800000 {
    name = 'OutboxHeadIndex1767226800000';
    async up(q) {
        await q.query(`CREATE INDEX outbox_events_unsettled_seq ON outbox_events (platform_id, aggregate_id, seq)
       WHERE status <> 'DELIVERED' AND status <> 'FAILED'`);
        await q.query(`DROP INDEX outbox_events_pending_seq`);
    }
    async down(q) {
        await q.query(`CREATE INDEX outbox_events_pending_seq ON outbox_events (platform_id, aggregate_id, seq) WHERE status = 'PENDING'`);
        await q.query(`DROP INDEX outbox_events_unsettled_seq`);
    }
}
//# sourceMappingURL=1767226800000-OutboxHeadIndex.js.map