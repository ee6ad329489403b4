import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The append-only audit trail (src/audit/). `audit_events` holds one row per state-changing call
 * and per refused call; each row carries the hash of its chain's previous row (`prev_hash`) and its
 * own (`hash` = sha256 of the previous hash and the row's canonical content), one chain per
 * platform (`chain` = the platform id, or the nil uuid for calls no platform could be named for).
 * `audit_heads` holds each chain's last sequence number and hash: the writer's upsert of that row
 * locks it until commit, so a platform's events get consecutive numbers in commit order and every
 * event links to the one committed before it. Its `floor_seq` / `floor_hash` are the last event the
 * retention job deleted (0 / NULL: none), where the kept chain must start.
 *
 * A trigger refuses UPDATE, DELETE and TRUNCATE on `audit_events`; the only exception is a DELETE
 * in a transaction that set `audit.retention = on` (the worker's retention job, AUDIT_RETENTION_DAYS).
 */
export class AuditTrail1767227600000 implements MigrationInterface {
  name = 'AuditTrail1767227600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_heads (
        chain uuid PRIMARY KEY,
        seq bigint NOT NULL,
        prev_hash text,
        hash text NOT NULL,
        floor_seq bigint NOT NULL DEFAULT 0,
        floor_hash text
      )`);
    await q.query(`
      CREATE TABLE audit_events (
        id uuid PRIMARY KEY,
        chain uuid NOT NULL,
        seq bigint NOT NULL,
        platform_id uuid,
        created_at timestamptz NOT NULL,
        actor_type text NOT NULL,
        actor_id text,
        action text NOT NULL,
        resource_ids text[] NOT NULL,
        status integer NOT NULL,
        error_code text,
        request_id text,
        source_address text,
        user_agent text,
        changed_fields text[] NOT NULL,
        prev_hash text,
        hash text NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX audit_events_chain_seq ON audit_events (chain, seq)`);
    await q.query(`CREATE INDEX audit_events_platform ON audit_events (platform_id, id)`);
    await q.query(`CREATE INDEX audit_events_created ON audit_events (created_at)`);
    await q.query(`
      CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('audit.retention', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = '42501';
      END $$`);
    await q.query(`
      CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
        FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()`);
    await q.query(`
      CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
        FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_events`);
    await q.query(`DROP FUNCTION audit_events_append_only()`);
    await q.query(`DROP TABLE audit_heads`);
  }
}
