import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SCA quote authorization (docs/sca.md): a quote of a customer in an SCA region waits in
 * PENDING_AUTHORIZATION with its challenge (the rendered `scaChallenge`, public material only);
 * an execution asked for before the authorization records its transaction as PENDING_AUTHORIZATION.
 */
export class QuoteAuthorization1767228750000 implements MigrationInterface {
  name = 'QuoteAuthorization1767228750000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE quotes DROP CONSTRAINT quotes_status_check`);
    await q.query(`ALTER TABLE quotes ADD CONSTRAINT quotes_status_check
      CHECK (status IN ('PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'))`);
    await q.query(`ALTER TABLE quotes ADD COLUMN sca_challenge jsonb`);
    await q.query(`ALTER TABLE outgoing_transactions DROP CONSTRAINT outgoing_transactions_status_check`);
    await q.query(`ALTER TABLE outgoing_transactions ADD CONSTRAINT outgoing_transactions_status_check
      CHECK (status IN ('PENDING_AUTHORIZATION', 'PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outgoing_transactions DROP CONSTRAINT outgoing_transactions_status_check`);
    await q.query(`ALTER TABLE outgoing_transactions ADD CONSTRAINT outgoing_transactions_status_check
      CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'))`);
    await q.query(`ALTER TABLE quotes DROP COLUMN sca_challenge`);
    await q.query(`ALTER TABLE quotes DROP CONSTRAINT quotes_status_check`);
    await q.query(`ALTER TABLE quotes ADD CONSTRAINT quotes_status_check
      CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'))`);
  }
}
