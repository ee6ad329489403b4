/**
 * Agent quotes, the agent actions that execute them, and the outgoing transactions an execution
 * records.
 */
export class AgentQuotes1767227300000 {
    name = 'AgentQuotes1767227300000';
    async up(q) {
        await q.query(`
      CREATE TABLE quotes (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        agent_id uuid NOT NULL REFERENCES agents(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        source_account_id uuid NOT NULL REFERENCES internal_accounts(id),
        destination_kind text NOT NULL CHECK (destination_kind IN ('InternalAccount', 'ExternalAccount')),
        destination_account_id uuid NOT NULL,
        payment_rail text,
        locked_currency_side text NOT NULL CHECK (locked_currency_side IN ('SENDING', 'RECEIVING')),
        sending_currency text NOT NULL,
        receiving_currency text NOT NULL,
        total_sending_amount bigint NOT NULL CHECK (total_sending_amount > 0),
        total_receiving_amount bigint NOT NULL CHECK (total_receiving_amount > 0),
        exchange_rate double precision NOT NULL CHECK (exchange_rate > 0),
        fees_included bigint NOT NULL CHECK (fees_included >= 0),
        rate_details jsonb NOT NULL,
        description text,
        purpose_of_payment text,
        transaction_id uuid NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED')),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
        await q.query(`CREATE INDEX quotes_agent ON quotes (agent_id, id)`);
        await q.query(`
      CREATE TABLE agent_actions (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        agent_id uuid NOT NULL REFERENCES agents(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        type text NOT NULL CHECK (type IN ('EXECUTE_QUOTE')),
        quote_id uuid NOT NULL REFERENCES quotes(id),
        status text NOT NULL CHECK (status IN ('PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED')),
        rejection_reason text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT agent_actions_one_per_quote UNIQUE (quote_id)
      )`);
        await q.query(`CREATE INDEX agent_actions_agent ON agent_actions (agent_id, id)`);
        await q.query(`CREATE INDEX agent_actions_pending ON agent_actions (platform_id, id) WHERE status = 'PENDING_APPROVAL'`);
        await q.query(`
      CREATE TABLE outgoing_transactions (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        agent_id uuid REFERENCES agents(id),
        quote_id uuid NOT NULL UNIQUE REFERENCES quotes(id),
        status text NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED')),
        failure_reason text,
        source_account_id uuid NOT NULL REFERENCES internal_accounts(id),
        destination_kind text NOT NULL CHECK (destination_kind IN ('InternalAccount', 'ExternalAccount')),
        destination_account_id uuid NOT NULL,
        payment_rail text,
        sent_amount bigint NOT NULL CHECK (sent_amount > 0),
        sending_currency text NOT NULL,
        received_amount bigint NOT NULL CHECK (received_amount > 0),
        receiving_currency text NOT NULL,
        exchange_rate double precision NOT NULL,
        fees bigint NOT NULL CHECK (fees >= 0),
        rate_details jsonb NOT NULL,
        description text,
        settled_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
        await q.query(`CREATE INDEX outgoing_transactions_customer ON outgoing_transactions (customer_id, id)`);
    }
    async down(q) {
        await q.query(`DROP TABLE outgoing_transactions`);
        await q.query(`DROP TABLE agent_actions`);
        await q.query(`DROP TABLE quotes`);
    }
}
//# sourceMappingURL=1767227300000-AgentQuotes.js.map