import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fingerprintSync, loadModule, parseSync } from 'libpg-query';

/**
 * Citus' rules for a statement that one shard can run alone (docs/scale-out.md), checked on the
 * real PostgreSQL parser's tree (libpg-query). A statement breaks them when it
 * - touches a distributed table without pinning `platform_id` to one value (`= $n`, `= 'literal'`,
 *   directly or through equalities with another pinned column): `unpinned`;
 * - joins two distributed tables other than on `platform_id`: `join-not-on-platform`;
 * - locks rows (`FOR UPDATE`, `FOR SHARE`, `SKIP LOCKED`) on an unpinned distributed table:
 *   `lock-across-shards`;
 * - inserts into a distributed table without `platform_id`, or names an `ON CONFLICT` target
 *   without it: `insert-without-platform`, `conflict-target-without-platform`;
 * - reads a distributed table in a recursive CTE: `recursive-cte`.
 * A statement that must span platforms says so in its text, `/* cross-shard: <name> *\/`, and the
 * map (src/database/distribution.json) lists `<name>` with the Citus feature it relies on; such a
 * statement may read across shards, never lock across them.
 */

export type Rule =
  | 'unpinned'
  | 'join-not-on-platform'
  | 'lock-across-shards'
  | 'insert-without-platform'
  | 'conflict-target-without-platform'
  | 'recursive-cte'
  | 'unknown-cross-shard-tag';

export interface Finding {
  rule: Rule;
  /** The table (as named in the statement) the finding is about. */
  table?: string;
  detail: string;
}

export interface DistributionMap {
  distributionColumn: string;
  /** `column`: a table distributed by another column than `distributionColumn` (co-located by value). */
  tables: Record<string, { kind: 'distributed' | 'reference' | 'local'; reason: string; column?: string }>;
  crossShard: Record<string, { feature: string; reason: string }>;
}

export const MAP_FILE = fileURLToPath(new URL('../../src/database/distribution.json', import.meta.url));

export function readDistributionMap(): DistributionMap {
  return JSON.parse(readFileSync(MAP_FILE, 'utf8')) as DistributionMap;
}

let loaded: Promise<void> | null = null;
/** The parser is WebAssembly: load it once before the first `analyze`. */
export function loadParser(): Promise<void> {
  loaded ??= loadModule();
  return loaded;
}

export function fingerprint(sql: string): string {
  return fingerprintSync(sql);
}

const TAG = /\/\*\s*cross-shard:\s*([\w.-]+)\s*\*\//;

/** The cross-shard tag a statement carries, if any. */
export function crossShardTag(sql: string): string | null {
  return TAG.exec(sql)?.[1] ?? null;
}

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** The one key of a wrapped node (`{SelectStmt: {...}}`) and its body. */
function unwrap(n: unknown): [string, Node] | null {
  if (!isObj(n)) return null;
  const keys = Object.keys(n);
  if (keys.length !== 1) return null;
  const body = n[keys[0]];
  return isObj(body) ? [keys[0], body] : null;
}
/** The items of `x IN (...)`: a `List` node (or a bare array in older trees). */
const inList = (n: unknown): unknown[] => {
  const u = unwrap(n);
  return u && u[0] === 'List' ? list(u[1].items) : list(n);
};
const sval = (n: unknown): string | null => {
  const u = unwrap(n);
  return u && u[0] === 'String' ? (u[1].sval as string) : null;
};

/** A table occurrence in the statement. */
interface Rel {
  name: string;
  alias: string;
  distributed: boolean;
  /** Its distribution column. */
  column: string;
  level: Level;
  /** Term id of its distribution column. */
  term: string;
}

interface Level {
  parent: Level | null;
  rels: Rel[];
  /** CTE names visible here (not tables). */
  ctes: Set<string>;
}

/** Union-find over terms: `rel#n.platform_id`, `const#n`. */
class Classes {
  private parent = new Map<string, string>();
  find(x: string): string {
    let p = this.parent.get(x) ?? x;
    if (p !== x) {
      p = this.find(p);
      this.parent.set(x, p);
    }
    return p;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
}

class Analysis {
  readonly findings: Finding[] = [];
  private readonly classes = new Classes();
  private readonly constants = new Set<string>();
  private readonly rels: Rel[] = [];
  private readonly joins: Array<[Rel, Rel]> = [];
  private readonly locked: Rel[] = [];
  private counter = 0;

  constructor(private readonly map: DistributionMap) {}

  private kind(name: string): 'distributed' | 'reference' | 'local' | null {
    return this.map.tables[name]?.kind ?? null;
  }

  private newConst(): string {
    const id = `const#${++this.counter}`;
    this.constants.add(id);
    return id;
  }

  run(stmt: unknown): void {
    this.statement(stmt, null, new Set());
    const pinned = (r: Rel) => {
      const root = this.classes.find(r.term);
      for (const c of this.constants) if (this.classes.find(c) === root) return true;
      return false;
    };
    for (const r of this.rels)
      if (r.distributed && !pinned(r))
        this.findings.push({
          rule: 'unpinned',
          table: r.name,
          detail: `${r.name} without platform_id pinned to one value`,
        });
    for (const [a, b] of this.joins) {
      const same = this.classes.find(a.term) === this.classes.find(b.term);
      if (!same && !(pinned(a) && pinned(b)))
        this.findings.push({
          rule: 'join-not-on-platform',
          table: `${a.name}+${b.name}`,
          detail: `${a.name} and ${b.name} joined other than on platform_id`,
        });
    }
    for (const r of this.locked)
      if (!pinned(r))
        this.findings.push({
          rule: 'lock-across-shards',
          table: r.name,
          detail: `rows of ${r.name} locked across shards`,
        });
  }

  /** Any statement node (wrapped). */
  private statement(n: unknown, parent: Level | null, ctes: Set<string>): void {
    const u = unwrap(n);
    if (!u) return;
    const [type, body] = u;
    switch (type) {
      case 'SelectStmt':
        return this.select(body, parent, ctes);
      case 'InsertStmt':
        return this.insert(body, parent, ctes);
      case 'UpdateStmt':
        return this.update(body, parent, ctes);
      case 'DeleteStmt':
        return this.delete(body, parent, ctes);
      default:
        return; // utility statements (transactions, SET, LISTEN, DDL) touch no rows
    }
  }

  /** A WITH clause: each CTE's query is a statement of its own; its name is visible after it. */
  private withClause(w: unknown, parent: Level | null, ctes: Set<string>): Set<string> {
    const wc = unwrap(w) ?? (isObj(w) ? ['WithClause', w] : null);
    if (!wc) return ctes;
    const body = wc[1];
    const visible = new Set(ctes);
    const recursive = body.recursive === true;
    for (const c of list(body.ctes)) {
      const cte = unwrap(c)?.[1];
      if (!cte) continue;
      visible.add(cte.ctename as string);
      const before = this.rels.length;
      this.statement(cte.ctequery, parent, recursive ? visible : new Set(visible));
      if (recursive)
        for (const r of this.rels.slice(before))
          if (r.distributed)
            this.findings.push({
              rule: 'recursive-cte',
              table: r.name,
              detail: `${r.name} read in a recursive CTE`,
            });
    }
    return visible;
  }

  private level(parent: Level | null, ctes: Set<string>): Level {
    return { parent, rels: [], ctes };
  }

  private addRel(level: Level, rangeVar: Node): Rel | null {
    const name = rangeVar.relname as string;
    if (rangeVar.schemaname && rangeVar.schemaname !== 'public') return null;
    if (level.ctes.has(name)) return null;
    const kind = this.kind(name);
    const alias = (isObj(rangeVar.alias) ? (rangeVar.alias.aliasname as string) : undefined) ?? name;
    const rel: Rel = {
      name,
      alias,
      distributed: kind === 'distributed',
      column: this.map.tables[name]?.column ?? this.map.distributionColumn,
      level,
      term: `rel#${++this.counter}.platform_id`,
    };
    level.rels.push(rel);
    this.rels.push(rel);
    return rel;
  }

  /** FROM items: tables, joins (their ON equalities), subqueries. */
  private fromItem(n: unknown, level: Level): void {
    const u = unwrap(n);
    if (!u) return;
    const [type, body] = u;
    if (type === 'RangeVar') this.addRel(level, body);
    else if (type === 'JoinExpr') {
      this.fromItem(body.larg, level);
      this.fromItem(body.rarg, level);
      if (body.quals) this.conjuncts(body.quals, level);
      for (const name of list(body.usingClause).map(sval))
        if (name === this.map.distributionColumn) this.usingPlatform(level);
    } else if (type === 'RangeSubselect') this.statement(body.subquery, level, level.ctes);
    else this.expressions(body, level); // functions in FROM: their arguments may hold subqueries
  }

  /** `JOIN ... USING (platform_id)`: every distributed table of the level shares one value. */
  private usingPlatform(level: Level): void {
    const d = level.rels.filter((r) => r.distributed);
    for (let i = 1; i < d.length; i++) this.classes.union(d[0].term, d[i].term);
  }

  /** Distributed tables of one level joined with each other must meet on platform_id. */
  private pairJoins(level: Level): void {
    const d = level.rels.filter((r) => r.distributed);
    for (let i = 1; i < d.length; i++) this.joins.push([d[0], d[i]]);
  }

  private select(s: Node, parent: Level | null, ctes: Set<string>): void {
    const visible = s.withClause ? this.withClause(s.withClause, parent, ctes) : ctes;
    if (s.op && s.op !== 'SETOP_NONE') {
      this.statement({ SelectStmt: s.larg }, parent, visible);
      this.statement({ SelectStmt: s.rarg }, parent, visible);
      return;
    }
    const level = this.level(parent, visible);
    for (const f of list(s.fromClause)) this.fromItem(f, level);
    if (s.whereClause) this.conjuncts(s.whereClause, level);
    this.pairJoins(level);
    for (const key of ['targetList', 'whereClause', 'havingClause', 'groupClause', 'sortClause', 'valuesLists'])
      this.expressions(s[key], level);
    if (list(s.lockingClause).length) this.locked.push(...level.rels.filter((r) => r.distributed));
  }

  private insert(s: Node, parent: Level | null, ctes: Set<string>): void {
    const visible = s.withClause ? this.withClause(s.withClause, parent, ctes) : ctes;
    const level = this.level(parent, visible);
    const target = this.addRel(level, s.relation as Node);
    if (target?.distributed) {
      const column = target.column;
      const cols = list(s.cols).map((c) => unwrap(c)?.[1]?.name as string);
      if (cols.length && !cols.includes(column))
        this.findings.push({
          rule: 'insert-without-platform',
          table: target.name,
          detail: `INSERT INTO ${target.name} without ${column}`,
        });
      this.classes.union(target.term, this.newConst()); // the row's own value pins it (found above if missing)
      const conflict = isObj(s.onConflictClause) ? s.onConflictClause : null;
      const infer = conflict && isObj(conflict.infer) ? conflict.infer : null;
      if (infer && list(infer.indexElems).length) {
        const names = list(infer.indexElems).map((e) => unwrap(e)?.[1]?.name as string);
        if (!names.includes(column))
          this.findings.push({
            rule: 'conflict-target-without-platform',
            table: target.name,
            detail: `ON CONFLICT (${names.join(', ')}) on ${target.name}`,
          });
      }
      if (conflict) {
        this.expressions(conflict.targetList, level);
        this.expressions(conflict.whereClause, level);
      }
    }
    if (s.selectStmt) this.statement(s.selectStmt, parent, visible);
    this.expressions(s.returningList, level);
  }

  private update(s: Node, parent: Level | null, ctes: Set<string>): void {
    const visible = s.withClause ? this.withClause(s.withClause, parent, ctes) : ctes;
    const level = this.level(parent, visible);
    this.addRel(level, s.relation as Node);
    for (const f of list(s.fromClause)) this.fromItem(f, level);
    if (s.whereClause) this.conjuncts(s.whereClause, level);
    this.pairJoins(level);
    for (const key of ['targetList', 'whereClause', 'returningList']) this.expressions(s[key], level);
  }

  private delete(s: Node, parent: Level | null, ctes: Set<string>): void {
    const visible = s.withClause ? this.withClause(s.withClause, parent, ctes) : ctes;
    const level = this.level(parent, visible);
    this.addRel(level, s.relation as Node);
    for (const f of list(s.usingClause)) this.fromItem(f, level);
    if (s.whereClause) this.conjuncts(s.whereClause, level);
    this.pairJoins(level);
    for (const key of ['whereClause', 'returningList']) this.expressions(s[key], level);
  }

  /** Subqueries inside expressions (EXISTS, IN, scalar): levels nested in `level`. */
  private expressions(n: unknown, level: Level): void {
    if (Array.isArray(n)) {
      for (const x of n) this.expressions(x, level);
      return;
    }
    if (!isObj(n)) return;
    const u = unwrap(n);
    if (u && u[0] === 'SubLink') {
      this.expressions(u[1].testexpr, level);
      this.statement(u[1].subselect, level, level.ctes);
      return;
    }
    if (u && ['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt'].includes(u[0])) {
      this.statement(n, level, level.ctes);
      return;
    }
    for (const v of Object.values(n)) this.expressions(v, level);
  }

  /** The top-level AND terms of a qual: equalities link terms. */
  private conjuncts(n: unknown, level: Level): void {
    const u = unwrap(n);
    if (!u) return;
    const [type, body] = u;
    if (type === 'BoolExpr' && body.boolop === 'AND_EXPR') {
      for (const a of list(body.args)) this.conjuncts(a, level);
      return;
    }
    if (type !== 'A_Expr') return;
    const op = list(body.name).map(sval).join('.');
    if (body.kind === 'AEXPR_OP' && op === '=') {
      const l = this.term(body.lexpr, level);
      const r = this.term(body.rexpr, level);
      if (l && r) this.classes.union(l, r);
    } else if (body.kind === 'AEXPR_IN' && op === '=' && inList(body.rexpr).length === 1) {
      const l = this.term(body.lexpr, level);
      const r = this.term(inList(body.rexpr)[0], level);
      if (l && r) this.classes.union(l, r);
    }
  }

  /** A term of an equality: a distribution column, a parameter or a constant; null otherwise. */
  private term(n: unknown, level: Level): string | null {
    const u = unwrap(n);
    if (!u) return null;
    const [type, body] = u;
    if (type === 'TypeCast') return this.term(body.arg, level);
    if (type === 'ParamRef' || type === 'A_Const') return this.newConst();
    if (type !== 'ColumnRef') return null;
    const fields = list(body.fields).map(sval);
    const column = fields[fields.length - 1];
    const qualifier = fields.length >= 2 ? fields[fields.length - 2] : null;
    for (let l: Level | null = level; l; l = l.parent) {
      const named = l.rels.filter((r) => (qualifier ? r.alias === qualifier : r.distributed));
      if (qualifier && named.length) {
        // The qualified table's own distribution column, or nothing of interest.
        return named[0].column === column ? named[0].term : null;
      }
      const candidates = named.filter((r) => r.column === column);
      if (candidates.length === 0) continue;
      // Unqualified: the level's distributed tables (SQL allows it only when one has the column).
      for (let i = 1; i < candidates.length; i++) this.classes.union(candidates[0].term, candidates[i].term);
      return candidates[0].term;
    }
    return null;
  }
}

export interface Analyzed {
  findings: Finding[];
  tag: string | null;
}

/** The findings for one statement's text (empty when one shard can run it, or when it is tagged). */
export function analyze(sql: string, map: DistributionMap): Analyzed {
  let tree: { stmts?: Array<{ stmt: unknown }> };
  try {
    tree = parseSync(sql) as typeof tree;
  } catch {
    return { findings: [], tag: null }; // not ours to judge (PostgreSQL answers the syntax error)
  }
  const tag = crossShardTag(sql);
  const findings: Finding[] = [];
  for (const { stmt } of tree.stmts ?? []) {
    const a = new Analysis(map);
    a.run(stmt);
    findings.push(...a.findings);
  }
  if (tag === null) return { findings, tag };
  if (!map.crossShard[tag])
    return {
      findings: [{ rule: 'unknown-cross-shard-tag', detail: `cross-shard: ${tag} is not in the map's crossShard` }],
      tag,
    };
  // A listed cross-shard statement may read (and write) across shards; it may never lock across them.
  return { findings: findings.filter((f) => f.rule === 'lock-across-shards'), tag };
}
