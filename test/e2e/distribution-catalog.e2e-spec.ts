import pg from 'pg';
import { readFileSync } from 'node:fs';

/**
 * The migrated schema against the distribution map (src/database/distribution.json, issue #49):
 * every table is in the map and every map table exists; a distributed table has its distribution
 * column (platform_id, or the table's `column`) NOT NULL and in its primary key, in every unique
 * constraint and unique index, and in every foreign key to another distributed table (paired with
 * that table's column), which is what Citus requires of a distributed table's keys; a distributed
 * table refers only to distributed and reference tables; reference and local tables never refer to
 * distributed ones. Runs on the run's migrated database (either engine), reading the catalog only.
 */
interface TableEntry {
  kind: 'distributed' | 'reference' | 'local';
  reason: string;
  column?: string;
  keys?: string;
}
const MAP = JSON.parse(readFileSync(new URL('../../src/database/distribution.json', import.meta.url), 'utf8')) as {
  distributionColumn: string;
  tables: Record<string, TableEntry>;
};
const column = (table: string) => MAP.tables[table].column ?? MAP.distributionColumn;
const kind = (table: string) => MAP.tables[table]?.kind;

let client: pg.Client;
beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
});
afterAll(() => client.end());

const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> =>
  (await client.query(sql, params)).rows as T[];

/** The tables of the app's schema (not views). */
const tables = () =>
  query<{ name: string }>(
    `SELECT relname AS name FROM pg_class WHERE relnamespace = current_schema()::regnamespace
        AND relkind IN ('r', 'p') AND NOT relispartition ORDER BY 1`,
  ).then((rows) => rows.map((r) => r.name));

/** Every unique index (primary keys and unique constraints included) with its key column names. */
const uniqueIndexes = () =>
  query<{ table: string; name: string; primary: boolean; columns: Array<string | null> }>(
    `SELECT i.indrelid::regclass::text AS table, c.relname AS name, i.indisprimary AS primary,
            array(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o)
                    LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n
                   WHERE k.o <= i.indnkeyatts ORDER BY k.o) AS columns
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND i.indisunique ORDER BY 1, 2`,
  );

/** Every foreign key with its column pairs. */
const foreignKeys = () =>
  query<{ table: string; name: string; target: string; columns: string[]; targetColumns: string[] }>(
    `SELECT c.conrelid::regclass::text AS table, c.conname AS name, c.confrelid::regclass::text AS target,
            array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(n, o)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.o) AS columns,
            array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(n, o)
                    JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.o) AS "targetColumns"
       FROM pg_constraint c WHERE c.connamespace = current_schema()::regnamespace AND c.contype = 'f' ORDER BY 1, 2`,
  );

describe('the distribution map and the catalog', () => {
  it('every table is in the map, every map table exists, each with a kind and a reason', async () => {
    const inDatabase = await tables();
    const inMap = Object.keys(MAP.tables).sort();
    expect(inDatabase.filter((t) => !MAP.tables[t])).toEqual([]);
    expect(inMap.filter((t) => !inDatabase.includes(t))).toEqual([]);
    const malformed = inMap.filter(
      (t) => !['distributed', 'reference', 'local'].includes(kind(t)) || !MAP.tables[t].reason?.trim(),
    );
    expect(malformed).toEqual([]);
  });

  it('a distributed table has its distribution column, NOT NULL', async () => {
    const distributed = Object.keys(MAP.tables).filter((t) => kind(t) === 'distributed');
    const rows = await query<{ table: string; column: string; notnull: boolean }>(
      `SELECT c.relname AS table, a.attname AS column, a.attnotnull AS notnull
         FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ANY($1)`,
      [distributed],
    );
    const missing = distributed.filter((t) => !rows.some((r) => r.table === t && r.column === column(t) && r.notnull));
    expect(missing).toEqual([]);
  });

  it("a distributed table's primary key, unique constraints and unique indexes include the distribution column", async () => {
    const distributed = Object.keys(MAP.tables).filter((t) => kind(t) === 'distributed');
    const indexes = await uniqueIndexes();
    const withoutPrimaryKey = distributed.filter((t) => !indexes.some((i) => i.table === t && i.primary));
    expect(withoutPrimaryKey).toEqual([]);
    const lacking = indexes
      .filter((i) => kind(i.table) === 'distributed' && !i.columns.includes(column(i.table)))
      .map((i) => `${i.table}.${i.name} (${i.columns.map((c) => c ?? '<expression>').join(', ')})`);
    expect(lacking).toEqual([]);
  });

  it('foreign keys between distributed tables pair their distribution columns; the rest point at reference tables', async () => {
    const fks = await foreignKeys();
    const problems: string[] = [];
    for (const f of fks) {
      const from = kind(f.table);
      const to = kind(f.target);
      const name = `${f.table}.${f.name} -> ${f.target}`;
      if (from === 'distributed' && to === 'distributed') {
        const i = f.columns.indexOf(column(f.table));
        if (i < 0 || f.targetColumns[i] !== column(f.target))
          problems.push(
            `${name}: (${f.columns.join(', ')}) -> (${f.targetColumns.join(', ')}) lacks the distribution column`,
          );
      } else if (from === 'distributed' && to !== 'reference') {
        problems.push(
          `${name}: a distributed table may refer only to distributed and reference tables (this is ${to})`,
        );
      } else if (from !== 'distributed' && to === 'distributed') {
        problems.push(`${name}: a ${from} table must not refer to a distributed table`);
      }
    }
    expect(problems).toEqual([]);
  });
});
