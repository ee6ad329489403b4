import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';

/**
 * One statement built from CTEs, its parameters numbered as they are added: `p(value)` answers the
 * placeholder. The text depends only on the order of the calls (never on the values), so a path
 * that builds its statement the same way every time sends the same text (it prepares once).
 */
export class Statement {
  readonly parameters: unknown[] = [];
  private readonly ctes: string[] = [];

  /** A parameter's placeholder (`$n`, with `::cast` when given). */
  p(value: unknown, cast?: string): string {
    this.parameters.push(value);
    return cast ? `$${this.parameters.length}::${cast}` : `$${this.parameters.length}`;
  }

  /**
   * `unnest($a::<cast>[], $b::<cast>[], ...)` over `rows`: one array parameter per column, in the
   * order given, each `pick`ed from every row (a bulk INSERT ... SELECT or UPDATE ... FROM).
   */
  unnest<R>(rows: readonly R[], columns: ReadonlyArray<readonly [cast: string, pick: (row: R) => unknown]>): string {
    return `unnest(${columns.map(([cast, pick]) => this.p(rows.map(pick), `${cast}[]`)).join(', ')})`;
  }

  /** Appends the CTE `name AS (body)`. */
  with(name: string, body: string): this {
    this.ctes.push(`${name} AS (${body})`);
    return this;
  }

  /** Appends a CTE already in the form `name AS (...)` (e.g. a rider's or the outbox's). */
  withRaw(cte: string): this {
    this.ctes.push(cte);
    return this;
  }

  get empty(): boolean {
    return this.ctes.length === 0;
  }

  /** The CTE list, comma separated (without WITH). */
  get list(): string {
    return this.ctes.join(',\n  ');
  }

  /** `WITH <ctes> <select>`. */
  text(select: string): string {
    return this.ctes.length ? `WITH ${this.list}\n${select}` : select;
  }
}

/** The entity's persisted columns (cached by TypeORM's metadata). */
function columnsOf(m: EntityManager, entity: EntityTarget<ObjectLiteral>): ColumnMetadata[] {
  return m.connection.getMetadata(entity).columns;
}

/** The table name of an entity. */
export function tableOf(m: EntityManager, entity: EntityTarget<ObjectLiteral>): string {
  return m.connection.getMetadata(entity).tableName;
}

function sqlType(column: ColumnMetadata): string {
  const type = typeof column.type === 'string' ? column.type : 'text';
  const base = type === 'double precision' ? 'float8' : type;
  return column.isArray ? `${base}[]` : base;
}

function persisted(m: EntityManager, column: ColumnMetadata, value: unknown): unknown {
  if (value === undefined) return null;
  const prepared = m.connection.driver.preparePersistentValue(value, column) as unknown;
  if ((column.type === 'jsonb' || column.type === 'json') && prepared !== null && typeof prepared !== 'string')
    return JSON.stringify(prepared);
  return prepared;
}

/**
 * `INSERT INTO <table> (<every column>) VALUES (...)` for one entity row, its values as parameters
 * of `s` (all columns, nulls included; a member left undefined is the column's DEFAULT).
 */
export function insertSql<T extends ObjectLiteral>(
  m: EntityManager,
  s: Statement,
  entity: EntityTarget<T>,
  row: T,
): string {
  const columns = columnsOf(m, entity);
  const names = columns.map((c) => `"${c.databaseName}"`).join(', ');
  // A member left undefined takes the column's default, as TypeORM's insert does.
  const values = columns
    .map((c) => {
      const value: unknown = c.getEntityValue(row);
      if (value === undefined && c.default !== undefined) return 'DEFAULT';
      return s.p(persisted(m, c, value), sqlType(c));
    })
    .join(', ');
  return `INSERT INTO "${tableOf(m, entity)}" (${names}) VALUES (${values})`;
}

/**
 * `UPDATE <table> SET <the given members> WHERE id = <id> AND platform_id = <platformId>` with the
 * values as parameters of `s` (the members in the order given: a caller passing the same literal
 * sends the same text). The row's platform pins the statement to its shard.
 */
export function updateSql<T extends ObjectLiteral>(
  m: EntityManager,
  s: Statement,
  entity: EntityTarget<T>,
  key: { id: string; platformId: string },
  values: Partial<T>,
): string {
  const columns = columnsOf(m, entity);
  const sets = Object.keys(values).map((key) => {
    const column = columns.find((c) => c.propertyName === key);
    if (!column) throw new Error(`no column for ${key}`);
    return `"${column.databaseName}" = ${s.p(persisted(m, column, values[key]), sqlType(column))}`;
  });
  return `UPDATE "${tableOf(m, entity)}" SET ${sets.join(', ')} WHERE id = ${s.p(key.id, 'uuid')} AND platform_id = ${s.p(key.platformId, 'uuid')}`;
}

/**
 * An entity from a row rendered as JSON by the database (`to_jsonb(t)`, column names as keys):
 * bigint as strings (exact below 2^53, which every amount is), timestamps as Dates, JSON as is.
 */
export function hydrate<T extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<T>,
  json: Record<string, unknown>,
): T {
  const row = m.connection.getMetadata(entity).create() as Record<string, unknown>;
  for (const column of columnsOf(m, entity)) {
    const value = json[column.databaseName];
    let out: unknown = value ?? null;
    if (out !== null) {
      if (column.type === 'bigint') out = typeof out === 'string' ? out : BigInt(out as number).toString();
      else if (column.type === 'timestamptz' || column.type === 'timestamp' || column.type === Date)
        out = new Date(out as string);
    }
    row[column.propertyName] = out;
  }
  return row as T;
}
