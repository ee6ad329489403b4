/** Shared helpers for the benchmark suites: the real app on either engine, and the run's context. */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createApp } from '../src/app.factory.js';
import { loadConfig } from '../src/config/app-config.js';
import { migrate, openDatabase } from '../src/database/open-database.js';
import { createRootLogger } from '../src/logging/logger.js';
import { PlatformsService } from '../src/platforms/platforms.service.js';
import { parseId } from '../src/common/ids.js';
/** The real app on `databaseUrl` (PostgreSQL), or on a throwaway embedded engine when undefined. */
export async function startBenchApp(databaseUrl) {
    const env = { ...process.env, DATABASE_URL: databaseUrl };
    const config = loadConfig({
        WEBHOOK_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'), // throwaway unless one is set
        ...env,
        LOG_LEVEL: 'silent',
        PGLITE_DATA_DIR: 'memory://',
        PORT: '0',
        ROLE: 'api',
        // One credential drives the whole load: a limit it never reaches, so the limiter's cost is measured.
        RATE_LIMIT_REQUESTS: '1000000',
        RATE_LIMIT_AGENT_REQUESTS: '1000000', // the agents suite's one agent, the same way
    });
    const db = await openDatabase(config);
    await migrate(db.url);
    const app = await createApp(config, db.url, createRootLogger('silent'));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address();
    return {
        app,
        origin: `http://127.0.0.1:${port}`,
        baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
        databaseUrl: db.url,
        embedded: db.embedded,
        engine: db.embedded ? 'embedded PGlite' : 'PostgreSQL',
        close: async () => {
            await app.close();
            await db.stop();
        },
    };
}
/** A scratch PostgreSQL database next to `adminUrl`, dropped by `drop`. */
export async function scratchDatabase(adminUrl, prefix) {
    const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const parsed = new URL(adminUrl);
    parsed.pathname = `/${name}`;
    return {
        url: parsed.toString(),
        drop: async () => {
            const c = new pg.Client({ connectionString: adminUrl });
            await c.connect();
            await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await c.end();
        },
    };
}
export async function benchPlatform(app) {
    const { platform, token } = await app.app.get(PlatformsService).create('Bench');
    return {
        platformId: parseId('Platform', platform.id),
        clientId: token.clientId,
        authorization: `Basic ${Buffer.from(`${token.clientId}:${token.clientSecret}`).toString('base64')}`,
    };
}
/**
 * Runs A and B (and any further references) once each as a warm-up (unrecorded), then `rounds`
 * times interleaved A, B, A, B (A, B, C, A, B, C with a further reference).
 */
export async function interleaved(ctx, a, b, ...more) {
    const warm = Math.max(1, Math.round(ctx.seconds / 2));
    await a(warm);
    await b(warm);
    for (const c of more)
        await c(warm);
    const out = { a: [], b: [], more: more.map(() => []) };
    for (let i = 0; i < ctx.rounds; i++) {
        out.a.push(await a(ctx.seconds));
        out.b.push(await b(ctx.seconds));
        for (const [j, c] of more.entries())
            out.more[j].push(await c(ctx.seconds));
    }
    return out;
}
//# sourceMappingURL=support.js.map