import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Strong Customer Authentication (src/sca/, docs/sca.md): enrolled factors, challenges, login
 * sessions, each customer's login-security state and factor resets; the trusted-beneficiary mark on
 * external accounts (owned by src/external-accounts/); and the card reveal tokens of the sandbox
 * issuer (src/cards/issuer/). Secrets (TOTP secrets, SMS codes) are sealed by SecretBox; reveal
 * tokens are stored as SHA-256 hashes only.
 */
export class Sca1767228700000 implements MigrationInterface {
  name = 'Sca1767228700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sca_factors (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        factor text NOT NULL CHECK (factor IN ('TOTP', 'PASSKEY')),
        totp_secret text,
        totp_last_step bigint,
        credential_id text,
        public_key text,
        counter bigint NOT NULL DEFAULT 0,
        transports text[] NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL
      )`);
    // One TOTP and one passkey per customer; a WebAuthn credential id is registered once.
    await q.query(`CREATE UNIQUE INDEX sca_factors_one_per_kind ON sca_factors (customer_id, factor)`);
    await q.query(
      `CREATE UNIQUE INDEX sca_factors_credential ON sca_factors (credential_id) WHERE credential_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE sca_challenges (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        purpose text NOT NULL,
        subject text NOT NULL,
        binding text NOT NULL,
        factor text NOT NULL,
        available_factors text[] NOT NULL,
        sms_code text,
        enrollment_secret text,
        webauthn_challenge text,
        failed_attempts int NOT NULL DEFAULT 0,
        status text NOT NULL CHECK (status IN ('PENDING', 'USED', 'LOCKED')),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`CREATE INDEX sca_challenges_customer ON sca_challenges (customer_id, purpose, created_at DESC)`);
    await q.query(`
      CREATE TABLE sca_sessions (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        factor text NOT NULL,
        end_user_ip text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX sca_sessions_customer ON sca_sessions (customer_id, expires_at DESC)`);
    await q.query(`
      CREATE TABLE sca_login_states (
        customer_id uuid PRIMARY KEY REFERENCES customers(id),
        platform_id uuid NOT NULL REFERENCES platforms(id),
        failed_attempts int NOT NULL,
        locked_until timestamptz,
        suspended boolean NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE sca_factor_resets (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        factor text NOT NULL,
        status text NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX sca_factor_resets_customer ON sca_factor_resets (customer_id, created_at)`);
    await q.query(`ALTER TABLE external_accounts ADD COLUMN trusted_at timestamptz`);
    await q.query(`
      CREATE TABLE card_reveals (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        card_id uuid NOT NULL REFERENCES cards(id),
        token_hash bytea NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE card_reveals`);
    await q.query(`ALTER TABLE external_accounts DROP COLUMN trusted_at`);
    await q.query(`DROP TABLE sca_factor_resets`);
    await q.query(`DROP TABLE sca_login_states`);
    await q.query(`DROP TABLE sca_sessions`);
    await q.query(`DROP TABLE sca_challenges`);
    await q.query(`DROP TABLE sca_factors`);
  }
}
