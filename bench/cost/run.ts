/**
 * CPU cost per request of the framework-bound paths, beside the bare NestJS app measured the same
 * way: `node dist/bench/cost/run.js [--requests N] [--rounds R] [--callgrind]` (build first; with
 * DATABASE_URL the app runs on a scratch PostgreSQL database, else on the embedded engine).
 *
 * Each server runs in its own process; this process is the client: N sequential requests on one
 * keep-alive connection after a warm-up, and the server's CPU time over them
 * (`process.cpuUsage()`), interleaved over rounds. CPU time does not count waiting, so it is far
 * steadier than a throughput figure on a busy machine, but it still inflates when other processes
 * share the cores; `--callgrind` runs each server under `valgrind --tool=callgrind`, instrumented
 * only while the measured requests run (`callgrind_control -i on/off`), and reports instructions
 * per request: exact and independent of the machine's load, though it includes V8's JIT and GC as
 * they happen to run (slow: about a minute per 1,000 requests). `--cpu-prof <dir>` writes a V8 CPU
 * profile of each target's measured requests there (`<target>.cpuprofile`, one round);
 * `--strace` prints each target's system calls per request (`strace -c -f`, one round). `--audit` adds
 * a PATCH /cards/{id} (a limit change) on the app and on a second app with the audit trail's writes
 * off (AppOptions.audit = false), measured in the same rounds. `--tracing` adds the token GET, healthz and
 * that PATCH on a second app started with the tracing preload and an OTLP endpoint (a local sink), beside
 * the app with tracing off.
 */
import { ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerReady } from './server.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const callgrind = args.includes('--callgrind');
const requests = option('--requests', callgrind ? 1000 : 5000);
const rounds = option('--rounds', callgrind ? 1 : 3);
const warmup = option('--warmup', 2000);
const straceSyscalls = args.includes('--strace');
const profileDir = args.includes('--cpu-prof') ? args[args.indexOf('--cpu-prof') + 1] : undefined;
/** `--audit`: also PATCH /cards/{id} on the app and on a second app whose audit writes are off. */
const audit = args.includes('--audit');
/**
 * `--tracing`: the same paths on a second app started with the tracing preload and an OTLP endpoint
 * (a local sink that answers 200), beside the app with tracing off, in the same rounds.
 */
const tracing = args.includes('--tracing');

interface Server {
  child: ChildProcess;
  ready: ServerReady;
  outDir?: string;
}

/** The OTLP/HTTP sink the traced app exports to (`--tracing`): accepts every batch, keeps nothing. */
async function startOtlpSink(): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

async function startServer(kind: 'app' | 'app-no-audit' | 'app-traced' | 'bare', otlp?: string): Promise<Server> {
  const script = fileURLToPath(new URL('./server.js', import.meta.url));
  let outDir: string | undefined;
  let child: ChildProcess;
  if (callgrind) {
    outDir = mkdtempSync(join(tmpdir(), `cost-${kind}-`));
    child = fork(script, [kind], {
      execPath: 'valgrind',
      execArgv: [
        '--tool=callgrind',
        '--instr-atstart=no',
        `--callgrind-out-file=${join(outDir, 'callgrind.out.%p')}`,
        process.execPath,
      ],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
  } else if (kind === 'app-traced') {
    child = fork(script, [kind], {
      execArgv: ['--import', fileURLToPath(new URL('../../src/tracing.js', import.meta.url))],
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  } else {
    child = fork(script, [kind], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  }
  const ready = await new Promise<ServerReady>((resolve, reject) => {
    child.once('message', (m) => resolve(m as ServerReady));
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
  return { child, ready, outDir };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** A PATCH target's body (`--audit`): a limit change, a write (and an audit event) every time. */
const PATCH_BODY = JSON.stringify({ maxSpendPerDay: 50_000 });

function get(url: string, authorization?: string): Promise<void> {
  const patch = url.includes('/cards/');
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    if (patch) Object.assign(headers, { 'content-type': 'application/json', 'content-length': PATCH_BODY.length });
    const req = http.request(url, { agent, method: patch ? 'PATCH' : 'GET', headers }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
      res.resume();
      res.once('end', () => resolve());
    });
    req.once('error', reject);
    req.end(patch ? PATCH_BODY : undefined);
  });
}

/** A reused connection the server closed while idle (its keep-alive timeout): sent again once. */
const retryOnReset = (url: string, authorization?: string) =>
  get(url, authorization).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET') throw err;
    return get(url, authorization);
  });

async function sequential(url: string, n: number, authorization?: string): Promise<void> {
  for (let i = 0; i < n; i++) await retryOnReset(url, authorization);
}

function usage(server: Server): Promise<NodeJS.CpuUsage> {
  return new Promise((resolve) => {
    server.child.once('message', (m) => resolve((m as { usage: NodeJS.CpuUsage }).usage));
    server.child.send('usage');
  });
}

/** CPU microseconds (or instructions, under callgrind) per request of `n` requests to `url`. */
async function measure(server: Server, url: string, n: number): Promise<number> {
  const pid = String(server.child.pid);
  if (callgrind) {
    execFileSync('callgrind_control', ['-z', pid], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['-i', 'on', pid], { stdio: 'ignore' });
    await sequential(url, n, server.ready.authorization);
    execFileSync('callgrind_control', ['-i', 'off', pid], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['-d', pid], { stdio: 'ignore' });
    const dumps = readdirSync(server.outDir!).filter((f) => f.startsWith('callgrind.out'));
    const totals = dumps
      .map((f) => readFileSync(join(server.outDir!, f), 'utf8'))
      .map((text) => /^totals: (\d+)/m.exec(text))
      .map((m) => (m ? Number(m[1]) : 0));
    for (const f of dumps) rmSync(join(server.outDir!, f));
    return totals.reduce((a, b) => a + b, 0) / n;
  }
  const before = await usage(server);
  await sequential(url, n, server.ready.authorization);
  const after = await usage(server);
  return (after.user - before.user + after.system - before.system) / n;
}

function ask(server: Server, message: string): Promise<void> {
  return new Promise((resolve) => {
    server.child.once('message', () => resolve());
    server.child.send(message);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const app = await startServer('app');
  const bare = await startServer('bare');
  const noAudit = audit ? await startServer('app-no-audit') : undefined;
  const sink = tracing ? await startOtlpSink() : undefined;
  const traced = sink ? await startServer('app-traced', sink.url) : undefined;
  const targets: Array<[string, Server, string, string]> = [
    ['bare NestJS app, constant JSON', bare, bare.ready.urls.constant, 'bare'],
    ['GET /tokens/{id} (authenticated, token cached)', app, app.ready.urls.token, 'token'],
    ['GET /healthz', app, app.ready.urls.healthz, 'healthz'],
  ];
  if (noAudit) {
    targets.push(
      ['PATCH /cards/{id} limit (with its audit event)', app, app.ready.urls.patchCard, 'patch-audit'],
      ['PATCH /cards/{id} limit (audit writes off)', noAudit, noAudit.ready.urls.patchCard, 'patch-no-audit'],
    );
  }
  if (traced) {
    targets.push(
      ['GET /tokens/{id}, tracing on', traced, traced.ready.urls.token, 'token-traced'],
      ['GET /healthz, tracing on', traced, traced.ready.urls.healthz, 'healthz-traced'],
      ['PATCH /cards/{id} limit, tracing off', app, app.ready.urls.patchCard, 'patch'],
      ['PATCH /cards/{id} limit, tracing on', traced, traced.ready.urls.patchCard, 'patch-traced'],
    );
  }
  try {
    for (const [, server, url] of targets) await sequential(url, warmup, server.ready.authorization);
    if (straceSyscalls) {
      for (const [name, server, url] of targets) {
        const out = join(tmpdir(), `cost-strace-${process.pid}.txt`);
        const strace = spawn('strace', ['-c', '-f', '-o', out, '-p', String(server.child.pid)], { stdio: 'ignore' });
        await new Promise((resolve) => setTimeout(resolve, 500)); // attached
        await sequential(url, requests, server.ready.authorization);
        strace.kill('SIGINT');
        await new Promise((resolve) => strace.once('exit', resolve));
        const perRequest = readFileSync(out, 'utf8')
          .split('\n')
          .map((line) => line.trim().split(/\s+/))
          .filter((f) => f.length >= 5 && /^\d+$/.test(f[3]) && f[f.length - 1] !== 'total')
          .map((f) => `${f[f.length - 1]} ${(Number(f[3]) / requests).toFixed(2)}`);
        rmSync(out);
        console.log(`${name}: system calls per request: ${perRequest.join(', ')}`);
      }
    }
    if (profileDir) {
      for (const [, server, url, file] of targets) {
        await ask(server, 'profile-start');
        await sequential(url, requests, server.ready.authorization);
        await ask(server, `profile-stop ${join(profileDir, `${file}.cpuprofile`)}`);
      }
    }
    const results = new Map<string, number[]>(targets.map(([name]) => [name, []]));
    for (let r = 0; r < rounds; r++) {
      for (const [name, server, url] of targets) results.get(name)!.push(await measure(server, url, requests));
    }
    const unit = callgrind ? 'instructions/request' : 'CPU µs/request';
    const floor = median(results.get(targets[0][0])!);
    console.log(`${requests} sequential requests x ${rounds} rounds, median ${unit} (ratio = bare / path):`);
    for (const [name] of targets) {
      const m = median(results.get(name)!);
      const all = results
        .get(name)!
        .map((x) => (callgrind ? Math.round(x).toString() : x.toFixed(1)))
        .join(', ');
      console.log(`  ${name}: ${callgrind ? Math.round(m) : m.toFixed(1)} [${all}]  ratio ${(floor / m).toFixed(2)}`);
    }
  } finally {
    for (const s of [app, bare, noAudit, traced].filter((x): x is Server => x !== undefined)) {
      s.child.send('stop');
      await new Promise((resolve) => s.child.once('exit', resolve));
      if (s.outDir) rmSync(s.outDir, { recursive: true, force: true });
    }
    agent.destroy();
    sink?.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
