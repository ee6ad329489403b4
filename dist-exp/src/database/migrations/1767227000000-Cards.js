export class Cards1767227000000 {
    name = 'Cards1767227000000';
    async up(q) {
        await q.query(`
      CREATE TABLE cards (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        platform_card_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED')),
        status_reason text CHECK (status_reason IN ('ISSUER_REJECTED', 'CLOSED_BY_PLATFORM', 'CLOSED_BY_SERVICE')),
        form text NOT NULL,
        brand text,
        last4 text,
        exp_month integer,
        exp_year integer,
        currency text NOT NULL,
        funding_source_id uuid NOT NULL REFERENCES internal_accounts(id),
        funding_detached_at timestamptz,
        card_capabilities jsonb NOT NULL,
        max_spend_per_transaction bigint,
        max_spend_per_day bigint,
        max_transactions_per_day integer,
        processor_ref text,
        issuer_ref text,
        provisioning_due_at timestamptz,
        provisioning_outcome text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
        await q.query(`CREATE UNIQUE INDEX cards_platform_card_id ON cards (platform_id, platform_card_id)`);
        await q.query(`CREATE INDEX cards_list ON cards (platform_id, id)`);
        await q.query(`CREATE INDEX cards_customer ON cards (platform_id, customer_id, id)`);
        await q.query(`CREATE INDEX cards_funding_source ON cards (platform_id, funding_source_id, id)`);
        // Live cards (not CLOSED) are counted at every issuance (CARD_LIMIT_REACHED).
        await q.query(`CREATE INDEX cards_live ON cards (platform_id, customer_id) WHERE status <> 'CLOSED'`);
        // The provisioning worker's claim: PROCESSING cards due, and PENDING_KYC cards waiting for KYC.
        await q.query(`
      CREATE INDEX cards_provisioning ON cards (provisioning_due_at)
      WHERE status IN ('PROCESSING', 'PENDING_KYC') AND provisioning_due_at IS NOT NULL`);
        await q.query(`
      CREATE TABLE card_status_history (
        id uuid PRIMARY KEY,
        card_id uuid NOT NULL REFERENCES cards(id),
        platform_id uuid NOT NULL REFERENCES platforms(id),
        actor text NOT NULL,
        from_status text,
        to_status text NOT NULL,
        substatus text,
        reason text,
        status_reason text,
        created_at timestamptz NOT NULL
      )`);
        await q.query(`CREATE INDEX card_status_history_card ON card_status_history (card_id, id)`);
        // One row per platform, locked by every issuance so that the live-card count and the insert
        // are serialized: two racing issuances never exceed maxLiveCards.
        await q.query(`
      CREATE TABLE card_issuance_locks (
        platform_id uuid PRIMARY KEY REFERENCES platforms(id)
      )`);
    }
    async down(q) {
        await q.query(`DROP TABLE card_issuance_locks`);
        await q.query(`DROP TABLE card_status_history`);
        await q.query(`DROP TABLE cards`);
    }
}
//# sourceMappingURL=1767227000000-Cards.js.map