import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Onboarding (KYC/KYB): beneficial owners (src/beneficial-owners/), documents and their bytes
 * (src/documents/: the PostgreSQL document store), verifications (src/verifications/) and the
 * hosted sandbox KYC links.
 *
 * A document has a `purpose`: VERIFICATION (a customer's or beneficial owner's identity and
 * business documents: one per holder, type and side) or PAYMENT (a supporting document for a
 * quote, attached to one quote at most).
 */
export class Onboarding1767228600000 implements MigrationInterface {
  name = 'Onboarding1767228600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE beneficial_owners (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        roles text[] NOT NULL,
        ownership_percentage integer NOT NULL CHECK (ownership_percentage BETWEEN 0 AND 100),
        personal_info jsonb NOT NULL,
        identifier text,
        kyc_status text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX beneficial_owners_customer ON beneficial_owners (platform_id, customer_id, id)`);
    await q.query(`
      CREATE TABLE documents (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        purpose text NOT NULL CHECK (purpose IN ('VERIFICATION', 'PAYMENT')),
        holder_type text NOT NULL CHECK (holder_type IN ('Customer', 'BeneficialOwner')),
        holder_id uuid NOT NULL,
        customer_id uuid NOT NULL REFERENCES customers(id),
        document_type text NOT NULL,
        side text,
        country text NOT NULL,
        document_number text,
        issuing_authority text,
        file_name text NOT NULL,
        content_type text NOT NULL,
        size_bytes integer NOT NULL CHECK (size_bytes > 0),
        sha256 text NOT NULL,
        review_status text NOT NULL CHECK (review_status IN ('PENDING', 'ACCEPTED', 'REJECTED')),
        rejection_code text,
        submitted_at timestamptz,
        quote_id uuid,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE UNIQUE INDEX documents_holder_type_side ON documents (platform_id, holder_id, document_type, coalesce(side, '')) WHERE purpose = 'VERIFICATION'`,
    );
    await q.query(`CREATE INDEX documents_platform_holder ON documents (platform_id, holder_id, id)`);
    await q.query(`CREATE INDEX documents_platform_customer ON documents (platform_id, customer_id, id)`);
    await q.query(`
      CREATE TABLE document_contents (
        document_id uuid PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
        bytes bytea NOT NULL
      )`);
    await q.query(`
      CREATE TABLE verifications (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        status text NOT NULL,
        errors jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX verifications_customer ON verifications (platform_id, customer_id, id)`);
    await q.query(`
      CREATE TABLE kyc_links (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        customer_id uuid NOT NULL REFERENCES customers(id),
        token_hash text NOT NULL UNIQUE,
        redirect_uri text,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE kyc_links`);
    await q.query(`DROP TABLE verifications`);
    await q.query(`DROP TABLE document_contents`);
    await q.query(`DROP TABLE documents`);
    await q.query(`DROP TABLE beneficial_owners`);
  }
}
