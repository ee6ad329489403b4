/**
 * Card transactions: authorizations (approved or declined), their clearings, reversals and
 * expiries rolled up on the purchase row, and returns as CREDIT rows linked to their purchase.
 */
export class CardTransactions1767227110000 {
    name = 'CardTransactions1767227110000';
    async up(q) {
        await q.query(`
      CREATE TABLE card_transactions (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        card_id uuid NOT NULL REFERENCES cards(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        account_id uuid NOT NULL REFERENCES internal_accounts(id),
        direction text NOT NULL CHECK (direction IN ('DEBIT', 'CREDIT')),
        status text NOT NULL
          CHECK (status IN ('AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'DECLINED', 'VOIDED', 'EXCEPTION')),
        declined_reason text CHECK ((status = 'DECLINED') = (declined_reason IS NOT NULL)),
        original_transaction_id uuid REFERENCES card_transactions(id),
        issuer_transaction_token text NOT NULL,
        currency text NOT NULL,
        merchant jsonb NOT NULL,
        authorized_amount bigint NOT NULL CHECK (authorized_amount >= 0),
        reversed_amount bigint NOT NULL DEFAULT 0 CHECK (reversed_amount >= 0 AND reversed_amount <= authorized_amount),
        settled_amount bigint NOT NULL DEFAULT 0 CHECK (settled_amount >= 0),
        refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= settled_amount),
        hold_id uuid REFERENCES ledger_holds(id),
        pull_outcome text NOT NULL DEFAULT 'OK' CHECK (pull_outcome IN ('OK', 'CONFIRMATION_FAILS')),
        authorized_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
        // The day's approved authorizations of a card (limits): declines and returns are not counted.
        await q.query(`
      CREATE INDEX card_transactions_approved_day ON card_transactions (card_id, authorized_at)
        INCLUDE (authorized_amount) WHERE direction = 'DEBIT' AND status <> 'DECLINED'`);
        // GET /cards/{id}/transactions, newest first.
        await q.query(`CREATE INDEX card_transactions_card ON card_transactions (card_id, id)`);
    }
    async down(q) {
        await q.query(`DROP TABLE card_transactions`);
    }
}
//# sourceMappingURL=1767227110000-CardTransactions.js.map