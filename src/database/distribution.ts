import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The distribution map (`distribution.json` beside this file; `npm run build` copies it to
 * `dist/src/database/`): how every table is placed on a Citus cluster. docs/scale-out.md explains it.
 */
export const DISTRIBUTION_MAP_FILE = fileURLToPath(new URL('./distribution.json', import.meta.url));

export type TableKind = 'distributed' | 'reference' | 'local';

export interface DistributionMap {
  distributionColumn: string;
  tables: Record<string, { kind: TableKind; reason: string }>;
  /** The statements allowed to span shards (tagged `/* cross-shard: <name> *\/`), each with the Citus feature it relies on. */
  crossShard: Record<string, { feature: string; reason: string }>;
}

const KINDS: readonly TableKind[] = ['distributed', 'reference', 'local'];
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** Reads and checks the map: every table a plain identifier with a known kind and a reason. */
export function loadDistributionMap(file: string = DISTRIBUTION_MAP_FILE): DistributionMap {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<DistributionMap>;
  const problems: string[] = [];
  if (typeof raw.distributionColumn !== 'string' || !IDENTIFIER.test(raw.distributionColumn)) {
    problems.push('distributionColumn must be a column name');
  }
  if (!raw.tables || typeof raw.tables !== 'object') problems.push('tables is missing');
  for (const [table, entry] of Object.entries(raw.tables ?? {})) {
    if (!IDENTIFIER.test(table)) problems.push(`${table}: not a plain table name`);
    if (!KINDS.includes(entry?.kind)) problems.push(`${table}: kind must be one of ${KINDS.join(', ')}`);
    if (typeof entry?.reason !== 'string' || !entry.reason.trim()) problems.push(`${table}: no reason`);
  }
  for (const [name, entry] of Object.entries(raw.crossShard ?? {})) {
    if (typeof entry?.feature !== 'string' || typeof entry?.reason !== 'string') {
      problems.push(`crossShard ${name}: needs a feature and a reason`);
    }
  }
  if (problems.length) throw new Error(`${file}: ${problems.join('; ')}`);
  return { distributionColumn: raw.distributionColumn!, tables: raw.tables!, crossShard: raw.crossShard ?? {} };
}

/** A foreign key, as the distribution order needs it: the referencing table and the referenced one. */
export interface ForeignKey {
  child: string;
  parent: string;
}

/** What the database's catalog says: its tables (current schema) and their foreign keys. */
export interface Catalog {
  tables: string[];
  foreignKeys: ForeignKey[];
}

/** A pg client, or anything that runs SQL the same way. */
export interface Queryable {
  query(sql: string): Promise<{ rows: unknown[] }>;
}

/** Reads the tables and foreign keys of the current schema (PostgreSQL and PGlite alike). */
export async function readCatalog(client: Queryable): Promise<Catalog> {
  const tables = await client.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     ORDER BY c.relname`,
  );
  const keys = await client.query(
    `SELECT DISTINCT child.relname AS child, parent.relname AS parent
     FROM pg_constraint k
     JOIN pg_class child ON child.oid = k.conrelid
     JOIN pg_class parent ON parent.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = child.relnamespace
     WHERE k.contype = 'f' AND n.nspname = current_schema()
     ORDER BY 1, 2`,
  );
  return {
    tables: (tables.rows as Array<{ name: string }>).map((r) => r.name),
    foreignKeys: keys.rows as ForeignKey[],
  };
}

export interface DistributionScript {
  /** Every statement, in the order to run them. */
  statements: string[];
  /** The tables of each kind, in the order the script places them. */
  order: Record<TableKind, string[]>;
  /** The distributed table the others are co-located with (the first one distributed). */
  anchor: string | null;
  /** Where the order came from: the database's foreign keys, or the map alone (no catalog). */
  orderedBy: 'catalog' | 'map';
  /** What the catalog and the map disagree on (tables missing on either side, keys Citus refuses, cycles). */
  warnings: string[];
}

/**
 * Orders `tables` so each comes after the tables it references (among `tables`; self-references
 * ignored), keeping the map's order where foreign keys leave a choice. A cycle is broken at the
 * first of its tables in map order, with a warning.
 */
function dependencyOrder(tables: string[], keys: ForeignKey[], warnings: string[]): string[] {
  const inSet = new Set(tables);
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of keys) {
    if (child !== parent && inSet.has(child) && inSet.has(parent)) parents.get(child)!.add(parent);
  }
  const placed = new Set<string>();
  const order: string[] = [];
  while (order.length < tables.length) {
    const left = tables.filter((t) => !placed.has(t));
    let next = left.find((t) => [...parents.get(t)!].every((p) => placed.has(p)));
    if (next === undefined) {
      next = left[0];
      const waiting = [...parents.get(next)!].filter((p) => !placed.has(p));
      warnings.push(`foreign key cycle: ${next} placed before ${waiting.join(', ')}, which it references`);
    }
    placed.add(next);
    order.push(next);
  }
  return order;
}

const literal = (name: string) => `'${name}'`;

/**
 * The Citus distribution script for `map`: the extension, the reference tables, the distributed
 * tables (all co-located with the first), then the local tables added to Citus' metadata; each
 * kind in foreign-key order when the catalog is given (a table after the tables it references).
 */
export function distributionScript(map: DistributionMap, catalog?: Catalog): DistributionScript {
  const warnings: string[] = [];
  const names = Object.keys(map.tables);
  const ofKind = (kind: TableKind) => names.filter((t) => map.tables[t].kind === kind);
  const keys = catalog?.foreignKeys ?? [];
  if (catalog) {
    const known = new Set(catalog.tables);
    const missing = names.filter((t) => !known.has(t));
    const unmapped = catalog.tables.filter((t) => !(t in map.tables));
    if (missing.length) warnings.push(`in the map, not in the database (not migrated?): ${missing.join(', ')}`);
    if (unmapped.length) warnings.push(`in the database, not in the map: ${unmapped.join(', ')}`);
    for (const { child, parent } of keys) {
      const [from, to] = [map.tables[child]?.kind, map.tables[parent]?.kind];
      const refused =
        (from === 'reference' && to !== 'reference' && to !== undefined) || (from === 'distributed' && to === 'local');
      if (refused) warnings.push(`${child} (${from}) has a foreign key to ${parent} (${to}), which Citus refuses`);
    }
  }
  const order: Record<TableKind, string[]> = {
    reference: dependencyOrder(ofKind('reference'), keys, warnings),
    distributed: dependencyOrder(ofKind('distributed'), keys, warnings),
    local: dependencyOrder(ofKind('local'), keys, warnings),
  };
  const anchor = order.distributed[0] ?? null;
  const column = literal(map.distributionColumn);
  const statements = [
    'CREATE EXTENSION IF NOT EXISTS citus;',
    ...order.reference.map((t) => `SELECT create_reference_table(${literal(t)});`),
    ...order.distributed.map(
      (t) =>
        `SELECT create_distributed_table(${literal(t)}, ${column}, colocate_with => ${t === anchor ? "'none'" : literal(anchor)});`,
    ),
    ...order.local.map((t) => `SELECT citus_add_local_table_to_metadata(${literal(t)});`),
  ];
  return { statements, order, anchor, orderedBy: catalog ? 'catalog' : 'map', warnings };
}

/** The script as text for psql: the statements, with comments naming each part and the cross-shard list. */
export function formatScript(map: DistributionMap, script: DistributionScript): string {
  const [extension, ...rest] = script.statements;
  const counts = { reference: script.order.reference.length, distributed: script.order.distributed.length };
  const lines = [
    '-- Citus distribution script, generated from src/database/distribution.json (npm run cli -- distribution).',
    script.orderedBy === 'catalog'
      ? "-- Order: each table after the tables it references (the database's foreign keys)."
      : "-- Order: the map's (no database catalog was read; run it against the migrated database for foreign-key order).",
    '-- Run on the coordinator after `npm run migrate`; create_distributed_table copies existing rows to the shards.',
    extension,
    `-- Reference tables (${counts.reference}): a copy on every node.`,
    ...rest.slice(0, counts.reference),
    `-- Distributed tables (${counts.distributed}) by ${map.distributionColumn}, co-located with ${script.anchor ?? '(none)'}.`,
    ...rest.slice(counts.reference, counts.reference + counts.distributed),
    `-- Local tables (${script.order.local.length}): stay on the coordinator.`,
    ...rest.slice(counts.reference + counts.distributed),
  ];
  const crossShard = Object.entries(map.crossShard);
  if (crossShard.length) {
    lines.push("-- Statements allowed to span shards (the map's crossShard):");
    for (const [name, { feature, reason }] of crossShard) lines.push(`--   ${name}: ${feature}; ${reason}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The table a statement of the script distributes (for skipping tables Citus already knows). */
export function tableOf(statement: string): string | null {
  return /^SELECT \w+\('([a-z0-9_]+)'/.exec(statement)?.[1] ?? null;
}

/** A statement of the script failed: which one, and PostgreSQL's message. */
export class DistributionStepError extends Error {
  constructor(
    readonly index: number,
    readonly total: number,
    readonly statement: string,
    cause: unknown,
  ) {
    super(
      `statement ${index + 1} of ${total} failed: ${statement}\n  ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
  }
}

/** Whether the server can load Citus (the extension is installed, if not yet created). */
export async function citusAvailable(client: Queryable): Promise<boolean> {
  const { rows } = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'citus'`);
  return rows.length > 0;
}

/**
 * Runs the script one statement at a time (create_distributed_table copies a table's rows, so
 * each commits on its own), skipping tables Citus' metadata already has (a re-run after a
 * failure resumes). Stops at the first error (DistributionStepError); `onStep` hears each statement.
 */
export async function applyDistribution(
  client: Queryable,
  statements: string[],
  onStep: (statement: string, outcome: 'applied' | 'skipped') => void = () => undefined,
): Promise<{ applied: string[]; skipped: string[] }> {
  const applied: string[] = [];
  const skipped: string[] = [];
  let known: Set<string> | null = null;
  for (const [index, statement] of statements.entries()) {
    const table = tableOf(statement);
    if (table) {
      if (!known) {
        const { rows } = await client.query(
          `SELECT c.relname AS name FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid`,
        );
        known = new Set((rows as Array<{ name: string }>).map((r) => r.name));
      }
      if (known.has(table)) {
        skipped.push(table);
        onStep(statement, 'skipped');
        continue;
      }
    }
    try {
      await client.query(statement);
    } catch (error) {
      throw new DistributionStepError(index, statements.length, statement, error);
    }
    applied.push(statement);
    onStep(statement, 'applied');
  }
  return { applied, skipped };
}
