import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every distributed table's keys include its distribution column (issue #49; the map is
 * `src/database/distribution.json`, docs/scale-out.md): Citus requires the distribution column in
 * every primary key, unique constraint and foreign key of a distributed table.
 *
 * - `bulk_import_rows`, `document_contents`, `outbox_attempts`, `one_time_code_limits` and
 *   `audit_heads` gain `platform_id`, backfilled from the parent row in key-ordered batches (each
 *   batch its own short transaction), then NOT NULL through a NOT VALID check that is validated
 *   (no long scan under an exclusive lock) before SET NOT NULL uses it. `audit_heads.platform_id` is
 *   its chain (the nil uuid for the unattributed chain). Code limits whose subject no longer
 *   exists (no platform to name) are deleted: they limit nothing.
 * - Primary keys become (old key columns, platform_id); every unique constraint and unique index
 *   gains platform_id as its first column; every foreign key between distributed tables becomes
 *   (platform_id, x_id) REFERENCES t (platform_id, id), keeping its ON DELETE. Foreign keys to
 *   `platforms` (a reference table) stay. `audit_events` is distributed by `chain` (its
 *   `platform_id` is NULL on the unattributed chain, and is hashed as such), so its keys gain
 *   `chain`.
 * - A few global lookups by an opaque value made before the platform is known (token hashes,
 *   client ids, a rail's reference) keep a plain index on the old columns (`<name>_lookup`).
 *
 * Built without blocking writes: every new unique index is built CONCURRENTLY under a temporary
 * name, then attached (`PRIMARY KEY USING INDEX`, `UNIQUE USING INDEX`, or renamed); foreign keys
 * are added NOT VALID next to the old ones and validated (which takes no lock that blocks writes).
 * Only the swaps take an exclusive lock, each for a catalog change. Hence `transaction = false`
 * (as 1767231400000-ExternalAccountKeyPerPlatform). The work is planned from the catalog (every
 * key of the tables below lacking the column), in name order, so a rerun after a crash picks up
 * what is left (temporary objects from a broken run are dropped first). Each changed key carries
 * its previous definition as a comment (`DistributionKeys: ...`), which `down` restores.
 */

/** The distributed tables at this migration, with their distribution column (a frozen copy of the map's). */
const DISTRIBUTED: Record<string, string> = Object.fromEntries(
  `agent_access_tokens agent_actions agent_device_codes agents api_tokens audit_heads beneficial_owners
   bulk_import_jobs bulk_import_rows card_issuance_locks card_reveals card_status_history card_transactions cards
   console_sessions contact_verification_codes customers document_contents documents external_accounts
   idempotency_keys incoming_transactions internal_accounts kyc_links ledger_entries ledger_holds
   one_time_code_limits outbox_aggregates outbox_attempts outbox_events outgoing_transactions plaid_link_tokens
   platform_configs quotes sandbox_clock_advances sandbox_clocks sandbox_rail_payments sca_challenges
   sca_factor_resets sca_factors sca_login_states sca_sessions stablecoin_external_account_links
   stablecoin_operations stablecoin_provider_accounts stablecoins uma_invitations uma_lookups uma_payments
   uma_settlement_messages verifications wallet_credentials wallet_delegated_keys wallet_otps wallet_seeds
   wallet_sessions wallet_signed_requests webhook_signing_keys`
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => [t, 'platform_id'] as [string, string])
    .concat([['audit_events', 'chain']]),
);

/** A safe uuid from text (NULL when it is not one). */
const uuidOf = (sql: string) =>
  `(CASE WHEN ${sql} ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN (${sql})::uuid END)`;

/** The tables that gain platform_id: their key (batch order) and where a row's platform comes from (row alias `r`). */
const GAINS: Record<string, { key: string[]; platform: string; orphans?: 'delete' }> = {
  audit_heads: { key: ['chain'], platform: 'r.chain' },
  bulk_import_rows: {
    key: ['job_id', 'row_number'],
    platform: '(SELECT p.platform_id FROM bulk_import_jobs p WHERE p.id = r.job_id)',
  },
  document_contents: {
    key: ['document_id'],
    platform: '(SELECT p.platform_id FROM documents p WHERE p.id = r.document_id)',
  },
  one_time_code_limits: {
    key: ['scope', 'subject'],
    platform: `(CASE r.scope
      WHEN 'wallet-otp-credential' THEN (SELECT p.platform_id FROM wallet_credentials p WHERE p.id = ${uuidOf('r.subject')})
      WHEN 'wallet-otp-account' THEN (SELECT p.platform_id FROM internal_accounts p WHERE p.id = ${uuidOf('r.subject')})
      WHEN 'contact-code' THEN
        (SELECT p.platform_id FROM customers p WHERE p.id = ${uuidOf("split_part(r.subject, ':', 1)")})
      ELSE (SELECT p.platform_id FROM customers p WHERE p.id = ${uuidOf('r.subject')}) END)`,
    orphans: 'delete',
  },
  outbox_attempts: {
    key: ['id'],
    platform: '(SELECT p.platform_id FROM outbox_events p WHERE p.id = r.event_id)',
  },
};

/** Old unique keys that lookups by an opaque value (before the platform is known) use: a plain index stays. */
const LOOKUPS = [
  'agent_access_tokens_hash',
  'agent_device_codes_hash',
  'api_tokens_client_id',
  'kyc_links_token_hash_key',
  'outgoing_transactions_rail_ref',
];

const BATCH = 5000;
const MARK = 'DistributionKeys: ';

/** One key to replace: the new unique index (built under `temp`), then attached in place of `name`. */
interface KeySwap {
  table: string;
  name: string;
  kind: 'p' | 'u' | 'i';
  /** CREATE UNIQUE INDEX <temp> ... (without CONCURRENTLY) */
  create: string;
  temp: string;
  /** the comment to leave on the new key (its previous definition), or null (down) */
  note: string | null;
}

interface FkSwap {
  table: string;
  name: string;
  definition: string;
  note: string | null;
}

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
const tempName = (name: string) => `${name.slice(0, 56)}_rekey`;

async function rows<T>(q: QueryRunner, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await q.query(sql, params)) as T[];
}

/** The columns of a constraint, in key order. */
const CONSTRAINT_COLUMNS = `array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o)`;

export class DistributionKeys1767231500000 implements MigrationInterface {
  name = 'DistributionKeys1767231500000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    const how = q.isTransactionActive ? '' : ' CONCURRENTLY';
    await dropLeftovers(q, how);
    for (const [table, gain] of Object.entries(GAINS)) await gainColumn(q, table, gain);

    const keys: KeySwap[] = [];
    const fks: FkSwap[] = [];
    for (const table of Object.keys(DISTRIBUTED).sort()) {
      const column = DISTRIBUTED[table];
      const [pk] = await rows<{ conname: string; columns: string[]; def: string }>(
        q,
        `SELECT c.conname, ${CONSTRAINT_COLUMNS} AS columns, pg_get_constraintdef(c.oid) AS def
           FROM pg_constraint c WHERE c.conrelid = $1::regclass AND c.contype = 'p'`,
        [table],
      );
      if (pk && !pk.columns.includes(column)) {
        const temp = tempName(pk.conname);
        const columns = [...pk.columns, column].join(', ');
        keys.push({
          table,
          name: pk.conname,
          kind: 'p',
          temp,
          create: `${temp} ON ${table} (${columns})`,
          note: pk.def,
        });
      }
      const uniques = await rows<{ name: string; def: string; constraint: string | null }>(
        q,
        `SELECT ci.relname AS name, pg_get_indexdef(i.indexrelid) AS def,
                (SELECT c.conname FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid
                   AND c.contype = 'u') AS constraint
           FROM pg_index i JOIN pg_class ci ON ci.oid = i.indexrelid
          WHERE i.indrelid = $1::regclass AND i.indisunique AND NOT i.indisprimary
            AND NOT (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = i.indrelid AND a.attname = $2)
                  = ANY(i.indkey::int2[])
          ORDER BY ci.relname`,
        [table, column],
      );
      for (const u of uniques) {
        const temp = tempName(u.name);
        const create = u.def
          .replace(/^CREATE UNIQUE INDEX \S+ ON /, `${temp} ON `)
          .replace(/ USING (\w+) \(/, ` USING $1 (${column}, `);
        keys.push({ table, name: u.name, kind: u.constraint ? 'u' : 'i', temp, create, note: u.def });
      }
      const foreign = await rows<{
        conname: string;
        def: string;
        target: string;
        fcolumns: string[];
        columns: string[];
      }>(
        q,
        `SELECT c.conname, pg_get_constraintdef(c.oid) AS def, c.confrelid::regclass::text AS target,
                ${CONSTRAINT_COLUMNS} AS columns,
                array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o)
                  JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS fcolumns
           FROM pg_constraint c WHERE c.conrelid = $1::regclass AND c.contype = 'f' ORDER BY c.conname`,
        [table],
      );
      for (const f of foreign) {
        const targetColumn = DISTRIBUTED[f.target];
        if (!targetColumn || f.columns.includes(column)) continue;
        const definition = f.def
          .replace(/^FOREIGN KEY \(/, `FOREIGN KEY (${column}, `)
          .replace(/ REFERENCES (\w+)\(/, ` REFERENCES $1(${targetColumn}, `);
        fks.push({ table, name: f.conname, definition, note: f.def });
      }
    }

    for (const name of LOOKUPS) {
      const [u] = keys.filter((k) => k.name === name);
      if (!u?.note) continue;
      const lookup = `${name.slice(0, 56)}_lookup`;
      await q.query(u.note.replace(/^CREATE UNIQUE INDEX \S+ ON /, `CREATE INDEX${how} IF NOT EXISTS ${lookup} ON `));
    }
    await swapKeys(q, how, keys, fks);
  }

  /**
   * Restores the previous keys (from the comments `up` left) and drops the added columns. Fails when
   * the data no longer fits a previous key (e.g. two platforms now share a value that was unique).
   * In a transaction (TypeORM's default for a revert) the plain, blocking forms are used.
   */
  async down(q: QueryRunner): Promise<void> {
    const how = q.isTransactionActive ? '' : ' CONCURRENTLY';
    await dropLeftovers(q, how);
    const keys: KeySwap[] = [];
    const fks: FkSwap[] = [];
    const marked = await rows<{ table: string; name: string; contype: string; note: string }>(
      q,
      `SELECT c.conrelid::regclass::text AS table, c.conname AS name, c.contype::text, d.description AS note
         FROM pg_constraint c JOIN pg_description d ON d.objoid = c.oid AND d.classoid = 'pg_constraint'::regclass
        WHERE c.connamespace = current_schema()::regnamespace AND d.description LIKE $1
       UNION ALL
       SELECT i.indrelid::regclass::text, ci.relname, 'i', d.description
         FROM pg_index i JOIN pg_class ci ON ci.oid = i.indexrelid
         JOIN pg_description d ON d.objoid = i.indexrelid AND d.classoid = 'pg_class'::regclass
        WHERE ci.relnamespace = current_schema()::regnamespace AND d.description LIKE $1
        ORDER BY 1, 2`,
      [`${MARK}%`],
    );
    for (const m of marked) {
      const before = m.note.slice(MARK.length);
      const temp = tempName(m.name);
      if (m.contype === 'f') fks.push({ table: m.table, name: m.name, definition: before, note: null });
      else if (m.contype === 'p') {
        const columns = /^PRIMARY KEY \((.*)\)$/.exec(before)![1];
        keys.push({
          table: m.table,
          name: m.name,
          kind: 'p',
          temp,
          create: `${temp} ON ${m.table} (${columns})`,
          note: null,
        });
      } else {
        const create = before.replace(/^CREATE UNIQUE INDEX \S+ ON /, `${temp} ON `);
        keys.push({ table: m.table, name: m.name, kind: m.contype === 'u' ? 'u' : 'i', temp, create, note: null });
      }
    }
    await swapKeys(q, how, keys, fks);
    for (const name of LOOKUPS) await q.query(`DROP INDEX${how} IF EXISTS ${name.slice(0, 56)}_lookup`);
    for (const table of Object.keys(GAINS)) await q.query(`ALTER TABLE ${table} DROP COLUMN IF EXISTS platform_id`);
  }
}

/**
 * Cleans up after a broken run: drops temporary indexes (and lookup indexes a crashed build left
 * invalid) and the not-null checks, and validates a foreign key swapped but not yet validated.
 */
async function dropLeftovers(q: QueryRunner, how: string): Promise<void> {
  const checks = await rows<{ table: string; name: string }>(
    q,
    `SELECT conrelid::regclass::text AS table, conname AS name FROM pg_constraint
      WHERE connamespace = current_schema()::regnamespace AND contype = 'c' AND conname LIKE '%\\_platform\\_id\\_not\\_null'
      ORDER BY 1, 2`,
  );
  for (const c of checks) await q.query(`ALTER TABLE ${c.table} DROP CONSTRAINT ${c.name}`);
  const indexes = await rows<{ name: string }>(
    q,
    `SELECT c.relname AS name FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
      WHERE c.relnamespace = current_schema()::regnamespace
        AND (c.relname LIKE '%\\_rekey' OR (c.relname LIKE '%\\_lookup' AND NOT i.indisvalid)) ORDER BY 1`,
  );
  for (const i of indexes) await q.query(`DROP INDEX${how} IF EXISTS ${i.name}`);
  const unvalidated = await rows<{ table: string; name: string }>(
    q,
    `SELECT conrelid::regclass::text AS table, conname AS name FROM pg_constraint
      WHERE connamespace = current_schema()::regnamespace AND contype = 'f' AND NOT convalidated ORDER BY 1, 2`,
  );
  for (const f of unvalidated) await q.query(`ALTER TABLE ${f.table} VALIDATE CONSTRAINT ${f.name}`);
}

/** Adds platform_id to a table, fills it from the parent in batches, and makes it NOT NULL. */
async function gainColumn(q: QueryRunner, table: string, gain: (typeof GAINS)[string]): Promise<void> {
  await q.query(`ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS platform_id uuid`);
  const [{ filled }] = await rows<{ filled: boolean }>(
    q,
    `SELECT attnotnull AS filled FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'platform_id'`,
    [table],
  );
  if (filled) return;
  await backfill(q, table, gain);
  const check = `${table}_platform_id_not_null`;
  await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${check} CHECK (platform_id IS NOT NULL) NOT VALID`);
  await backfill(q, table, gain); // rows written meanwhile without it (a replica still on the old code)
  await q.query(`ALTER TABLE ${table} VALIDATE CONSTRAINT ${check}`);
  await q.query(`ALTER TABLE ${table} ALTER COLUMN platform_id SET NOT NULL`);
  await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${check}`);
}

/** Fills platform_id where NULL, BATCH rows (in key order) per statement; deletes orphans when so told. */
async function backfill(q: QueryRunner, table: string, gain: (typeof GAINS)[string]): Promise<void> {
  const key = gain.key.join(', ');
  const params = gain.key.map((_, i) => `$${i + 1}`).join(', ');
  let after: unknown[] | null = null;
  for (;;) {
    const range: string = after ? `AND (${key}) > (${params})` : '';
    const batch: Array<Record<string, unknown>> = await rows(
      q,
      `WITH batch AS (
         SELECT ${key} FROM ${table} WHERE platform_id IS NULL ${range} ORDER BY ${key} LIMIT ${BATCH}
       ), filled AS (
         UPDATE ${table} r SET platform_id = ${gain.platform}
           FROM batch WHERE ${gain.key.map((k) => `r.${k} = batch.${k}`).join(' AND ')} AND r.platform_id IS NULL
       )
       SELECT ${key} FROM batch ORDER BY ${gain.key.map((k) => `${k} DESC`).join(', ')} LIMIT 1`,
      after ?? [],
    );
    if (batch.length === 0) break;
    after = gain.key.map((k) => batch[0][k]);
  }
  if (gain.orphans === 'delete') await q.query(`DELETE FROM ${table} WHERE platform_id IS NULL`);
}

/**
 * Builds every new unique index (concurrently when allowed), swaps the foreign keys (the old one
 * dropped and the new one added NOT VALID under its name in one statement, then validated), then
 * attaches the new indexes in place of the old keys.
 */
async function swapKeys(q: QueryRunner, how: string, keys: KeySwap[], fks: FkSwap[]): Promise<void> {
  for (const k of keys) await q.query(`CREATE UNIQUE INDEX${how} ${k.create}`);
  for (const f of fks) {
    await q.query(
      `ALTER TABLE ${f.table} DROP CONSTRAINT ${f.name}, ADD CONSTRAINT ${f.name} ${f.definition} NOT VALID`,
    );
    if (f.note) await q.query(`COMMENT ON CONSTRAINT ${f.name} ON ${f.table} IS ${literal(MARK + f.note)}`);
    await q.query(`ALTER TABLE ${f.table} VALIDATE CONSTRAINT ${f.name}`);
  }
  for (const k of keys) {
    if (k.kind === 'i') {
      await q.query(`DROP INDEX${how} ${k.name}`);
      await q.query(`ALTER INDEX ${k.temp} RENAME TO ${k.name}`);
      if (k.note) await q.query(`COMMENT ON INDEX ${k.name} IS ${literal(MARK + k.note)}`);
      continue;
    }
    const type = k.kind === 'p' ? 'PRIMARY KEY' : 'UNIQUE';
    await q.query(
      `ALTER TABLE ${k.table} DROP CONSTRAINT ${k.name}, ADD CONSTRAINT ${k.name} ${type} USING INDEX ${k.temp}`,
    );
    if (k.note) await q.query(`COMMENT ON CONSTRAINT ${k.name} ON ${k.table} IS ${literal(MARK + k.note)}`);
  }
}
