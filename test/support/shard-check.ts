import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from 'node:http';
import type { DataSource } from 'typeorm';
import {
  analyze,
  fingerprint,
  loadParser,
  readDistributionMap,
  type DistributionMap,
  type Finding,
} from './shard-rules.js';

/**
 * Every statement a test app sends is parsed with the real PostgreSQL parser and checked against
 * Citus' rules for a statement one shard runs alone (test/support/shard-rules.ts,
 * docs/scale-out.md). A statement that breaks them fails the test that caused it (an afterEach
 * here, or the test app's close()), unless it is
 * - tagged `/* cross-shard: <name> *\/` with `<name>` in the map's `crossShard` (and locks nothing
 *   across shards), or
 * - sent by the test's own code through the app's DataSource (set-up and inspection, not the
 *   service: its stack's first frame of ours is in `test/`), or
 * - unattributed: neither sent while serving an HTTP request nor with a `src/` frame on its stack
 *   (a library's callbacks lost it), so it cannot be told from the test's own SQL; SHARD_LOG
 *   lists these with `unattributed: true`, or
 * - listed, by its parser fingerprint, in test/fixtures/shard-pending.json (statements known to
 *   break a rule and not yet rewritten; the list only shrinks).
 * `SHARD_LOG=<file>` appends every finding (pending ones too) as a JSON line: a survey of the run.
 * `SHARD_CHECK=off` turns the check off (to bisect a failure, never in CI).
 */

const PENDING_FILE = fileURLToPath(new URL('../fixtures/shard-pending.json', import.meta.url));
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Violation {
  rule: string;
  table?: string;
  detail: string;
  sql: string;
  fingerprint: string;
  origin: string;
  test: string;
}

let map: DistributionMap | null = null;
let pending: Set<string> | null = null;
const verdicts = new Map<string, { findings: Finding[]; fingerprint: string | null }>();
const unreported: Violation[] = [];
let seen = 0;
const checked = { statements: 0, distinct: 0 };

const enabled = () => process.env.SHARD_CHECK !== 'off';
/** Until every statement is rewritten, the check fails tests only with SHARD_CHECK=enforce. */
const enforced = () => process.env.SHARD_CHECK === 'enforce';

function verdict(sql: string): { findings: Finding[]; fingerprint: string | null } {
  let v = verdicts.get(sql);
  if (!v) {
    const { findings } = analyze(sql, map!);
    let fp: string | null = null;
    if (findings.length)
      try {
        fp = fingerprint(sql);
      } catch {
        fp = null;
      }
    v = { findings, fingerprint: fp };
    verdicts.set(sql, v);
    checked.distinct += 1;
  }
  return v;
}

/** The first frame of ours on the stack: `src/…` (the service) or `test/…` (the test's own query). */
const ours = new Map<string, boolean>();
function origin(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const frames = stack.split('\n').slice(1);
  for (const frame of frames) {
    const m = /\(?(?:file:\/\/)?([^()\s]+):(\d+):\d+\)?$/.exec(frame.trim());
    if (!m) continue;
    const file = m[1];
    if (file.includes('node_modules') || file.startsWith('node:')) continue;
    if (file.endsWith('shard-check.ts') || file.endsWith('statement-counter.ts')) continue;
    if (file.endsWith(path.join('src', 'database', 'transaction.service.ts'))) continue; // the runner, not the caller
    const rel = path.relative(ROOT, file);
    if (rel.startsWith('..')) continue;
    // Source maps of libraries name files that are not here (typeorm's `src/driver/...`).
    if (!ours.has(file)) ours.set(file, existsSync(file));
    if (!ours.get(file)) continue;
    return `${rel}:${m[2]}`;
  }
  return 'unknown';
}

function currentTest(): string {
  const state = (
    globalThis as { expect?: { getState?: () => { testPath?: string; currentTestName?: string } } }
  ).expect?.getState?.();
  if (!state) return 'unknown';
  return `${path.relative(ROOT, state.testPath ?? '')} › ${state.currentTestName ?? '(outside a test)'}`;
}

function onStatement(query: string): void {
  checked.statements += 1;
  const v = verdict(query);
  if (v.findings.length === 0) return;
  const from = origin();
  if (from.startsWith('test/')) return; // the test's own set-up or inspection through the app's pool
  // A migration's statements run once, at deploy, before the tables are distributed (docs/scale-out.md).
  if (from.startsWith('src/database/migrations/')) return;
  // Whose statement is it? An HTTP request's, or one sent from `src/`, is the service's. One with
  // neither (its stack lost in a library's callbacks, outside any request) cannot be told from the
  // test's own SQL: it goes to SHARD_LOG as unattributed and fails nothing.
  const attributed = requestContext.getStore() === true || from.startsWith('src/');
  const isPending = v.fingerprint !== null && pending!.has(v.fingerprint);
  const test = currentTest();
  for (const f of v.findings) {
    const violation: Violation = {
      rule: f.rule,
      table: f.table,
      detail: f.detail,
      sql: query.replace(/\s+/g, ' ').trim().slice(0, 4000),
      fingerprint: v.fingerprint ?? '',
      origin: from,
      test,
    };
    if (process.env.SHARD_LOG)
      appendFileSync(
        process.env.SHARD_LOG,
        `${JSON.stringify({ ...violation, pending: isPending, ...(attributed ? {} : { unattributed: true }) })}\n`,
      );
    if (!isPending && attributed && enforced()) {
      seen += 1;
      unreported.push(violation);
    }
  }
}

/** Marks the work of every HTTP request `server` receives as the service's (see onStatement). */
const requestContext = new AsyncLocalStorage<boolean>();
export function markRequests(server: Server): void {
  server.prependListener('request', () => requestContext.enterWith(true));
}

/** Starts checking every statement `dataSource` sends (call once per test app, before traffic). */
export async function watchStatements(dataSource: DataSource): Promise<void> {
  if (!enabled()) return;
  await loadParser();
  map ??= readDistributionMap();
  pending ??= new Set(
    existsSync(PENDING_FILE)
      ? Object.keys(JSON.parse(readFileSync(PENDING_FILE, 'utf8')) as Record<string, string>)
      : [],
  );
  const logger = dataSource.logger;
  const logQuery = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, runner) => {
    onStatement(query);
    logQuery(query, parameters, runner);
  };
}

/** Fails with the first statement that broke a rule since the last report. */
export function reportShardViolations(when: string): void {
  if (unreported.length === 0) return;
  const [first] = unreported;
  const count = unreported.length;
  unreported.length = 0;
  throw new Error(
    `${count} statement(s) ${when} cannot run on one shard (test/support/shard-check.ts, docs/scale-out.md; ${seen} in this file so far). First: ${first.rule}: ${first.detail}, sent from ${first.origin}: ${first.sql.slice(0, 600)}`,
  );
}

const hooks = globalThis as { afterEach?: (fn: () => void) => void; afterAll?: (fn: () => void) => void };
if (typeof hooks.afterEach === 'function') hooks.afterEach(() => reportShardViolations('sent during this test'));
if (typeof hooks.afterAll === 'function' && process.env.SHARD_LOG) {
  const log = process.env.SHARD_LOG;
  hooks.afterAll(() => appendFileSync(log, `${JSON.stringify({ checked: { ...checked }, violations: seen })}\n`));
}
