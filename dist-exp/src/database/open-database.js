import path from 'node:path';
import { createDataSource, runMigrations } from './data-source.js';
import { startEmbeddedDatabase } from './embedded.js';
/** PostgreSQL when DATABASE_URL is set; otherwise starts the embedded engine on PGLITE_DATA_DIR. */
export async function openDatabase(config) {
    if (config.DATABASE_URL) {
        const url = config.DATABASE_URL;
        return { url, sessionUrl: config.DATABASE_DIRECT_URL ?? url, embedded: false, stop: () => Promise.resolve() };
    }
    const db = await startEmbeddedDatabase(config.PGLITE_DATA_DIR, config.DB_POOL_SIZE + 8);
    return { url: db.url, sessionUrl: db.url, embedded: true, stop: () => db.stop() };
}
/**
 * Which database a process uses, fit for a log line: the embedded engine and its data dir, or
 * PostgreSQL's host, port and database. Never the user, password or query parameters of the URL.
 */
export function describeDatabase(config) {
    if (!config.DATABASE_URL) {
        const dir = config.PGLITE_DATA_DIR;
        return { engine: 'embedded', dataDir: dir.startsWith('memory://') ? dir : path.resolve(dir) };
    }
    try {
        const url = new URL(config.DATABASE_URL);
        return {
            engine: 'postgresql',
            host: decodeURIComponent(url.hostname) || 'localhost', // a Unix socket dir is percent-encoded
            port: url.port || '5432',
            database: decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default)',
        };
    }
    catch {
        return { engine: 'postgresql' }; // not a URL Node parses: name nothing rather than echo it
    }
}
/** Applies pending migrations with a short-lived DataSource of its own; returns their names. */
export async function migrate(url) {
    const dataSource = createDataSource(url, 2);
    await dataSource.initialize();
    try {
        return await runMigrations(dataSource);
    }
    finally {
        await dataSource.destroy();
    }
}
//# sourceMappingURL=open-database.js.map