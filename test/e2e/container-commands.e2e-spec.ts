import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { MIGRATIONS } from '../../src/database/schema.js';
import { isolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';
import { TEST_WEBHOOK_KEY } from '../support/test-app.js';

/**
 * The commands the image and the Kubernetes manifests run, on the built output (`npm test` builds
 * first): `node dist/src/cli.js migrate` (the migration Job), `node dist/src/main.js` with each
 * ROLE (the Deployments), and `node dist/src/healthcheck.js` (the Dockerfile HEALTHCHECK).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

function run(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', WEBHOOK_KEY_ENCRYPTION_KEY: TEST_WEBHOOK_KEY, SANDBOX: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function exitOf(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** Waits for the server's `listening` log line and answers its port. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg?.startsWith('listening') && entry.port) resolve(entry.port);
    });
    child.once('exit', () => reject(new Error('the server exited before listening')));
  });
}

describe('the container entrypoints', () => {
  let db: IsolatedDatabase;

  beforeAll(async () => {
    db = await isolatedDatabase({ migrated: false });
  });
  afterAll(async () => {
    await db.close();
  });

  it('migrate applies every migration and exits 0, then finds nothing to apply', async () => {
    const first = await exitOf(run(['dist/src/cli.js', 'migrate'], { DATABASE_URL: db.url }));
    expect(first).toMatchObject({ code: 0 });
    expect((JSON.parse(first.stdout) as { applied: string[] }).applied).toHaveLength(MIGRATIONS.length);
    const again = await exitOf(run(['dist/src/cli.js', 'migrate'], { DATABASE_URL: db.url }));
    expect(again).toMatchObject({ code: 0 });
    expect(JSON.parse(again.stdout)).toEqual({ applied: [] });
  });

  it.each(['api', 'worker', 'all'])(
    'main.js with ROLE=%s serves the probes, passes the HEALTHCHECK and exits 0 on SIGTERM',
    async (role) => {
      const server = run(['dist/src/main.js'], { DATABASE_URL: db.url, ROLE: role, PORT: '0', LOG_LEVEL: 'info' });
      const exited = exitOf(server);
      try {
        const port = await listeningPort(server);
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
        expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
        const probe = await exitOf(run(['dist/src/healthcheck.js'], { PORT: String(port) }));
        expect(probe.code).toBe(0);
      } finally {
        server.kill('SIGTERM');
      }
      expect((await exited).code).toBe(0);
    },
  );

  it('the HEALTHCHECK fails when nothing answers', async () => {
    const probe = await exitOf(run(['dist/src/healthcheck.js'], { PORT: '1' }));
    expect(probe.code).toBe(1);
  });
});
