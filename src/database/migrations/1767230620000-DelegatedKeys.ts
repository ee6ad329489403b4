import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delegated keys (docs/embedded-wallets.md, "Delegated keys for a card"): a P-256 key the service
 * generates and custodies (private half sealed by SecretBox, a registered sealed column) to sign
 * the authorizations of a card funded by an embedded wallet, created by the wallet holder's two
 * signed retries. PENDING after the first signed leg, ACTIVE after the second, REVOKED; at most one
 * ACTIVE per card funding source (the card and its wallet). A card transaction records the
 * delegated key's signature over its authorization.
 */
export class DelegatedKeys1767230620000 implements MigrationInterface {
  name = 'DelegatedKeys1767230620000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE wallet_delegated_keys (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        account_id uuid NOT NULL REFERENCES internal_accounts(id),
        card_id uuid NOT NULL REFERENCES cards(id),
        nickname text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'ACTIVE', 'REVOKED')),
        public_key text NOT NULL,
        private_key_enc text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX wallet_delegated_keys_account ON wallet_delegated_keys (account_id, id)`);
    await q.query(`CREATE UNIQUE INDEX wallet_delegated_keys_one_active ON wallet_delegated_keys (card_id, account_id)
                     WHERE status = 'ACTIVE'`);
    await q.query(`ALTER TABLE card_transactions ADD COLUMN wallet_authorization jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE card_transactions DROP COLUMN wallet_authorization`);
    await q.query(`DROP TABLE wallet_delegated_keys`);
  }
}
