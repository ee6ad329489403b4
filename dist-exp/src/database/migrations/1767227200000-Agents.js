/**
 * Agents (a policy as jsonb and the usage counters the policy is evaluated against), their
 * device codes and access tokens. Codes and tokens are stored only as SHA-256 hashes.
 */
export class Agents1767227200000 {
    name = 'Agents1767227200000';
    async up(q) {
        await q.query(`
      CREATE TABLE agents (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        name text NOT NULL,
        is_paused boolean NOT NULL DEFAULT false,
        is_connected boolean NOT NULL DEFAULT false,
        policy jsonb NOT NULL,
        daily_transaction_count integer NOT NULL DEFAULT 0 CHECK (daily_transaction_count >= 0),
        daily_spend bigint NOT NULL DEFAULT 0 CHECK (daily_spend >= 0),
        monthly_spend bigint NOT NULL DEFAULT 0 CHECK (monthly_spend >= 0),
        daily_reset_date text NOT NULL CHECK (daily_reset_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
        monthly_reset_month text NOT NULL CHECK (monthly_reset_month ~ '^[0-9]{4}-[0-9]{2}$'),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        deleted_at timestamptz
      )`);
        await q.query(`CREATE INDEX agents_platform ON agents (platform_id, id) WHERE deleted_at IS NULL`);
        await q.query(`CREATE INDEX agents_customer ON agents (customer_id)`);
        await q.query(`
      CREATE TABLE agent_device_codes (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        agent_id uuid NOT NULL REFERENCES agents(id),
        code_hash bytea NOT NULL,
        expires_at timestamptz NOT NULL,
        redeemed_at timestamptz,
        superseded_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
        await q.query(`CREATE UNIQUE INDEX agent_device_codes_hash ON agent_device_codes (code_hash)`);
        await q.query(`CREATE INDEX agent_device_codes_agent ON agent_device_codes (agent_id)`);
        await q.query(`
      CREATE TABLE agent_access_tokens (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        agent_id uuid NOT NULL REFERENCES agents(id),
        device_code_id uuid NOT NULL REFERENCES agent_device_codes(id),
        token_hash bytea NOT NULL,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
        await q.query(`CREATE UNIQUE INDEX agent_access_tokens_hash ON agent_access_tokens (token_hash)`);
        await q.query(`CREATE INDEX agent_access_tokens_agent ON agent_access_tokens (agent_id) WHERE revoked_at IS NULL`);
    }
    async down(q) {
        await q.query(`DROP TABLE agent_access_tokens`);
        await q.query(`DROP TABLE agent_device_codes`);
        await q.query(`DROP TABLE agents`);
    }
}
//# sourceMappingURL=1767227200000-Agents.js.map