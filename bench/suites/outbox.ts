/**
 * Outbox delivery, on PostgreSQL (a scratch database is created next to DATABASE_URL and dropped
 * at the end). For one and then two worker processes (`node dist/src/main.js`, ROLE=worker):
 *   1. throughput: events across aggregates queued up front, then drained by the workers into a
 *      local receiver: deliveries per second from first to last receipt;
 *   2. latency: events committed one per transaction at a light steady rate (100/s):
 *      commit-to-receipt p50/p99 (commit acknowledged to the writer -> body received).
 * Each receipt is checked for duplicates and per-aggregate order. `--quick`: 2,000 events, one
 * worker, 2 s of light load. (BENCH_EVENTS, BENCH_AGGREGATES, BENCH_RATE, BENCH_SECONDS,
 * BENCH_WORKERS="1,2", OUTBOX_CONCURRENCY override, BENCH_PROF=<dir> for the workers' CPU profiles.)
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { AppModule } from '../../src/app.module.js';
import { formatId, newUuid, parseId } from '../../src/common/ids.js';
import { loadConfig } from '../../src/config/app-config.js';
import { migrate } from '../../src/database/open-database.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import type { Card } from '../../src/cards/card.dto.js';
import { cardStatusChange } from '../../src/cards/card-events.js';
import { OutboxService } from '../../src/outbox/outbox.service.js';
import { PlatformsService } from '../../src/platforms/platforms.service.js';
import { percentile } from '../lib/stats.js';
import type { SuiteResult } from '../lib/report.js';
import type { BenchContext, Suite } from '../support.js';

const env = process.env;
const MAIN_JS = fileURLToPath(new URL('../../src/main.js', import.meta.url));

interface Receipt {
  at: number;
  id: string;
  card: string;
  n: number;
}

/** The local webhook receiver: records receipt time, id, aggregate and the writer's sequence number. */
async function startReceiver() {
  let receipts: Receipt[] = [];
  let waiter: { count: number; resolve: () => void } | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id: string;
        data: { id: string; n: number };
      };
      receipts.push({ at, id: body.id, card: body.data.id, n: body.data.n });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
      if (waiter && receipts.length >= waiter.count) {
        waiter.resolve();
        waiter = null;
      }
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    take(): Receipt[] {
      const out = receipts;
      receipts = [];
      return out;
    },
    waitFor(count: number): Promise<void> {
      if (receipts.length >= count) return Promise.resolve();
      return new Promise((resolve) => (waiter = { count, resolve }));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()),
  };
}

/** BENCH_PROF=<dir>: each worker writes a V8 CPU profile there (`node --cpu-prof`) when it exits. */
const profileArgs = env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_PROF}`] : [];

export async function startWorkers(count: number, url: string, key: string): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const child = spawn(process.execPath, [...profileArgs, MAIN_JS], {
        env: {
          PATH: env.PATH,
          DATABASE_URL: url,
          ROLE: 'worker',
          PORT: '0',
          LOG_LEVEL: 'info',
          WEBHOOK_KEY_ENCRYPTION_KEY: key,
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', // the receiver is local
          SANDBOX: 'true',
          ...(env.OUTBOX_CONCURRENCY ? { OUTBOX_CONCURRENCY: env.OUTBOX_CONCURRENCY } : {}),
          ...(env.OUTBOX_ENDPOINT_CONCURRENCY ? { OUTBOX_ENDPOINT_CONCURRENCY: env.OUTBOX_ENDPOINT_CONCURRENCY } : {}),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const lines = createInterface({ input: child.stdout });
      await new Promise<void>((resolve, reject) => {
        lines.on('line', (line) => {
          if (line.includes('outbox worker started')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      });
      return child;
    }),
  );
}

export async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    }),
  );
}

/** Every event received exactly once, and in writer order within each aggregate. */
function check(receipts: Receipt[], expected: number): string {
  const ids = new Set(receipts.map((r) => r.id));
  const last = new Map<string, number>();
  let outOfOrder = 0;
  for (const r of receipts) {
    if ((last.get(r.card) ?? -1) > r.n) outOfOrder++;
    last.set(r.card, r.n);
  }
  const duplicates = receipts.length - ids.size;
  const ok = ids.size === expected && duplicates === 0 && outOfOrder === 0;
  return `${ok ? 'ok' : 'PROBLEM'}: ${ids.size}/${expected} delivered, ${duplicates} duplicates, ${outOfOrder} out of order`;
}

export const outbox: Suite = {
  name: 'outbox',
  engines: ['postgres'],
  run: (ctx) => run(ctx),
};

async function run(ctx: BenchContext): Promise<SuiteResult[]> {
  const EVENTS = Number(env.BENCH_EVENTS ?? (ctx.quick ? 2_000 : 10_000));
  const AGGREGATES = Number(env.BENCH_AGGREGATES ?? (ctx.quick ? 200 : 1_000));
  const RATE = Number(env.BENCH_RATE ?? 100);
  const SECONDS = Number(env.BENCH_SECONDS ?? (ctx.quick ? 2 : 5));
  const WORKER_COUNTS = (env.BENCH_WORKERS ?? (ctx.quick ? '1' : '1,2')).split(',').map(Number);
  const rows: string[] = [];
  const admin = ctx.adminUrl!;
  const dbName = `bench_outbox_${Date.now()}`;
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`CREATE DATABASE ${dbName}`);
  const parsed = new URL(admin);
  parsed.pathname = `/${dbName}`;
  const url = parsed.toString();
  const key = randomBytes(32).toString('base64');
  const receiver = await startReceiver();
  await migrate(url);
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot(
      loadConfig({
        DATABASE_URL: url,
        WEBHOOK_KEY_ENCRYPTION_KEY: key,
        LOG_LEVEL: 'warn',
        ROLE: 'api',
        DB_POOL_SIZE: '4',
        SANDBOX: 'true',
      }),
      url,
      { runWorker: false },
    ),
    { logger: false },
  );
  try {
    const tx = app.get(TransactionService);
    const outbox = app.get(OutboxService);
    const { platform } = await app.get(PlatformsService).create('Bench');
    const platformId = parseId('Platform', platform.id)!;
    await tx.manager.query(`UPDATE platform_configs SET webhook_endpoint = $1 WHERE platform_id = $2`, [
      receiver.url,
      platformId,
    ]);
    const cards = Array.from({ length: AGGREGATES }, () => formatId('Card', newUuid()));
    let seq = 0;
    const write = (m: Parameters<typeof outbox.write>[0], card: string) =>
      outbox.write(m, cardStatusChange(platformId, { id: card, n: seq++, status: 'FROZEN' } as unknown as Card));

    console.log(
      `outbox benchmark on PostgreSQL: ${EVENTS} events across ${AGGREGATES} aggregates; ` +
        `latency at ${RATE} events/s for ${SECONDS} s; OUTBOX_CONCURRENCY=${env.OUTBOX_CONCURRENCY ?? 16}, ` +
        `OUTBOX_ENDPOINT_CONCURRENCY=${env.OUTBOX_ENDPOINT_CONCURRENCY ?? 8}`,
    );
    for (const workers of WORKER_COUNTS) {
      // 1. Throughput: queue everything first (100 events per transaction), then let the workers drain it.
      const queued = performance.now();
      for (let i = 0; i < EVENTS; i += 100) {
        await tx.run(async (m) => {
          for (let j = i; j < Math.min(i + 100, EVENTS); j++) await write(m, cards[j % AGGREGATES]);
        });
      }
      const queueSeconds = (performance.now() - queued) / 1000;
      receiver.take();
      const started = performance.now();
      const children = await startWorkers(workers, url, key);
      await receiver.waitFor(EVENTS);
      const drained = receiver.take();
      const first = drained[0].at;
      const lastAt = drained[drained.length - 1].at;
      const rate = (EVENTS - 1) / ((lastAt - first) / 1000);
      const drainCheck = check(drained, EVENTS);
      console.log(
        `\n${workers} worker process(es)\n` +
          `  queued ${EVENTS} events in ${queueSeconds.toFixed(1)} s\n` +
          `  drain: ${rate.toFixed(0)} deliveries/s (first to last receipt ${((lastAt - first) / 1000).toFixed(2)} s; ` +
          `${((lastAt - started) / 1000).toFixed(2)} s including worker start)  [${check(drained, EVENTS)}]`,
      );

      // 2. Latency at a light steady rate: one event per transaction, paced by the clock.
      const total = RATE * SECONDS;
      const committedAt = new Map<string, number>();
      const t0 = performance.now();
      for (let i = 0; i < total; i++) {
        const due = t0 + (i * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const written = await tx.run((m) => write(m, cards[i % AGGREGATES]));
        committedAt.set(written.envelope.id, performance.now());
      }
      await receiver.waitFor(total);
      const light = receiver.take();
      const latencies = light.map((r) => r.at - committedAt.get(r.id)!).sort((a, b) => a - b);
      rows.push(
        `| ${workers} | ${rate.toFixed(0)} | ${percentile(latencies, 50).toFixed(1)} ms | ` +
          `${percentile(latencies, 99).toFixed(1)} ms | ${latencies[latencies.length - 1].toFixed(1)} ms | ` +
          `${drainCheck}; ${check(light, total)} |`,
      );
      console.log(
        `  light load (${RATE}/s): commit-to-receipt p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
          `p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms  ` +
          `[${check(light, total)}]`,
      );
      await stopWorkers(children);
    }
  } finally {
    await app.close();
    await receiver.close();
    await adminClient.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await adminClient.end();
  }
  return [
    {
      kind: 'table',
      title: `Outbox delivery (PostgreSQL, ${EVENTS} events across ${AGGREGATES} aggregates; light load ${RATE}/s)`,
      markdown: [
        '| workers | drain (deliveries/s) | light load p50 | p99 | max | checks |',
        '|---|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
    },
  ];
}
