import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `console_sessions`: one row per operator console sign-in (src/auth/console-sessions.service.ts).
 * The session id and its CSRF token are stored as SHA-256 hashes only; every lookup joins the API
 * token, so revoking the token ends its sessions at once. Also an index for the console's card
 * search by last four digits (GET /cards?last4=).
 */
export class ConsoleSessions1767227700000 implements MigrationInterface {
  name = 'ConsoleSessions1767227700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE console_sessions (
        id_hash bytea PRIMARY KEY,
        token_id uuid NOT NULL REFERENCES api_tokens(id),
        platform_id uuid NOT NULL REFERENCES platforms(id),
        csrf_hash bytea NOT NULL,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX console_sessions_token ON console_sessions (token_id)`);
    // The console searches cards by their last four digits (GET /cards?last4=).
    await q.query(`CREATE INDEX cards_last4 ON cards (platform_id, last4, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX cards_last4`);
    await q.query(`DROP TABLE console_sessions`);
  }
}
