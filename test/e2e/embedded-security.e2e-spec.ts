import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { EmbeddedLockedError } from '../../src/database/embedded-lock.js';
import { startEmbeddedDatabase } from '../../src/database/embedded.js';

/**
 * Issue 10 items 2 and 11: only the service itself can connect to its embedded engine, its files
 * are owner-only, and a data dir is locked on its real path by a lock that dies with its holder.
 * (These run on the embedded engine whatever engine the run uses.)
 */
const SLOW = 120_000; // each file-backed start runs initdb: slow on a shared machine
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pps-embedded-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined); // a refused connection also emits 'error'
  await client.connect();
  return client;
}

function startupPacket(): Buffer {
  const params = Buffer.from('user\0postgres\0database\0postgres\0\0');
  const packet = Buffer.alloc(8 + params.length);
  packet.writeInt32BE(packet.length, 0);
  packet.writeInt32BE(196608, 4);
  params.copy(packet, 8);
  return packet;
}

/** Writes the messages on a raw connection and returns all the server said until it closed. */
async function rawExchange(socketDir: string, messages: Buffer[]): Promise<string> {
  const socket = createConnection(join(socketDir, '.s.PGSQL.5432'));
  let received = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (received += chunk));
  for (const message of messages) socket.write(message);
  await once(socket, 'close');
  return received;
}

function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}

describe('the embedded engine’s socket', () => {
  it(
    'is a Unix socket in an owner-only directory, and refuses a client without this start’s password',
    async () => {
      const db = await startEmbeddedDatabase('memory://', 8);
      try {
        const parsed = new URL(db.url);
        const socketDir = decodeURIComponent(parsed.hostname);
        expect(socketDir.startsWith('/')).toBe(true); // no TCP port at all
        expect(parsed.port).toBe('');
        expect(statSync(socketDir).mode & 0o777).toBe(0o700);
        expect(statSync(socketDir).uid).toBe(process.getuid!());

        const wrong = connect(withPassword(db.url, 'guessed'));
        await expect(wrong).rejects.toMatchObject({ code: '28P01' });
        const empty = connect(withPassword(db.url, ''));
        await expect(empty).rejects.toThrow();
        // A raw client that skips the password gets a FATAL error and a closed connection; one that
        // resets mid-handshake harms nothing.
        expect(await rawExchange(socketDir, [startupPacket(), Buffer.from('Q\0\0\0\x0dSELECT 1\0')])).toMatch(
          /^R.*E.*SFATAL.*C08P01.*expected a password message/s,
        );
        const reset = createConnection(join(socketDir, '.s.PGSQL.5432'));
        reset.on('error', () => undefined);
        reset.write(startupPacket(), () => reset.destroy());
        await once(reset, 'close');

        const client = await connect(db.url); // the service's own URL works, SSL negotiation included
        try {
          const { rows } = await client.query<{ n: number }>('SELECT 1 + 1 AS n');
          expect(rows).toEqual([{ n: 2 }]);
        } finally {
          await client.end();
        }
      } finally {
        await db.stop();
      }
      expect(existsSync(decodeURIComponent(new URL(db.url).hostname))).toBe(false); // removed at stop
    },
    SLOW,
  );

  it(
    'creates the data dir and every file in it owner-only, and fixes a dir an older version left open',
    async () => {
      const dataDir = join(dir, 'data');
      mkdirSync(dataDir, { mode: 0o777 });
      chmodSync(dataDir, 0o777);
      writeFileSync(join(dataDir, 'left-by-an-older-version'), 'x', { mode: 0o666 });
      chmodSync(join(dataDir, 'left-by-an-older-version'), 0o666);
      const db = await startEmbeddedDatabase(dataDir, 4);
      try {
        const client = await connect(db.url);
        await client.query('CREATE TABLE written_after_start (id int PRIMARY KEY)');
        await client.query('INSERT INTO written_after_start VALUES (1)');
        await client.query('CHECKPOINT');
        await client.end();
      } finally {
        await db.stop();
      }
      const open = [dataDir, ...readdirSync(dataDir, { recursive: true }).map((p) => join(dataDir, p.toString()))]
        .filter((p) => !lstatSync(p).isSymbolicLink() && (lstatSync(p).mode & 0o077) !== 0)
        .map((p) => `${(lstatSync(p).mode & 0o777).toString(8)} ${p}`);
      expect(open).toEqual([]);
    },
    SLOW,
  );
});

describe('the data-dir lock', () => {
  let lockDir: string;
  let dataDir: string;
  let link: string;
  let holder: Awaited<ReturnType<typeof startEmbeddedDatabase>>;
  beforeAll(async () => {
    lockDir = mkdtempSync(join(tmpdir(), 'pps-lock-'));
    dataDir = join(lockDir, 'data');
    link = join(lockDir, 'link');
    holder = await startEmbeddedDatabase(dataDir, 4);
    symlinkSync(dataDir, link);
  }, SLOW);
  afterAll(async () => {
    await holder.stop();
    rmSync(lockDir, { recursive: true, force: true });
  });

  it('refuses a symlinked path to a held data dir, naming its real path and holder', async () => {
    const second = startEmbeddedDatabase(link, 4);
    await expect(second).rejects.toBeInstanceOf(EmbeddedLockedError);
    await expect(second).rejects.toThrow(
      `The embedded database at ${realpathSync(dataDir)} is in use by process ${process.pid}.`,
    );
    await expect(startEmbeddedDatabase(join(lockDir, '.', 'link', '..', 'data'), 4)).rejects.toBeInstanceOf(
      EmbeddedLockedError,
    );
  });

  it('the service refused by a held dir says why (the real cause) and leaves no key file behind', async () => {
    // Asynchronous: the holder (this process) answers the child's question about its pid.
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH, PORT: '0', PGLITE_DATA_DIR: link, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number];
    expect({ code, stderr: stderr.trim() }).toEqual({
      code: 1,
      stderr:
        `Startup failed: The embedded database at ${realpathSync(dataDir)} is in use by process ${process.pid}. ` +
        'Stop that process first, or point PGLITE_DATA_DIR elsewhere (or set DATABASE_URL).',
    });
    expect(readdirSync(lockDir).sort()).toEqual(['data', 'link']); // no link.webhook-key, no lock file
  });

  it(
    'dies with its holder, and a stale lock file naming a live, unrelated process does not block',
    async () => {
      await holder.stop();
      writeFileSync(`${dataDir}.lock`, String(process.ppid)); // what older versions checked: alive, not an engine
      writeFileSync(`${link}.lock`, String(process.ppid));
      holder = await startEmbeddedDatabase(link, 4); // by the other name, too
      const client = await connect(holder.url);
      expect((await client.query<{ n: number }>('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
      await client.end();
    },
    SLOW,
  );
});
