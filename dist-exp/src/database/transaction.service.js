var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { isEmbeddedUrl } from './embedded-url.js';
import pg from 'pg';
import { DataSource, QueryFailedError } from 'typeorm';
const current = new AsyncLocalStorage();
/**
 * Whether hot-path statements are prepared by name (DB_PREPARED_STATEMENTS): on PostgreSQL,
 * unless said otherwise or DATABASE_DIRECT_URL says DATABASE_URL is a transaction-mode pooler;
 * never on the embedded engine (one PGlite session serves every connection, so one connection's
 * name would collide with the next's).
 */
export function preparesStatements(config) {
    const url = config.DATABASE_URL;
    if (url === undefined || isEmbeddedUrl(url))
        return false;
    return config.DB_PREPARED_STATEMENTS ?? config.DATABASE_DIRECT_URL === undefined;
}
/** Distinct statement texts prepared by name (hot paths have a few dozen). */
const MAX_NAMED = 256;
/**
 * Runs work in one database transaction. A call made while a transaction is already open (for
 * example under the idempotency interceptor) joins it, so the operation's effects and its
 * idempotency record commit together. Repositories receive the `EntityManager` explicitly.
 */
let TransactionService = class TransactionService {
    dataSource;
    /** Statement names by SQL text (DB_PREPARED_STATEMENTS): one name per text, for the process. */
    names = new Map();
    prepare;
    constructor(dataSource, config) {
        this.dataSource = dataSource;
        this.prepare = preparesStatements(config);
    }
    /**
     * `pg`'s query config: named (parsed and planned once per connection) when prepared statements
     * are on. Texts past the first MAX_NAMED run unnamed, so a caller passing varying SQL by mistake
     * cannot grow the server's statement cache without bound.
     */
    statement(text, values) {
        if (!this.prepare)
            return { text, values };
        let name = this.names.get(text);
        if (name === undefined) {
            if (this.names.size >= MAX_NAMED)
                return { text, values };
            name = `hot_${this.names.size + 1}`;
            this.names.set(text, name);
        }
        return { name, text, values };
    }
    run(work) {
        const open = current.getStore();
        if (open)
            return work(open);
        return this.dataSource.transaction((manager) => current.run(manager, () => work(manager)));
    }
    /** The open transaction's manager, or the pool's for a plain read. */
    get manager() {
        return current.getStore() ?? this.dataSource.manager;
    }
    /**
     * One fixed-text statement of a hot path (fixed: the text is the same on every call, values are
     * parameters), answered as `manager.query` answers it (rows; for
     * UPDATE and DELETE `[rows, count]`; failures as `QueryFailedError`). In the open transaction when
     * there is one; otherwise straight on a pooled `pg` client, without the query runner and entity
     * manager TypeORM builds around every `manager.query` (the DataSource's logger still sees it).
     */
    async query(sql, parameters) {
        const open = current.getStore();
        if (open)
            return open.query(sql, parameters);
        const pool = this.dataSource.driver.master;
        const client = await pool.connect();
        let broken;
        try {
            this.dataSource.logger.logQuery(sql, parameters);
            const raw = await client.query(this.statement(sql, parameters));
            return (raw.command === 'UPDATE' || raw.command === 'DELETE' ? [raw.rows, raw.rowCount] : raw.rows);
        }
        catch (err) {
            // A statement the server refused leaves the connection usable; anything else discards it.
            if (!(err instanceof pg.DatabaseError))
                broken = err;
            this.dataSource.logger.logQueryError(err, sql, parameters);
            throw new QueryFailedError(sql, parameters, err);
        }
        finally {
            client.release(broken);
        }
    }
};
TransactionService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [DataSource,
        AppConfig])
], TransactionService);
export { TransactionService };
//# sourceMappingURL=transaction.service.js.map