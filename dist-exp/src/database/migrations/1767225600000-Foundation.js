export class Foundation1767225600000 {
    name = 'Foundation1767225600000';
    async up(q) {
        await q.query(`
      CREATE TABLE platforms (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
        await q.query(`
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        name text NOT NULL,
        permissions text[] NOT NULL,
        client_id text NOT NULL,
        secret_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
        await q.query(`CREATE UNIQUE INDEX api_tokens_client_id ON api_tokens (client_id)`);
        await q.query(`CREATE INDEX api_tokens_platform ON api_tokens (platform_id, id)`);
        await q.query(`
      CREATE TABLE idempotency_keys (
        platform_id uuid NOT NULL REFERENCES platforms(id),
        key text NOT NULL,
        fingerprint text NOT NULL,
        response_status int NOT NULL,
        response_body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (platform_id, key)
      )`);
        await q.query(`CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`);
    }
    async down(q) {
        await q.query(`DROP TABLE idempotency_keys`);
        await q.query(`DROP TABLE api_tokens`);
        await q.query(`DROP TABLE platforms`);
    }
}
//# sourceMappingURL=1767225600000-Foundation.js.map