import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail without a per-platform lock (src/audit/audit-sealer.ts): a request appends its
 * event unlinked (`seq`, `prev_hash`, `hash` NULL) in the statement or transaction of its change;
 * the sealer links events into their chains later, in batches, in the order they became visible
 * (commit order, to the batch; `pos`, the append sequence, within one). `txid` is the appending
 * transaction (the tests' `settle` waits on it). `digest` (sha256 of the canonical text, written with the event)
 * names an unsealed event altered before sealing; `count` / `last_seen` make one row stand for a
 * window of identical refusals. `appended_at` is the database's time of the append (for the seal
 * lag metric only; not hashed). `pos` orders the unsealed tail.
 *
 * The append-only trigger now also lets exactly one UPDATE through: sealing (hash NULL -> set, with
 * `seq` and `prev_hash`), every other column unchanged.
 */
export class AuditUnlinked1767228100000 implements MigrationInterface {
  name = 'AuditUnlinked1767228100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_events ALTER COLUMN seq DROP NOT NULL, ALTER COLUMN hash DROP NOT NULL`);
    await q.query(`ALTER TABLE audit_events ADD COLUMN pos bigint GENERATED ALWAYS AS IDENTITY`);
    await q.query(`ALTER TABLE audit_events ADD COLUMN txid xid8 NOT NULL DEFAULT '0'`);
    await q.query(`ALTER TABLE audit_events ALTER COLUMN txid SET DEFAULT pg_current_xact_id()`);
    await q.query(`ALTER TABLE audit_events ADD COLUMN appended_at timestamptz NOT NULL DEFAULT now()`);
    await q.query(`ALTER TABLE audit_events ADD COLUMN digest text`);
    await q.query(`ALTER TABLE audit_events ADD COLUMN count integer NOT NULL DEFAULT 1`);
    await q.query(`ALTER TABLE audit_events ADD COLUMN last_seen timestamptz`);
    await q.query(`CREATE INDEX audit_events_unsealed ON audit_events (pos) WHERE hash IS NULL`);
    await q.query(`
      CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('audit.retention', true) = 'on' THEN
          RETURN OLD;
        END IF;
        IF TG_OP = 'UPDATE' AND OLD.hash IS NULL AND NEW.hash IS NOT NULL AND NEW.seq IS NOT NULL
          AND (OLD.id, OLD.chain, OLD.platform_id, OLD.created_at, OLD.actor_type, OLD.actor_id, OLD.action,
               OLD.resource_ids, OLD.status, OLD.error_code, OLD.request_id, OLD.source_address, OLD.user_agent,
               OLD.changed_fields, OLD.pos, OLD.txid, OLD.appended_at, OLD.digest, OLD.count, OLD.last_seen)
            IS NOT DISTINCT FROM
              (NEW.id, NEW.chain, NEW.platform_id, NEW.created_at, NEW.actor_type, NEW.actor_id, NEW.action,
               NEW.resource_ids, NEW.status, NEW.error_code, NEW.request_id, NEW.source_address, NEW.user_agent,
               NEW.changed_fields, NEW.pos, NEW.txid, NEW.appended_at, NEW.digest, NEW.count, NEW.last_seen) THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = '42501';
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_events_unsealed`);
    for (const column of ['last_seen', 'count', 'digest', 'appended_at', 'txid', 'pos']) {
      await q.query(`ALTER TABLE audit_events DROP COLUMN ${column}`);
    }
  }
}
