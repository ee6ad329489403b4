/**
 * The event outbox (events, their delivery attempts, per-aggregate sequence counters) and each
 * platform's webhook signing keys. Platforms created before this migration get their keys lazily
 * on first use (generating them needs the server key, which migrations do not have).
 */
export class Outbox1767226000000 {
    name = 'Outbox1767226000000';
    async up(q) {
        await q.query(`
      CREATE TABLE outbox_aggregates (
        platform_id uuid NOT NULL REFERENCES platforms(id),
        aggregate_id text NOT NULL,
        last_seq bigint NOT NULL,
        PRIMARY KEY (platform_id, aggregate_id)
      )`);
        await q.query(`
      CREATE TABLE outbox_events (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        type text NOT NULL,
        aggregate_id text NOT NULL,
        seq bigint NOT NULL,
        body text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
        attempt_count int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        retrying_since timestamptz NOT NULL,
        locked_until timestamptz,
        lock_token uuid,
        created_at timestamptz NOT NULL,
        delivered_at timestamptz,
        CONSTRAINT outbox_events_aggregate_seq UNIQUE (platform_id, aggregate_id, seq)
      ) WITH (fillfactor = 80)`); // room on each page so lease updates stay HOT (no index churn)
        // The dispatcher's claim: due pending events in time order, and "is an earlier one pending?".
        await q.query(`CREATE INDEX outbox_events_due ON outbox_events (next_attempt_at) WHERE status = 'PENDING'`);
        await q.query(`CREATE INDEX outbox_events_pending_seq ON outbox_events (platform_id, aggregate_id, seq) WHERE status = 'PENDING'`);
        // GET /webhook-events: one platform's events, keyset-paginated on the time-ordered id.
        await q.query(`CREATE INDEX outbox_events_platform ON outbox_events (platform_id, id)`);
        await q.query(`
      CREATE TABLE outbox_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id uuid NOT NULL REFERENCES outbox_events(id) ON DELETE CASCADE,
        attempted_at timestamptz NOT NULL,
        duration_ms int NOT NULL,
        response_status int,
        response_body text,
        error text
      )`);
        await q.query(`CREATE INDEX outbox_attempts_event ON outbox_attempts (event_id, id)`);
        await q.query(`
      CREATE TABLE webhook_signing_keys (
        platform_id uuid PRIMARY KEY REFERENCES platforms(id),
        public_key text NOT NULL,
        private_key_enc text NOT NULL,
        secret_enc text NOT NULL,
        previous_secret_enc text,
        previous_secret_expires_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    }
    async down(q) {
        await q.query(`DROP TABLE webhook_signing_keys`);
        await q.query(`DROP TABLE outbox_attempts`);
        await q.query(`DROP TABLE outbox_events`);
        await q.query(`DROP TABLE outbox_aggregates`);
    }
}
//# sourceMappingURL=1767226000000-Outbox.js.map