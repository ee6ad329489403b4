/**
 * Ledger holds: funds reserved on an internal account (a card authorization) without moving money.
 * `internal_accounts.held` caches the sum of the open holds' `remaining`, written in the same
 * transaction as the hold; `balance` stays the ledger balance (the latest entry's `balance_after`),
 * so what can be spent is `balance - held` and the database refuses holds the balance does not cover.
 */
export class LedgerHolds1767227100000 {
    name = 'LedgerHolds1767227100000';
    async up(q) {
        await q.query(`ALTER TABLE internal_accounts ADD COLUMN held bigint NOT NULL DEFAULT 0`);
        await q.query(`ALTER TABLE internal_accounts ADD CONSTRAINT internal_accounts_held_covered CHECK (held >= 0 AND held <= balance)`);
        await q.query(`
      CREATE TABLE ledger_holds (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES internal_accounts(id),
        platform_id uuid NOT NULL REFERENCES platforms(id),
        amount bigint NOT NULL CHECK (amount > 0 AND amount <= 9007199254740991),
        remaining bigint NOT NULL CHECK (remaining >= 0 AND remaining <= amount),
        status text NOT NULL CHECK (status IN ('OPEN', 'CLOSED')),
        reason text NOT NULL,
        reference text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((status = 'OPEN') = (remaining > 0))
      )`);
        await q.query(`CREATE INDEX ledger_holds_open ON ledger_holds (account_id) WHERE status = 'OPEN'`);
    }
    async down(q) {
        await q.query(`DROP TABLE ledger_holds`);
        await q.query(`ALTER TABLE internal_accounts DROP CONSTRAINT internal_accounts_held_covered`);
        await q.query(`ALTER TABLE internal_accounts DROP COLUMN held`);
    }
}
//# sourceMappingURL=1767227100000-LedgerHolds.js.map