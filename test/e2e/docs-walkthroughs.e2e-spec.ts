import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { blockOutputs, markdownFiles, missingLines, runnableBlocks, script } from '../support/runnable-docs.js';

/**
 * Every walk-through marked `<!-- runnable -->` in README.md and docs/ runs as written: for each
 * markdown file with runnable blocks, a real `node dist/src/main.js` starts as the quick start does
 * (`npm test` builds first) on an empty embedded database of its own (a temp data dir) with
 * SANDBOX=true and ROLE=all (so webhooks are delivered); its start banner gives the sandbox
 * platform's credentials. The file's blocks then run in order in one bash process (`set -euo
 * pipefail`, in a temp dir) with BASE_URL, CLIENT_ID, CLIENT_SECRET, RECEIVER_PORT (a free port
 * for a walk-through's own webhook receiver) and NODE_PATH (the repository's node_modules) exported, and each block's stdout must hold the lines
 * of the ```text fence that follows it.
 *
 * Embedded engine only: the walk-throughs are the embedded quick start (a fresh data dir prints
 * the credentials they use), so on the PostgreSQL run (DATABASE_URL set) this file is skipped.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
/** How long a start may take before the test gives up (a loaded CI machine starts slowly). */
const STARTUP_MS = 200_000;
/** How long one file's walk-throughs may run before their process group is killed (and the test fails). */
const SCRIPT_MS = 90_000;
const onPostgres = Boolean(process.env.DATABASE_URL);
if (onPostgres) process.stderr.write('[docs-walkthroughs.e2e] skipped: the walk-throughs run on the embedded engine\n');

const documents = markdownFiles(ROOT)
  .map((file) => ({ file, blocks: runnableBlocks(fs.readFileSync(path.join(ROOT, file), 'utf8')) }))
  .filter((d) => d.blocks.length > 0);

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

interface Service {
  child: ChildProcess;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Starts the service on an empty embedded data dir and reads the credentials its banner prints. */
async function startService(dataDir: string): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      PGLITE_DATA_DIR: dataDir,
      SANDBOX: 'true',
      ROLE: 'all',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const credentials = await new Promise<{ clientId: string; clientSecret: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no credentials banner within ${STARTUP_MS / 1000} s:\n${out}${err}`));
      child.kill('SIGKILL');
    }, STARTUP_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const id = /clientId:\s+(\S+)/.exec(out);
      const secret = /clientSecret:\s+(\S+)/.exec(out);
      if (id && secret) {
        clearTimeout(timer);
        resolve({ clientId: id[1], clientSecret: secret[1] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code}) before its banner:\n${out}${err}`));
    });
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, ...credentials };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

(onPostgres ? describe.skip : describe)('the runnable walk-throughs in README.md and docs/', () => {
  it('include the README tour', () => {
    expect(documents.map((d) => d.file)).toContain('README.md');
  });

  it.each(documents.map((d) => [d.file, d.blocks] as const))(
    '%s runs as written against a started service',
    async (file, blocks) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-walkthrough-'));
      const service = await startService(path.join(dir, 'pglite'));
      const work = path.join(dir, 'work');
      fs.mkdirSync(work);
      fs.writeFileSync(path.join(work, 'walkthrough.sh'), script(blocks));
      // Its own process group, so a receiver a block leaves running in the background is stopped too.
      const bash = spawn('bash', ['walkthrough.sh'], {
        cwd: work,
        detached: true,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          BASE_URL: service.baseUrl,
          CLIENT_ID: service.clientId,
          CLIENT_SECRET: service.clientSecret,
          RECEIVER_PORT: String(await freePort()),
          // A walk-through's `node` snippets require() the repository's packages (@turnkey/crypto,
          // ...), as a reader's project would after installing them.
          NODE_PATH: path.join(ROOT, 'node_modules'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      bash.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      bash.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const guard = setTimeout(() => process.kill(-bash.pid!, 'SIGKILL'), SCRIPT_MS);
      try {
        const [code] = (await once(bash, 'exit')) as [number | null];
        const outputs = blockOutputs(stdout, blocks.length);
        const failed = blocks[outputs.length];
        if (code !== 0 || failed) {
          throw new Error(
            `${file}: the block at line ${failed?.line ?? '?'} failed (bash exit ${code}).\n` +
              `stdout:\n${stdout.slice(-3000)}\nstderr:\n${stderr.slice(-3000)}`,
          );
        }
        const problems = blocks.flatMap((block, n) => {
          const missing = missingLines(outputs[n], block.expected);
          return missing.length
            ? [`the block at line ${block.line}: expected, in order:\n  ${missing.join('\n  ')}\ngot:\n${outputs[n]}`]
            : [];
        });
        expect(problems).toEqual([]);
      } finally {
        clearTimeout(guard);
        try {
          process.kill(-bash.pid!, 'SIGTERM');
        } catch {
          // the group has already exited
        }
        await stop(service.child);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
