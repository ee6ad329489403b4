export class ExternalAccounts1767225900000 {
    name = 'ExternalAccounts1767225900000';
    async up(q) {
        await q.query(`
      CREATE TABLE external_accounts (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid REFERENCES customers(id),
        platform_account_id text,
        ownership_type text,
        currency text NOT NULL,
        status text NOT NULL,
        default_uma_deposit_account boolean NOT NULL DEFAULT false,
        beneficiary_verification_status text NOT NULL,
        beneficiary_verified_data jsonb,
        account_type text NOT NULL,
        account_info jsonb NOT NULL,
        identity text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
        // The spec's duplicate rules, enforced by the database so that racing creates cannot both win.
        await q.query(`
      CREATE UNIQUE INDEX external_accounts_platform_account_id ON external_accounts (platform_account_id)
      WHERE deleted_at IS NULL AND platform_account_id IS NOT NULL`);
        await q.query(`
      CREATE UNIQUE INDEX external_accounts_identity ON external_accounts (platform_id, customer_id, identity)
      NULLS NOT DISTINCT WHERE deleted_at IS NULL`);
        await q.query(`
      CREATE UNIQUE INDEX external_accounts_default_uma ON external_accounts (customer_id)
      WHERE default_uma_deposit_account AND deleted_at IS NULL`);
        await q.query(`CREATE INDEX external_accounts_list ON external_accounts (platform_id, customer_id, id)`);
    }
    async down(q) {
        await q.query(`DROP TABLE external_accounts`);
    }
}
//# sourceMappingURL=1767225900000-ExternalAccounts.js.map