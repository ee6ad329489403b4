import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/**
 * The real `npm start` path: the built service as a child process on its own embedded data dir.
 * Waits on what the process prints (no sleeps).
 */
const root = process.cwd();
let dataDir: string;
let child: ChildProcess;
let lines: string[] = [];

function waitForLine(predicate: (line: string) => boolean): Promise<string> {
  const found = lines.find(predicate);
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const onLine = (line: string) => {
      if (predicate(line)) resolve(line);
    };
    reader.on('line', onLine);
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${lines.join('\n')}`)));
  });
}
let reader: ReturnType<typeof createInterface>;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'pps-smoke-'));
  child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: root,
    env: { PATH: process.env.PATH, PORT: '0', PGLITE_DATA_DIR: join(dataDir, 'db'), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reader = createInterface({ input: child.stdout! });
  reader.on('line', (line) => lines.push(line));
});

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  rmSync(dataDir, { recursive: true, force: true });
  lines = [];
});

it('starts on the embedded engine, prints credentials, serves authenticated calls, refuses a second holder', async () => {
  const curl = await waitForLine((l) => l.trim().startsWith('curl -u'));
  const match = /curl -u '([^:]+):([^']+)' (http:\/\/localhost:\d+)(\/\S+)/.exec(curl);
  expect(match).not.toBeNull();
  const [, id, secret, base, path] = match!;

  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  const auth = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const res = await fetch(`${base}${path}`, { headers: { Authorization: auth } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: unknown[]; totalCount: number };
  expect(body.totalCount).toBe(1);

  // The CLI pointed at the same data dir refuses with a clear message instead of corrupting it.
  const cli = spawnSync(process.execPath, ['dist/src/cli.js', 'platform:create', '--name', 'Second'], {
    cwd: root,
    env: { PATH: process.env.PATH, PGLITE_DATA_DIR: join(dataDir, 'db') },
    encoding: 'utf8',
  });
  expect(cli.status).toBe(1);
  expect(cli.stderr).toMatch(/in use by process/);
  expect(cli.stdout).toBe('');

  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number];
  expect(code).toBe(0);

  // Once the server is gone, the CLI creates a platform and prints exactly one JSON object.
  const created = spawnSync(process.execPath, ['dist/src/cli.js', 'platform:create', '--name', 'Second'], {
    cwd: root,
    env: { PATH: process.env.PATH, PGLITE_DATA_DIR: join(dataDir, 'db') },
    encoding: 'utf8',
  });
  expect(created.status).toBe(0);
  const out = JSON.parse(created.stdout) as {
    platform: { id: string; name: string };
    token: { clientSecret: string; permissions: string[] };
  };
  expect(out.platform.name).toBe('Second');
  expect(out.platform.id).toMatch(/^Platform:/);
  expect(out.token.clientSecret).toEqual(expect.any(String));
  expect(out.token.permissions.sort()).toEqual(['MANAGE', 'TRANSACT', 'VIEW']);
});
