import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One-time codes hardened (issue #47; docs/security-operations.md, "One-time codes"):
 * - `server_keys`: the deployment's server-side keys (32 random bytes each, sealed by SecretBox, a
 *   registered sealed column); `one-time-code-mac` keys the HMAC-SHA256 every one-time code is
 *   stored as (wallet OTPs, contact verification codes, SCA SMS codes).
 * - `one_time_code_limits`: codes issued and wrong guesses per window, per subject (a credential, a
 *   wallet, a customer's channel, a customer), and the lock with backoff past them.
 * - `sca_challenges.sms_code_mac`: an SMS challenge's code as a keyed MAC (the sealed `sms_code`
 *   of challenges issued before stays readable until they expire).
 * - Codes stored under the former unkeyed digest are invalidated (they expire in minutes anyway:
 *   the holder asks for a new one): pending wallet OTPs are spent, pending contact codes deleted.
 * - `wallet_sessions_public_key`: the signer lookup by key is exact (one live session per key).
 */
export class OneTimeCodeHardening1767230700000 implements MigrationInterface {
  name = 'OneTimeCodeHardening1767230700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE server_keys (
        id text PRIMARY KEY,
        key_enc text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE one_time_code_limits (
        scope text NOT NULL,
        subject text NOT NULL,
        window_started_at timestamptz NOT NULL,
        issued integer NOT NULL DEFAULT 0,
        failures integer NOT NULL DEFAULT 0,
        locked_until timestamptz,
        locks integer NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (scope, subject)
      )`);
    await q.query(`ALTER TABLE sca_challenges ADD COLUMN sms_code_mac text`);
    await q.query(`UPDATE wallet_otps SET used_at = now() WHERE used_at IS NULL`);
    await q.query(`DELETE FROM contact_verification_codes`);
    await q.query(`CREATE INDEX wallet_sessions_public_key ON wallet_sessions (public_key) WHERE revoked_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX wallet_sessions_public_key`);
    await q.query(`ALTER TABLE sca_challenges DROP COLUMN sms_code_mac`);
    await q.query(`DROP TABLE one_time_code_limits`);
    await q.query(`DROP TABLE server_keys`);
  }
}
