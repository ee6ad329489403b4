import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import request from 'supertest';
import { API_VERSION, createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import type { AppOptions } from '../../src/config/config.module.js';
import { createRootLogger } from '../../src/logging/logger.js';
import { PlatformsService } from '../../src/platforms/platforms.service.js';
import { reportViolations, watchServer, wireChecker } from './wire-check.js';
import { markRequests, reportShardViolations, watchStatements } from './shard-check.js';
import { DataSource } from 'typeorm';

export const V = `/${API_VERSION}`;

/** An `Authorization` header value for HTTP Basic with these raw credentials (`id:secret`). */
export const basicAuth = (value: string) => `Basic ${Buffer.from(value).toString('base64')}`;

export interface TestApp {
  app: INestApplication;
  http: ReturnType<typeof request>;
  close(): Promise<void>;
}

/** The server key every test app of a run shares (they share the database). */
export const TEST_WEBHOOK_KEY = Buffer.alloc(32, 7).toString('base64');

/**
 * Boots the real application (same factory as main.ts) on the run's database, on a random port.
 * Tests run with ROLE=api unless they ask for the worker: apps on the shared database must not
 * deliver each other's webhooks (the outbox tests run workers on a database of their own, see
 * isolated-database.ts). `options.clock` replaces the system clock; `options.logger` captures the logs.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: AppOptions & { databaseUrl?: string; logger?: Logger } = {},
): Promise<TestApp> {
  const url = options.databaseUrl ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run through the e2e jest project');
  const config = loadConfig({
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    DB_POOL_SIZE: '5',
    // The race tests send 50 requests at a pool of 5 on a machine running two shards: a request
    // waits for its connection rather than answering 503 after the default 5 s.
    DB_ACQUIRE_TIMEOUT_MS: '60000',
    ROLE: 'api',
    WEBHOOK_KEY_ENCRYPTION_KEY: TEST_WEBHOOK_KEY,
    // Test apps always pass DATABASE_URL, where private targets are refused by default; the
    // webhook receiver is local. Pass '' to get the default.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Tests send bursts with one credential; the limiter still runs (its headers are on every
    // answer). test/e2e/protection.e2e-spec.ts sets real limits.
    RATE_LIMIT_REQUESTS: '1000000',
    RATE_LIMIT_AGENT_REQUESTS: '1000000',
    // Every test's requests come from 127.0.0.1: the per-address failed-authentication limit is
    // out of the way unless a test sets it (test/e2e/audit-trail.e2e-spec.ts does).
    AUTH_FAILURES_PER_ADDRESS: '1000000',
    // DATABASE_URL makes SANDBOX default to false; tests run the sandbox unless they set SANDBOX.
    SANDBOX: 'true',
    ...env,
  });
  const app = await createApp(config, url, options.logger ?? createRootLogger(config.LOG_LEVEL), options);
  // Every answer to a reference operation is checked against the reference's schema
  // (test/support/wire-check.ts); what no test reported fails close().
  watchServer(app.getHttpServer() as Server, V);
  // Every statement it sends must be one a Citus shard runs alone (test/support/shard-check.ts).
  await watchStatements(app.get(DataSource));
  markRequests(app.getHttpServer() as Server);
  await app.listen(0, '127.0.0.1');
  const http = request(app.getHttpServer());
  // The service's own (opt-in) webhook types are checked against what it documents for them: the
  // served document's `webhooks` (read once per test file).
  if (!wireChecker().servedDocumentRegistered)
    wireChecker().registerServedDocument(
      (await http.get(`${V}/openapi.json`).expect(200)).body as Record<string, unknown>,
    );
  return {
    app,
    http,
    close: async () => {
      await app.close();
      reportViolations('received by this test app');
      reportShardViolations('sent by this test app');
    },
  };
}

/**
 * A test app logging at debug level into `logs()` (all its log text so far): for the scans that
 * prove no secret reaches a log line.
 */
export async function startLoggedTestApp(env: Record<string, string> = {}): Promise<TestApp & { logs(): string }> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = await startTestApp({ LOG_LEVEL: 'debug', ...env }, { logger: createRootLogger('debug', sink) });
  return { ...app, logs: () => lines.join('') };
}

/** A platform of its own for one test (novu's UserSession): credentials and request helpers. */
export class TestPlatform {
  private constructor(
    readonly t: TestApp,
    readonly platformId: string,
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  static async create(t: TestApp, name = 'Test platform'): Promise<TestPlatform> {
    const { platform, token } = await t.app.get(PlatformsService).create(name);
    return new TestPlatform(t, platform.id, token.clientId, token.clientSecret!);
  }

  /** The same platform's credentials, calling another app instance (on the same database). */
  on(other: TestApp): TestPlatform {
    return new TestPlatform(other, this.platformId, this.clientId, this.clientSecret);
  }

  get authorization(): string {
    return `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
  }

  get(path: string) {
    return this.t.http.get(`${V}${path}`).set('Authorization', this.authorization);
  }
  post(path: string, body?: object) {
    const r = this.t.http.post(`${V}${path}`).set('Authorization', this.authorization);
    return body === undefined ? r : r.send(body);
  }
  patch(path: string, body: object) {
    return this.t.http.patch(`${V}${path}`).set('Authorization', this.authorization).send(body);
  }
  delete(path: string) {
    return this.t.http.delete(`${V}${path}`).set('Authorization', this.authorization);
  }

  /** A second token on this platform with the given permissions. */
  async token(
    permissions: string[],
  ): Promise<{ authorization: string; id: string; clientId: string; clientSecret: string }> {
    const res = await this.post('/tokens', { name: `t-${permissions.join('-')}`, permissions });
    if (res.status !== 201) throw new Error(`token create failed: ${res.status} ${JSON.stringify(res.body)}`);
    const body = res.body as { id: string; clientId: string; clientSecret: string };
    return {
      id: body.id,
      clientId: body.clientId,
      clientSecret: body.clientSecret,
      authorization: `Basic ${Buffer.from(`${body.clientId}:${body.clientSecret}`).toString('base64')}`,
    };
  }
}

/** Asserts the spec's error shape and returns the body. */
export function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  const body = res.body as { code: string; reason: string; details?: Record<string, unknown> };
  expect({ status: res.status, code: body.code }).toEqual({ status, code });
  expect(typeof body.reason).toBe('string');
  return body;
}

/** Asserts a 400 INVALID_INPUT and returns the fields of its FieldErrors, sorted. */
export function invalidFields(res: { status: number; body: unknown }): string[] {
  const body = expectError(res, 400, 'INVALID_INPUT');
  return (body.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();
}
