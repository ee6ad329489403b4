import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment documents (src/payment-documents/): a quote's supporting documents live in `documents`
 * with purpose PAYMENT (their bytes in `document_contents`, like every document). They name no
 * issuing country, and attach to one quote at most (`quote_id`, set once, in the transaction that
 * creates the quote); the quote keeps the ids it was created with (`quotes.document_ids`).
 */
export class PaymentDocuments1767228920000 implements MigrationInterface {
  name = 'PaymentDocuments1767228920000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents ALTER COLUMN country DROP NOT NULL`);
    await q.query(
      `ALTER TABLE documents ADD CONSTRAINT documents_country_of_verification CHECK (purpose = 'PAYMENT' OR country IS NOT NULL)`,
    );
    await q.query(
      `ALTER TABLE documents ADD CONSTRAINT documents_quote_of_payment CHECK (purpose = 'PAYMENT' OR quote_id IS NULL)`,
    );
    await q.query(`CREATE INDEX documents_quote ON documents (quote_id) WHERE quote_id IS NOT NULL`);
    await q.query(`ALTER TABLE quotes ADD COLUMN document_ids uuid[] NOT NULL DEFAULT '{}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE quotes DROP COLUMN document_ids`);
    await q.query(`DROP INDEX documents_quote`);
    await q.query(`ALTER TABLE documents DROP CONSTRAINT documents_quote_of_payment`);
    await q.query(`ALTER TABLE documents DROP CONSTRAINT documents_country_of_verification`);
    await q.query(`DELETE FROM documents WHERE purpose = 'PAYMENT'`);
    await q.query(`ALTER TABLE documents ALTER COLUMN country SET NOT NULL`);
  }
}
