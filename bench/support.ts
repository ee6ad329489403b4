/** Shared helpers for the benchmark suites: the real app on either engine, and the run's context. */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import pg from 'pg';
import { createApp } from '../src/app.factory.js';
import { loadConfig } from '../src/config/app-config.js';
import { migrate, openDatabase, OpenDatabase } from '../src/database/open-database.js';
import { createRootLogger } from '../src/logging/logger.js';
import { PlatformsService } from '../src/platforms/platforms.service.js';
import { parseId } from '../src/common/ids.js';
import type { Measurement, SuiteResult } from './lib/report.js';

export interface BenchApp {
  app: INestApplication;
  /** http://127.0.0.1:port (no version segment). */
  origin: string;
  /** With the version segment. */
  baseUrl: string;
  databaseUrl: string;
  embedded: boolean;
  engine: string;
  close(): Promise<void>;
}

/** The real app on `databaseUrl` (PostgreSQL), or on a throwaway embedded engine when undefined. */
/** `options.audit: false` turns the audit trail's writes off (the cost bench's comparison run only). */
export async function startBenchApp(databaseUrl?: string, options: { audit?: boolean } = {}): Promise<BenchApp> {
  const env: Record<string, string | undefined> = { ...process.env, DATABASE_URL: databaseUrl };
  const config = loadConfig({
    WEBHOOK_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'), // throwaway unless one is set
    SANDBOX: 'true', // the suites drive the sandbox (DATABASE_URL alone would default it to false)
    ...env,
    LOG_LEVEL: 'silent',
    PGLITE_DATA_DIR: 'memory://',
    PORT: '0',
    ROLE: 'api',
    // One credential drives the whole load: a limit it never reaches, so the limiter's cost is measured.
    RATE_LIMIT_REQUESTS: '1000000',
    RATE_LIMIT_AGENT_REQUESTS: '1000000', // the agents suite's one agent, the same way
  });
  const db: OpenDatabase = await openDatabase(config);
  await migrate(db.url);
  const app = await createApp(config, db.url, createRootLogger('silent'), { audit: options.audit });
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as import('node:http').Server).address() as { port: number };
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
export async function scratchDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
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

export interface BenchPlatform {
  platformId: string;
  /** The token's client id (what the token lookup is keyed by). */
  clientId: string;
  authorization: string;
}

export async function benchPlatform(app: BenchApp): Promise<BenchPlatform> {
  const { platform, token } = await app.app.get(PlatformsService).create('Bench');
  return {
    platformId: parseId('Platform', platform.id)!,
    clientId: token.clientId,
    authorization: `Basic ${Buffer.from(`${token.clientId}:${token.clientSecret}`).toString('base64')}`,
  };
}

/** What every suite gets from the runner. */
export interface BenchContext {
  quick: boolean;
  /** Rounds of A, B per pair; seconds per run; HTTP connections and pgbench clients. */
  rounds: number;
  seconds: number;
  connections: number;
  /** The real app on this run's engine (one suite at a time uses it). */
  app: BenchApp;
  platform: BenchPlatform;
  /** The bare NestJS app's constant-JSON URL (framework floor). */
  bareUrl: string;
  /** PostgreSQL server URL for scratch databases (DATABASE_URL), when the run has one. */
  adminUrl?: string;
}

/** A suite: one file in bench/suites/, listed in bench/suites/index.ts. */
export interface Suite {
  name: string;
  /** Engines it is meaningful on. */
  engines: Array<'postgres' | 'embedded'>;
  run(ctx: BenchContext): Promise<SuiteResult[]>;
}

/**
 * Runs A and B (and any further references) once each as a warm-up (unrecorded), then `rounds`
 * times interleaved A, B, A, B (A, B, C, A, B, C with a further reference).
 */
export async function interleaved(
  ctx: BenchContext,
  a: (seconds: number) => Promise<Measurement>,
  b: (seconds: number) => Promise<Measurement>,
  ...more: Array<(seconds: number) => Promise<Measurement>>
): Promise<{ a: Measurement[]; b: Measurement[]; more: Measurement[][] }> {
  const warm = Math.max(1, Math.round(ctx.seconds / 2));
  await a(warm);
  await b(warm);
  for (const c of more) await c(warm);
  const out = { a: [] as Measurement[], b: [] as Measurement[], more: more.map(() => [] as Measurement[]) };
  for (let i = 0; i < ctx.rounds; i++) {
    out.a.push(await a(ctx.seconds));
    out.b.push(await b(ctx.seconds));
    for (const [j, c] of more.entries()) out.more[j].push(await c(ctx.seconds));
  }
  return out;
}
