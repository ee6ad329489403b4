import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

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
}
