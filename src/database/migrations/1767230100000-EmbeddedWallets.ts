import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Embedded wallets (docs/embedded-wallets.md, issue #38):
 * - `platform_configs.embedded_wallet_config`: the reference's EmbeddedWalletConfig (null: the
 *   platform has not configured embedded wallets, and none is provisioned).
 * - `wallet_enclave_keys`: the deployment's enclave key pair (P-256, row `current`) and the sandbox
 *   OIDC issuer's (row `sandbox-oidc`); the private keys sealed by SecretBox. It signs OTP target bundles and verification tokens; its public key is
 *   published (`GET /auth/enclave-key`) so clients can pin it.
 * - `wallet_credentials`: a wallet's authentication credentials (EMAIL_OTP, SMS_OTP, OAUTH,
 *   PASSKEY); one live EMAIL_OTP and one live SMS_OTP per account, an email or phone tied to one
 *   live OTP credential per platform, a passkey's WebAuthn id once per account.
 * - `wallet_otps`: one issued one-time password: its hash, the HPKE target key it is encrypted
 *   to (sealed), attempts, expiry (business clock), use.
 * - `wallet_sessions`: sessions bound to a client-held compressed P-256 public key, with expiry
 *   on the business clock and revocation.
 * - `wallet_signed_requests`: the 202-then-signed-retry challenges: what the retry must sign
 *   (`payload_to_sign`), the body it binds (`body_digest`), who may sign, expiry, single use.
 */
export class EmbeddedWallets1767230100000 implements MigrationInterface {
  name = 'EmbeddedWallets1767230100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_configs ADD COLUMN embedded_wallet_config jsonb`);
    await q.query(`
      CREATE TABLE wallet_enclave_keys (
        id text PRIMARY KEY CHECK (id IN ('current', 'sandbox-oidc')),
        public_key text NOT NULL,
        private_key_enc text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE wallet_credentials (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        account_id uuid NOT NULL REFERENCES internal_accounts(id),
        type text NOT NULL CHECK (type IN ('EMAIL_OTP', 'SMS_OTP', 'OAUTH', 'PASSKEY')),
        nickname text NOT NULL,
        contact text,
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX wallet_credentials_account ON wallet_credentials (account_id, id)`);
    await q.query(`CREATE UNIQUE INDEX wallet_credentials_one_email_otp ON wallet_credentials (account_id)
                     WHERE type = 'EMAIL_OTP' AND deleted_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX wallet_credentials_one_sms_otp ON wallet_credentials (account_id)
                     WHERE type = 'SMS_OTP' AND deleted_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX wallet_credentials_email_contact ON wallet_credentials (platform_id, contact)
                     WHERE type = 'EMAIL_OTP' AND deleted_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX wallet_credentials_phone_contact ON wallet_credentials (platform_id, contact)
                     WHERE type = 'SMS_OTP' AND deleted_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX wallet_credentials_passkey ON wallet_credentials (account_id, (details->>'credentialId'))
                     WHERE type = 'PASSKEY' AND deleted_at IS NULL`);
    await q.query(`
      CREATE TABLE wallet_otps (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        credential_id uuid NOT NULL REFERENCES wallet_credentials(id),
        code_hash text NOT NULL,
        target_public_key text NOT NULL,
        target_private_key_enc text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX wallet_otps_credential ON wallet_otps (credential_id, created_at)`);
    await q.query(`
      CREATE TABLE wallet_sessions (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        account_id uuid NOT NULL REFERENCES internal_accounts(id),
        credential_id uuid NOT NULL REFERENCES wallet_credentials(id),
        public_key text NOT NULL CHECK (public_key ~ '^0[23][0-9a-f]{64}$'),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX wallet_sessions_account_key ON wallet_sessions (account_id, public_key)`);
    await q.query(`
      CREATE TABLE wallet_signed_requests (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        account_id uuid NOT NULL REFERENCES internal_accounts(id),
        action text NOT NULL,
        target text NOT NULL,
        payload_to_sign text NOT NULL,
        body_digest text NOT NULL,
        signer_public_key text,
        context jsonb NOT NULL DEFAULT '{}'::jsonb,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE wallet_signed_requests`);
    await q.query(`DROP TABLE wallet_sessions`);
    await q.query(`DROP TABLE wallet_otps`);
    await q.query(`DROP TABLE wallet_credentials`);
    await q.query(`DROP TABLE wallet_enclave_keys`);
    await q.query(`ALTER TABLE platform_configs DROP COLUMN embedded_wallet_config`);
  }
}
