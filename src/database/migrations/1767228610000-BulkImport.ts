import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bulk customer import (src/bulk-import/): a job, and its rows staged as the CSV streams in.
 * A row is marked done in the transaction that creates its customer, so a restarted import
 * resumes where it stopped without creating anyone twice.
 */
export class BulkImport1767228610000 implements MigrationInterface {
  name = 'BulkImport1767228610000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE bulk_import_jobs (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        status text NOT NULL CHECK (status IN ('UPLOADING', 'PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')),
        total integer NOT NULL DEFAULT 0,
        processed integer NOT NULL DEFAULT 0,
        successful integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        completed_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX bulk_import_jobs_open ON bulk_import_jobs (status) WHERE status IN ('UPLOADING', 'PENDING', 'PROCESSING')`,
    );
    await q.query(`
      CREATE TABLE bulk_import_rows (
        job_id uuid NOT NULL REFERENCES bulk_import_jobs(id) ON DELETE CASCADE,
        row_number integer NOT NULL,
        payload jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'DONE', 'FAILED')),
        error jsonb,
        PRIMARY KEY (job_id, row_number)
      )`);
    await q.query(
      `CREATE INDEX bulk_import_rows_pending ON bulk_import_rows (job_id, row_number) WHERE status = 'PENDING'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE bulk_import_rows`);
    await q.query(`DROP TABLE bulk_import_jobs`);
  }
}
