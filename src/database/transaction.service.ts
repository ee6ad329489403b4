import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import pg from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

const current = new AsyncLocalStorage<EntityManager>();

/**
 * Runs work in one database transaction. A call made while a transaction is already open (for
 * example under the idempotency interceptor) joins it, so the operation's effects and its
 * idempotency record commit together. Repositories receive the `EntityManager` explicitly.
 */
@Injectable()
export class TransactionService {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const open = current.getStore();
    if (open) return work(open);
    return this.dataSource.transaction((manager) => current.run(manager, () => work(manager)));
  }

  /** The open transaction's manager, or the pool's for a plain read. */
  get manager(): EntityManager {
    return current.getStore() ?? this.dataSource.manager;
  }

  /**
   * One fixed-text statement of a hot path, answered as `manager.query` answers it (rows; for
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
      const raw = await client.query(sql, parameters);
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
