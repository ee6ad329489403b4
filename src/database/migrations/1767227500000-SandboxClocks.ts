import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sandbox test clocks (docs/test-clocks.md): a platform's clock offset (milliseconds ahead of real
 * time; only grows), and every advance (who, from, to). Read only with SANDBOX=true.
 */
export class SandboxClocks1767227500000 implements MigrationInterface {
  name = 'SandboxClocks1767227500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_clocks (
        platform_id uuid PRIMARY KEY REFERENCES platforms(id),
        offset_ms bigint NOT NULL CHECK (offset_ms >= 0),
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE sandbox_clock_advances (
        id uuid PRIMARY KEY,
        platform_id uuid NOT NULL REFERENCES platforms(id),
        token_id uuid NOT NULL,
        from_time timestamptz NOT NULL,
        to_time timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sandbox_clock_advances_platform ON sandbox_clock_advances (platform_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_clock_advances`);
    await q.query(`DROP TABLE sandbox_clocks`);
  }
}
