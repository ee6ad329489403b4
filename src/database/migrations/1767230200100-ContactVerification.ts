import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Contact verification (`POST /customers/{id}/verify-email|verify-phone` and `/confirm`): the
 * customer's `contactVerification` (null when its region needs none) and the live code of each
 * channel (its digest only; attempts, re-sends and expiry on the platform's clock).
 */
export class ContactVerification1767230200100 implements MigrationInterface {
  name = 'ContactVerification1767230200100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE customers ADD COLUMN contact_verification jsonb`);
    await q.query(`
      CREATE TABLE contact_verification_codes (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        channel text NOT NULL CHECK (channel IN ('EMAIL', 'PHONE')),
        address text NOT NULL,
        code_digest text NOT NULL,
        failed_attempts integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
        sends integer NOT NULL CHECK (sends >= 1),
        first_sent_at timestamptz NOT NULL,
        last_sent_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT contact_verification_codes_one_per_channel UNIQUE (customer_id, channel)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE contact_verification_codes`);
    await q.query(`ALTER TABLE customers DROP COLUMN contact_verification`);
  }
}
