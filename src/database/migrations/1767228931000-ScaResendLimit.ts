import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SCA code re-sends are rate limited (docs/sca.md, "Quote authorization"): when a challenge's SMS
 * code was last sent (the platform's clock) and how often it was re-sent.
 */
export class ScaResendLimit1767228931000 implements MigrationInterface {
  name = 'ScaResendLimit1767228931000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sca_challenges ADD COLUMN code_sent_at timestamptz`);
    await q.query(`ALTER TABLE sca_challenges ADD COLUMN resend_count integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sca_challenges DROP COLUMN resend_count`);
    await q.query(`ALTER TABLE sca_challenges DROP COLUMN code_sent_at`);
  }
}
