import { newUuid } from '../../common/ids.js';
/**
 * Customers, their internal accounts (and the platform's own), and the append-only ledger that
 * holds every balance movement.
 */
export class Customers1767225800000 {
    name = 'Customers1767225800000';
    async up(q) {
        await q.query(`
      CREATE TABLE customers (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        platform_customer_id text NOT NULL,
        customer_type text NOT NULL CHECK (customer_type IN ('INDIVIDUAL', 'BUSINESS')),
        kyc_status text NOT NULL DEFAULT 'UNVERIFIED'
          CHECK (kyc_status IN ('UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD')),
        region text,
        currencies text[] NOT NULL,
        email text,
        phone_number text,
        uma_address text NOT NULL,
        profile jsonb NOT NULL,
        identifier text,
        end_user_terms_consent jsonb,
        is_deleted boolean NOT NULL DEFAULT false,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
        // platformCustomerId and umaAddress are unique among the platform's active customers only:
        // a deleted customer's values may be used again.
        await q.query(`
      CREATE UNIQUE INDEX customers_platform_customer_id_active
        ON customers (platform_id, platform_customer_id) WHERE NOT is_deleted`);
        await q.query(`
      CREATE UNIQUE INDEX customers_uma_address_active
        ON customers (platform_id, lower(uma_address)) WHERE NOT is_deleted`);
        await q.query(`CREATE INDEX customers_platform ON customers (platform_id, id)`);
        await q.query(`
      CREATE TABLE internal_accounts (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid REFERENCES customers(id),
        type text NOT NULL CHECK (type IN ('INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET')),
        status text NOT NULL DEFAULT 'ACTIVE'
          CHECK (status IN ('PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED')),
        currency text NOT NULL,
        balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0 AND balance <= 9007199254740991),
        ledger_seq bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
        // One account per (owner, currency, type): the platform's own and each customer's.
        await q.query(`
      CREATE UNIQUE INDEX internal_accounts_platform_owned
        ON internal_accounts (platform_id, currency, type) WHERE customer_id IS NULL`);
        await q.query(`
      CREATE UNIQUE INDEX internal_accounts_customer_owned
        ON internal_accounts (customer_id, currency, type) WHERE customer_id IS NOT NULL`);
        await q.query(`CREATE INDEX internal_accounts_platform ON internal_accounts (platform_id, id)`);
        await q.query(`
      CREATE TABLE ledger_entries (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES internal_accounts(id),
        platform_id uuid NOT NULL REFERENCES platforms(id),
        seq bigint NOT NULL CHECK (seq >= 1),
        amount bigint NOT NULL CHECK (amount <> 0),
        balance_after bigint NOT NULL CHECK (balance_after >= 0 AND balance_after <= 9007199254740991),
        reason text NOT NULL,
        reference text,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (account_id, seq)
      )`);
        // Append-only: a movement is corrected by another movement, never by editing history.
        await q.query(`
      CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ledger_entries is append-only (% refused)', TG_OP;
      END
      $$`);
        await q.query(`
      CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
        FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only()`);
        // Platforms created before this migration get their internal accounts, one per supported currency.
        const rows = (await q.query(`
      SELECT c.platform_id, cur->>'currencyCode' AS currency
        FROM platform_configs c, jsonb_array_elements(c.supported_currencies) cur`));
        for (const row of rows) {
            await q.query(`INSERT INTO internal_accounts (id, platform_id, customer_id, type, currency)
         VALUES ($1, $2, NULL, 'INTERNAL_FIAT', $3) ON CONFLICT DO NOTHING`, [newUuid(), row.platform_id, row.currency]);
        }
    }
    async down(q) {
        await q.query(`DROP TABLE ledger_entries`);
        await q.query(`DROP FUNCTION ledger_entries_append_only()`);
        await q.query(`DROP TABLE internal_accounts`);
        await q.query(`DROP TABLE customers`);
    }
}
//# sourceMappingURL=1767225800000-Customers.js.map