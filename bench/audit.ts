/**
 * The audit trail's costs (issue 28), same run: `node dist/bench/audit.js [--seconds S] [--rounds R]
 * [--only patch,post,spread,flood]` (build first; with DATABASE_URL on scratch PostgreSQL databases,
 * else on the embedded engine). Prints a Markdown table; docs/performance.md keeps the figures.
 *
 * - `PATCH /cards/{id}` freeze/unfreeze over 64 cards and `POST /platform/external-accounts`, at c=8
 *   and c=32, on an app with the audit trail and on one with its writes off (AppOptions.audit),
 *   interleaved A, B, A, B; the audited app runs the sealer every AUDIT_SEAL_INTERVAL_MS as a worker
 *   would, so the sealing's database work is in the figure.
 * - A bad-credential flood (a real platform's client id, a wrong secret) at 400 requests/s beside
 *   another platform's PATCH load, against the same PATCH load beside an equal flood of
 *   `GET /healthz`; and the audit rows the bad-credential flood wrote (refusal windows flushed).
 * - `--no-seal`: the audited app runs no sealer (its events stay unsealed): the append's cost alone.
 * - `spread`: 32 PATCH writers on one platform (64 cards) against 32 writers spread over 32
 *   platforms (2 cards each), both on the audited app, interleaved.
 */
import http from 'node:http';
import { DataSource } from 'typeorm';
import { AuditRefusals } from '../src/audit/audit-refusals.js';
import { AuditSealer } from '../src/audit/audit-sealer.js';
import { autocannonRun } from './lib/http.js';
import type { Measurement } from './lib/report.js';
import { median } from './lib/stats.js';
import { BenchApp, benchPlatform, BenchContext, scratchDatabase, startBenchApp } from './support.js';
import { benchCards } from './suites/card-authorizations.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const seconds = Number(option('--seconds', '3'));
const rounds = Number(option('--rounds', '3'));
const onlyList = option('--only', 'all').split(',');
const wants = (part: string) => onlyList.includes('all') || onlyList.includes(part);
const CARDS = 64;

interface Setup {
  app: BenchApp;
  ctx: BenchContext;
  cards: string[];
  drop?: () => Promise<void>;
  sealer?: NodeJS.Timeout;
}

async function setup(audit: boolean): Promise<Setup> {
  const adminUrl = process.env.DATABASE_URL;
  const scratch = adminUrl ? await scratchDatabase(adminUrl, 'bench_audit') : null;
  const app = await startBenchApp(scratch?.url, { audit });
  const platform = await benchPlatform(app);
  const ctx = { app, platform } as BenchContext;
  const cards = await benchCards(ctx, CARDS);
  const setup: Setup = { app, ctx, cards, drop: scratch?.drop };
  if (audit && !args.includes('--no-seal')) {
    const sealer = app.app.get(AuditSealer);
    // As the worker does: a failed round (e.g. its connection lost on the loaded machine) is logged, not fatal.
    setup.sealer = setInterval(
      () => void sealer.sealOnce().catch((e: unknown) => console.error(`sealing failed: ${(e as Error).message}`)),
      1000,
    );
  }
  return setup;
}

async function close(s: Setup): Promise<void> {
  clearInterval(s.sealer);
  await s.app.close();
  await s.drop?.();
}

const patch = (s: Setup, connections: number) => (secs: number) =>
  autocannonRun({
    url: `${s.app.baseUrl}/cards`,
    authorization: s.ctx.platform.authorization,
    toggleCards: s.cards,
    connections,
    seconds: secs,
  });
// A platform of its own per run: the load's account identities repeat after nine runs (lib/http.ts).
const post = (s: Setup, connections: number) => async (secs: number) =>
  autocannonRun({
    url: `${s.app.baseUrl}/platform/external-accounts`,
    authorization: (await benchPlatform(s.app)).authorization,
    body: 'external-account',
    connections,
    seconds: secs,
  });

async function pair(
  name: string,
  a: (secs: number) => Promise<Measurement>,
  b: (secs: number) => Promise<Measurement>,
): Promise<string> {
  await a(1);
  await b(1);
  const ra: Measurement[] = [];
  const rb: Measurement[] = [];
  for (let i = 0; i < rounds; i++) {
    ra.push(await a(seconds));
    rb.push(await b(seconds));
  }
  const ratio = ra.map((m, i) => m.perSecond / rb[i].perSecond);
  const p99 = ra.map((m, i) => m.p99 / rb[i].p99);
  const fmt = (ms: Measurement[]) =>
    `${median(ms.map((m) => m.perSecond)).toFixed(0)} req/s, p99 ${median(ms.map((m) => m.p99)).toFixed(1)} ms`;
  return `| ${name} | ${fmt(ra)} | ${fmt(rb)} | ${median(ratio).toFixed(2)}x (${ratio.map((r) => r.toFixed(2)).join(', ')}) | ${median(p99).toFixed(2)}x |`;
}

/** `rate` requests/s of GET `url` (with `authorization`) for `secs`, fire and forget; resolves with answers by status. */
async function flood(url: string, authorization: string | undefined, rate: number, secs: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const statuses = new Map<number, number>();
  let pending = 0;
  const one = () => {
    pending++;
    // From another loopback address than the PATCH load: a flood's own address is the one limited.
    const req = http.get(
      url,
      { agent, localAddress: '127.0.0.2', headers: authorization ? { authorization } : {} },
      (res) => {
        res.resume();
        res.on('end', () => {
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
          pending--;
        });
      },
    );
    req.on('error', () => pending--);
  };
  const perTick = rate / 100;
  let owed = 0;
  const timer = setInterval(() => {
    owed += perTick;
    for (; owed >= 1; owed--) one();
  }, 10);
  await new Promise((resolve) => setTimeout(resolve, secs * 1000));
  clearInterval(timer);
  while (pending > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  agent.destroy();
  return Object.fromEntries(statuses);
}

async function auditRows(s: Setup): Promise<number> {
  const [row] = await s.app.app
    .get(DataSource)
    .query<Array<{ n: number }>>('SELECT count(*)::int AS n FROM audit_events');
  return row.n;
}

const print = (...more: string[]) => {
  process.stdout.write(`${more.join('\n')}\n`);
};
const on = await setup(true);
const off = wants('patch') || wants('post') ? await setup(false) : null;
try {
  print(`engine: ${on.app.engine}; ${seconds} s x ${rounds} rounds, interleaved`, '');
  print('| path | audit on | audit off | on/off (rounds) | p99 on/off |', '|---|---|---|---|---|');
  if (off && wants('patch'))
    for (const c of [8, 32]) print(await pair(`PATCH /cards/{id}, c=${c}`, patch(on, c), patch(off, c)));
  if (off && wants('post'))
    for (const c of [8, 32]) print(await pair(`POST /platform/external-accounts, c=${c}`, post(on, c), post(off, c)));
  if (wants('spread')) {
    // 32 platforms, 2 cards each, each card with its own platform's credential.
    const cardAuthorizations: Record<string, string> = {};
    const spreadCards: string[] = [];
    for (let i = 0; i < 32; i++) {
      const platform = await benchPlatform(on.app);
      for (const id of await benchCards({ app: on.app, platform } as BenchContext, 2)) {
        spreadCards.push(id);
        cardAuthorizations[id] = platform.authorization;
      }
    }
    const spread = (secs: number) =>
      autocannonRun({
        url: `${on.app.baseUrl}/cards`,
        toggleCards: spreadCards,
        cardAuthorizations,
        connections: 32,
        seconds: secs,
      });
    print(
      '',
      '| 32 PATCH writers | one platform (64 cards) | 32 platforms (2 cards each) | one/spread (rounds) | p99 one/spread |',
      '|---|---|---|---|---|',
    );
    print(await pair('audit on, c=32', patch(on, 32), spread));
  }
  if (wants('flood')) {
    // Another platform's client id, a wrong secret: the flood; the PATCH load is on.ctx.platform.
    const victim = await benchPlatform(on.app);
    const bad = `Basic ${Buffer.from(`${victim.clientId}:wrong-secret`).toString('base64')}`;
    const beside = async (floodUrl: string, auth: string | undefined) => {
      const [m, answers] = await Promise.all([patch(on, 8)(5), flood(floodUrl, auth, 400, 5)]);
      return { m, answers };
    };
    await on.app.app.get(AuditRefusals).flush();
    const before = await auditRows(on);
    const withBad: Measurement[] = [];
    const withHealth: Measurement[] = [];
    const answers: unknown[] = [];
    for (let i = 0; i < rounds; i++) {
      const b = await beside(`${on.app.baseUrl}/cards`, bad);
      withBad.push(b.m);
      answers.push(b.answers);
      withHealth.push((await beside(`${on.app.origin}/healthz`, undefined)).m);
    }
    await on.app.app.get(AuditRefusals).flush();
    const rows = (await auditRows(on)) - before;
    const ratio = withBad.map((m, i) => m.perSecond / withHealth[i].perSecond);
    print(
      '',
      `Bad-credential flood, 400 requests/s for 5 s x ${rounds} (answers ${JSON.stringify(answers)}): ` +
        `${rows} audit rows written in all (refusal windows flushed; the PATCH load's own events included: see below).`,
      `Another platform's PATCH c=8 beside the bad-credential flood: ${median(withBad.map((m) => m.perSecond)).toFixed(0)} req/s; ` +
        `beside an equal GET /healthz flood: ${median(withHealth.map((m) => m.perSecond)).toFixed(0)} req/s; ` +
        `ratio ${median(ratio).toFixed(2)}x (${ratio.map((r) => r.toFixed(2)).join(', ')}).`,
    );
    const [refusalRows] = await on.app.app
      .get(DataSource)
      .query<Array<{ n: number; total: number }>>(
        'SELECT count(*)::int AS n, coalesce(sum(count), 0)::int AS total FROM audit_events WHERE platform_id = $1',
        [victim.platformId],
      );
    print(`Refusal rows on the flooded platform: ${refusalRows.n}, standing for ${refusalRows.total} refusals.`);
  }
} finally {
  await close(on);
  if (off) await close(off);
}
process.exit(0);
