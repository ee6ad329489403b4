import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * UMA (docs/uma.md): the deployment's keys per UMA domain (private keys sealed by SecretBox), the
 * nonces of signed messages already seen (replays are refused), the lookups a quote refers to,
 * and invitations.
 */
export class Uma1767228800000 implements MigrationInterface {
  name = 'Uma1767228800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE uma_keys (
        domain text PRIMARY KEY,
        signing_private_key_enc text NOT NULL,
        signing_cert_chain text NOT NULL,
        encryption_private_key_enc text NOT NULL,
        encryption_cert_chain text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE uma_nonces (
        domain text NOT NULL,
        nonce text NOT NULL,
        message_time timestamptz NOT NULL,
        seen_at timestamptz NOT NULL,
        PRIMARY KEY (domain, nonce)
      )`);
    await q.query(`CREATE INDEX uma_nonces_seen_at ON uma_nonces (seen_at)`);
    await q.query(`
      CREATE TABLE uma_lookups (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid,
        sender_uma_address text,
        receiver_uma_address text,
        external_account_id uuid,
        response jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX uma_lookups_platform ON uma_lookups (platform_id, id)`);
    await q.query(`
      CREATE TABLE uma_invitations (
        code text PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        inviter_customer_id uuid NOT NULL,
        inviter_uma text NOT NULL,
        invitee_uma text,
        first_name text,
        amount_to_send bigint CHECK (amount_to_send > 0),
        amount_currency text,
        status text NOT NULL CHECK (status IN ('PENDING', 'CLAIMED', 'CANCELLED')),
        expires_at timestamptz,
        claimed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX uma_invitations_platform ON uma_invitations (platform_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE uma_invitations`);
    await q.query(`DROP TABLE uma_lookups`);
    await q.query(`DROP TABLE uma_nonces`);
    await q.query(`DROP TABLE uma_keys`);
  }
}
