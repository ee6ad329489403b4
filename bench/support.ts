/** Shared helpers for the benchmark scripts: an in-process app on either engine. */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { createApp } from '../src/app.factory.js';
import { loadConfig } from '../src/config/app-config.js';
import { migrate, openDatabase, OpenDatabase } from '../src/database/open-database.js';
import { createRootLogger } from '../src/logging/logger.js';

export interface BenchApp {
  app: INestApplication;
  baseUrl: string;
  databaseUrl: string;
  engine: string;
  close(): Promise<void>;
}

/** The real app on DATABASE_URL, or on a throwaway embedded engine when it is unset. */
export async function startBenchApp(): Promise<BenchApp> {
  const config = loadConfig({
    WEBHOOK_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'), // throwaway unless one is set
    ...process.env,
    LOG_LEVEL: 'silent',
    PGLITE_DATA_DIR: 'memory://',
    PORT: '0',
    ROLE: 'api',
  });
  const db: OpenDatabase = await openDatabase(config);
  await migrate(db.url);
  const app = await createApp(config, db.url, createRootLogger('silent'));
  await app.listen(0, '127.0.0.1');
  const { port } = (app.getHttpServer() as import('node:http').Server).address() as { port: number };
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}/2025-10-13`,
    databaseUrl: db.url,
    engine: db.embedded ? 'embedded PGlite' : 'PostgreSQL',
    close: async () => {
      await app.close();
      await db.stop();
    },
  };
}
