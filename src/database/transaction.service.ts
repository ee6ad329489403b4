import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { isEmbeddedUrl } from './embedded-url.js';
import pg from 'pg';
import { DataSource, EntityManager, QueryFailedError, QueryRunner } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

const current = new AsyncLocalStorage<EntityManager>();

/**
 * Whether hot-path statements are prepared by name (DB_PREPARED_STATEMENTS): on PostgreSQL,
 * unless said otherwise or DATABASE_DIRECT_URL says DATABASE_URL is a transaction-mode pooler;
 * never on the embedded engine (one PGlite session serves every connection, so one connection's
 * name would collide with the next's).
 */
export function preparesStatements(
  config: Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_DIRECT_URL' | 'DB_PREPARED_STATEMENTS'>,
): boolean {
  const url = config.DATABASE_URL;
  if (url === undefined || isEmbeddedUrl(url)) return false;
  return config.DB_PREPARED_STATEMENTS ?? config.DATABASE_DIRECT_URL === undefined;
}

/**
 * Work that must commit with a request's changes (the audit trail's event): `run` calls it inside
 * the transaction, after the work and before COMMIT (as `atCommit`'s text in COMMIT's own message
 * when the hook has one); `pending` says whether the current request still has any (so a
 * one-statement change knows it needs a transaction).
 */
export interface BeforeCommitHook {
  pending(): boolean;
  run(manager: EntityManager): Promise<void>;
  /**
   * The same work as one statement without parameters (values inlined as literals), which `run`
   * sends in the same message as its COMMIT (simple query protocol: `<statement>; COMMIT`), so a
   * multi-statement transaction's hook work costs no round trip of its own. Undefined: nothing pending.
   */
  atCommit?(): CommitRider | undefined;
  /**
   * The same work as a CTE of a one-statement change (`change`), written only when the CTE
   * `source` returns a row, its parameters numbered from `first`: so the change stays one
   * statement (in autocommit, or one the open transaction sends anyway). Undefined: nothing pending.
   */
  rider?(source: string, first: number): StatementRider | undefined;
}

/** A hook's work sent with the COMMIT (BeforeCommitHook.atCommit). */
export interface CommitRider {
  /** the statement, values inlined (no parameters: it shares COMMIT's simple-protocol message) */
  sql: string;
  /** what the query logger is shown: the statement's parameterised text and its values */
  logged: { sql: string; parameters: unknown[] };
  /** called once the COMMIT succeeded */
  written(): void;
}

/** A hook's work riding in a change's statement (BeforeCommitHook.rider). */
export interface StatementRider {
  /** `name AS (...)`, appended to the statement's CTEs */
  cte: string;
  parameters: unknown[];
  /** called once the statement has run and changed something (its CTE wrote) */
  written(): void;
}

/**
 * A one-statement change in the form `WITH <ctes> <select>` (changeStatement): `source` is the CTE
 * whose rows are what changed (none: nothing changed), so a hook's work can ride in it.
 */
export interface ChangeStatement {
  /** the statement as written, without riders */
  readonly text: string;
  readonly ctes: string;
  readonly select: string;
  readonly source: string;
}

export function changeStatement(ctes: string, select: string, source: string): ChangeStatement {
  return { text: `\n  WITH ${ctes}\n  ${select}`, ctes, select, source };
}

/** Thrown inside `change` to roll back a statement that changed nothing (never escapes). */
class NothingChanged extends Error {
  constructor(readonly result: unknown) {
    super('nothing changed');
  }
}

/** Distinct statement texts prepared by name (hot paths have a few dozen). */
const MAX_NAMED = 256;

/**
 * Runs work in one database transaction. A call made while a transaction is already open (for
 * example under the idempotency interceptor) joins it, so the operation's effects and its
 * idempotency record commit together. Repositories receive the `EntityManager` explicitly.
 */
@Injectable()
export class TransactionService {
  /** Statement names by SQL text (DB_PREPARED_STATEMENTS): one name per text, for the process. */
  private readonly names = new Map<string, string>();
  private readonly prepare: boolean;
  /** `afterCommit` callbacks of the open transactions, by their manager. */
  private readonly committed = new WeakMap<EntityManager, Array<() => void>>();
  private readonly hooks: BeforeCommitHook[] = [];
  /** Statement texts with riders, by statement (see withRiders). */
  private readonly ridden = new WeakMap<ChangeStatement, Map<string, string>>();

  constructor(
    private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.prepare = preparesStatements(config);
  }

  /**
   * `pg`'s query config: named (parsed and planned once per connection) when prepared statements
   * are on. Texts past the first MAX_NAMED run unnamed, so a caller passing varying SQL by mistake
   * cannot grow the server's statement cache without bound.
   */
  private statement(text: string, values: unknown[]): pg.QueryConfig {
    if (!this.prepare) return { text, values };
    let name = this.names.get(text);
    if (name === undefined) {
      if (this.names.size >= MAX_NAMED) return { text, values };
      name = `hot_${this.names.size + 1}`;
      this.names.set(text, name);
    }
    return { name, text, values };
  }

  /** Registers work every transaction `run` opens does before it commits (see BeforeCommitHook). */
  onBeforeCommit(hook: BeforeCommitHook): void {
    this.hooks.push(hook);
  }

  /**
   * Runs work in a transaction of its own even when the caller has one open (it commits on its
   * own): for a step another party must see before the caller goes on, e.g. an incoming payment
   * recorded before its approval webhook is sent.
   */
  runDetached<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return current.exit(() => this.run(work));
  }

  /**
   * Runs `work` in a transaction (or in the open one, joined). The before-commit hooks run after
   * the work; a hook's `atCommit` statement goes out in COMMIT's own message (no round trip of its
   * own), so a transaction's statements are its work's plus START TRANSACTION and COMMIT, audited
   * or not.
   */
  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const open = current.getStore();
    if (open) return work(open);
    const runner = this.dataSource.createQueryRunner();
    const manager = runner.manager;
    let result: T;
    try {
      await runner.startTransaction();
      result = await current.run(manager, async () => {
        const value = await work(manager);
        for (const hook of this.hooks) if (!hook.atCommit) await hook.run(manager);
        return value;
      });
      const riders: CommitRider[] = [];
      for (const hook of this.hooks) {
        const rider = hook.atCommit?.();
        if (rider) riders.push(rider);
      }
      if (riders.length) await this.commitWith(runner, riders);
      else await runner.commitTransaction();
    } catch (error) {
      // A failed statement leaves the transaction open (aborted): roll it back. After a failed
      // COMMIT there is none left, and PostgreSQL answers ROLLBACK with a warning only.
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
    const after = this.committed.get(manager);
    if (after) for (const callback of after) callback();
    return result;
  }

  /**
   * COMMIT with the riders' statements before it, in one simple-protocol message: one round trip.
   * The query logger sees each statement as its own (the riders' parameterised texts, then COMMIT).
   */
  private async commitWith(runner: QueryRunner, riders: CommitRider[]): Promise<void> {
    const client = (await runner.connect()) as pg.PoolClient;
    for (const rider of riders) this.dataSource.logger.logQuery(rider.logged.sql, rider.logged.parameters, runner);
    this.dataSource.logger.logQuery('COMMIT', undefined, runner);
    try {
      await client.query(`${riders.map((r) => r.sql).join(';\n')};\nCOMMIT`);
    } catch (err) {
      // Named by the parameterised texts: the inlined values stay out of logs and error messages.
      const named = `${riders.map((r) => r.logged.sql).join(';\n')};\nCOMMIT`;
      this.dataSource.logger.logQueryError(err as Error, named, [], runner);
      throw new QueryFailedError(named, [], err as Error);
    }
    // What QueryRunner.commitTransaction does after its COMMIT (this service opened no savepoint).
    const state = runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
    state.isTransactionActive = false;
    state.transactionDepth -= 1;
    for (const rider of riders) rider.written();
  }

  /**
   * Runs `callback` once the transaction of `m` (the outermost one, when `run` calls were nested,
   * e.g. under the idempotency interceptor) has committed; never when it rolls back. At once when
   * `m` is not in a transaction run by this service.
   */
  afterCommit(m: EntityManager, callback: () => void): void {
    if (!m.queryRunner?.isTransactionActive) return callback();
    const after = this.committed.get(m);
    if (after) after.push(callback);
    else this.committed.set(m, [callback]);
  }

  /**
   * A one-statement change (fixed text, as `query`): `changed` tells from its rows whether it
   * changed anything. A before-commit hook's pending work for the current request (the audit
   * event) rides in the same statement as a CTE (BeforeCommitHook.rider), written only when the
   * change wrote: alone, in autocommit, the statement stays one round trip; in an open transaction
   * it adds nothing to send either. A hook without a rider makes it a transaction with its work.
   */
  async change<T>(statement: ChangeStatement, parameters: unknown[], changed: (result: T) => boolean): Promise<T> {
    const riders: StatementRider[] = [];
    let needsTransaction = false;
    for (const hook of this.hooks) {
      if (!hook.pending()) continue;
      const rider = hook.rider?.(
        statement.source,
        parameters.length + 1 + riders.reduce((n, r) => n + r.parameters.length, 0),
      );
      if (rider) riders.push(rider);
      else needsTransaction = true;
    }
    if (!riders.length && (current.getStore() || !needsTransaction)) return this.query<T>(statement.text, parameters);
    const sql = riders.length ? this.withRiders(statement, riders) : statement.text;
    const values = riders.length ? [...parameters, ...riders.flatMap((r) => r.parameters)] : parameters;
    if (current.getStore() || !needsTransaction) {
      const result = await this.query<T>(sql, values);
      if (changed(result)) for (const rider of riders) rider.written();
      return result;
    }
    try {
      return await this.run(async (m) => {
        const result = await m.query<T>(sql, values);
        if (!changed(result)) throw new NothingChanged(result);
        for (const rider of riders) rider.written();
        return result;
      });
    } catch (error) {
      if (error instanceof NothingChanged) return error.result as T;
      throw error;
    }
  }

  /**
   * The pending before-commit hooks' riders (the audit event) for the last statement of the open
   * transaction, built as a CTE of it (`source`: a CTE of that statement that returns a row), its
   * parameters numbered from `first`. The caller appends each rider's CTE and parameters, and calls
   * its `written()` once the statement ran; a hook without a rider still runs at commit.
   */
  riders(source: string, first: number): StatementRider[] {
    const riders: StatementRider[] = [];
    for (const hook of this.hooks) {
      if (!hook.pending()) continue;
      const rider = hook.rider?.(source, first + riders.reduce((n, r) => n + r.parameters.length, 0));
      if (rider) riders.push(rider);
    }
    return riders;
  }

  /** The statement with the riders' CTEs, one text per statement and riders (so it prepares once). */
  private withRiders(statement: ChangeStatement, riders: StatementRider[]): string {
    const key = riders.map((r) => r.cte).join(',\n  ');
    let texts = this.ridden.get(statement);
    if (!texts) this.ridden.set(statement, (texts = new Map<string, string>()));
    let text = texts.get(key);
    if (text === undefined) texts.set(key, (text = `\n  WITH ${statement.ctes},\n  ${key}\n  ${statement.select}`));
    return text;
  }

  /** The open transaction's manager, or the pool's for a plain read. */
  get manager(): EntityManager {
    return current.getStore() ?? this.dataSource.manager;
  }

  /**
   * One fixed-text statement of a hot path inside the transaction of `m` (a manager of `run`), answered
   * as `m.query` answers a SELECT (its rows): prepared by name on the transaction's own connection
   * when statements are prepared (DB_PREPARED_STATEMENTS), so a hot path's locking and write
   * statements are parsed and planned once per connection, not on every request; `m.query` otherwise.
   */
  async queryIn<T = unknown>(m: EntityManager, sql: string, parameters: unknown[]): Promise<T> {
    const runner = m.queryRunner;
    if (!this.prepare || !runner?.isTransactionActive) return m.query<T>(sql, parameters);
    const client = (await runner.connect()) as pg.PoolClient;
    this.dataSource.logger.logQuery(sql, parameters, runner);
    try {
      const raw = await client.query(this.statement(sql, parameters));
      return raw.rows as T;
    } catch (err) {
      this.dataSource.logger.logQueryError(err as Error, sql, parameters, runner);
      throw new QueryFailedError(sql, parameters, err as Error);
    }
  }

  /**
   * One fixed-text statement of a hot path (fixed: the text is the same on every call, values are
   * parameters), answered as `manager.query` answers it (rows; for
   * UPDATE and DELETE `[rows, count]`; failures as `QueryFailedError`). In the open transaction when
   * there is one; otherwise straight on a pooled `pg` client, without the query runner and entity
   * manager TypeORM builds around every `manager.query` (the DataSource's logger still sees it).
   */
  async query<T = unknown>(sql: string, parameters: unknown[]): Promise<T> {
    const open = current.getStore();
    if (open) return open.query<T>(sql, parameters);
    const pool = (this.dataSource.driver as PostgresDriver).master as pg.Pool;
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      this.dataSource.logger.logQuery(sql, parameters);
      const raw = await client.query(this.statement(sql, parameters));
      return (raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows) as T;
    } catch (err) {
      // A statement the server refused leaves the connection usable; anything else discards it.
      if (!(err instanceof pg.DatabaseError)) broken = err as Error;
      this.dataSource.logger.logQueryError(err as Error, sql, parameters);
      throw new QueryFailedError(sql, parameters, err as Error);
    } finally {
      client.release(broken);
    }
  }
}
