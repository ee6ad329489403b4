import { SOCKET_DIR_PREFIX } from './embedded-url.js';
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inspect } from 'node:util';
import { authenticateStartup } from './embedded-auth.js';
import { lockDataDir } from './embedded-lock.js';
import { ProtocolQueue } from './embedded-protocol-queue.js';

export interface EmbeddedDatabase {
  /**
   * A postgres:// URL that `pg` (and so TypeORM) uses exactly as it would a PostgreSQL server: a
   * Unix socket in an owner-only directory, with this start's random password.
   */
  url: string;
  /** The engine's files as a tarball, for `startEmbeddedDatabase(..., { loadDataDir })`. */
  dump(): Promise<Blob>;
  stop(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  /**
   * Start an in-memory engine from a dump (`dump()` of another): no initdb, no migrations to run
   * again. The test suite clones its migrated database this way.
   */
  loadDataDir?: Blob;
}

/**
 * Starts PGlite (PostgreSQL compiled to WASM) in this process and serves it with pglite-socket's
 * protocol handler, one per connection, multiplexed by ProtocolQueue so each transaction and each
 * extended-protocol exchange stays whole.
 *
 * Nothing but this process's own pools may connect: the socket is a Unix socket (no TCP port) in a
 * fresh directory of mode 0700, and every connection must present a password drawn at random for
 * this start (checked in constant time before PGlite sees a byte). A data dir is created
 * owner-only and its files are kept so (umask 077; files from older versions are fixed at start),
 * and it is locked on its real path (see lockDataDir).
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  maxConnections: number,
  options: EmbeddedDatabaseOptions = {},
): Promise<EmbeddedDatabase> {
  const inMemory = dataDir.startsWith('memory://');
  let realDir: string | undefined;
  if (!inMemory) {
    restrictUmask();
    mkdirSync(resolve(dataDir), { recursive: true, mode: 0o700 });
    realDir = realpathSync(resolve(dataDir));
  }
  const releaseLock = realDir ? await lockDataDir(realDir) : () => Promise.resolve();
  const socketDir = mkdtempSync(join(tmpdir(), SOCKET_DIR_PREFIX)); // mode 0700
  const cleanUp = async () => {
    rmSync(socketDir, { recursive: true, force: true });
    await releaseLock();
  };
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { PGLiteSocketHandler } = await import('@electric-sql/pglite-socket');
    const db = await openPGlite(PGlite, realDir ?? dataDir, options.loadDataDir);
    // initdb copies a new cluster's files in with mode 0666, and older versions left them so.
    if (realDir) makeOwnerOnly(realDir);
    const queue = new ProtocolQueue(db);
    const secret = randomBytes(32).toString('hex');
    const handlers = new Map<Socket, InstanceType<typeof PGLiteSocketHandler>>();
    const serve = async (socket: Socket) => {
      const startup = await authenticateStartup(socket, secret);
      if (!startup || socket.destroyed) return;
      const handler = new PGLiteSocketHandler({ queryQueue: queue as never, closeOnDetach: true });
      handlers.set(socket, handler);
      socket.on('close', () => handlers.delete(socket));
      await handler.attach(socket);
      socket.emit('data', startup); // PGlite answers it: AuthenticationOk, parameters, ReadyForQuery
    };
    const server = createServer((socket) => {
      // A client that resets mid-handshake must not crash the process with an unhandled 'error'.
      socket.on('error', () => socket.destroy());
      // A handler that detaches itself on a socket error drops our 'close' listener with its own.
      for (const open of handlers.keys()) if (open.destroyed) handlers.delete(open);
      if (handlers.size >= maxConnections) {
        socket.destroy();
        return;
      }
      serve(socket).catch(() => socket.destroy());
    });
    // pg connects to `<host>/.s.PGSQL.<port>` when the host is a directory.
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(join(socketDir, '.s.PGSQL.5432'), () => ok());
    });
    let stopped = false;
    return {
      url: `postgres://postgres:${secret}@${encodeURIComponent(socketDir)}/postgres`,
      dump: () => db.dumpDataDir('none'),
      async stop() {
        if (stopped) return;
        stopped = true;
        const closing = new Promise<void>((ok) => server.close(() => ok()));
        // Detach every handler (rolling back what it left open) before the engine closes, so no
        // late socket 'close' callback reaches a closed engine.
        await Promise.allSettled([...handlers.values()].map((handler) => handler.detach(true)));
        for (const socket of handlers.keys()) socket.destroy();
        await closing;
        await db.close();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** PGlite reports some failures as plain objects (e.g. an Emscripten exit status): give them a cause. */
async function openPGlite(
  PGlite: typeof import('@electric-sql/pglite').PGlite,
  dir: string,
  loadDataDir?: Blob,
): Promise<import('@electric-sql/pglite').PGlite> {
  try {
    return await (loadDataDir ? PGlite.create(dir, { loadDataDir }) : PGlite.create(dir));
  } catch (error) {
    if (error instanceof Error) throw error;
    throw new Error(`PGlite could not open ${dir}: ${inspect(error, { depth: 4 })}`, { cause: error });
  }
}

/** Files the engine creates from now on are owner-only (PGlite's file system creates them 0666). */
function restrictUmask(): void {
  try {
    process.umask(process.umask(0o077) | 0o077);
  } catch {
    // Worker threads cannot change the umask; makeOwnerOnly still fixes what exists at start.
  }
}

/** The data dir and everything in it, owner-only (a dir of an older version had mode 0666 files). */
function makeOwnerOnly(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { recursive: true })) {
    const path = join(dir, entry.toString());
    const stat = lstatSync(path);
    if (!stat.isSymbolicLink() && (stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & 0o700);
  }
}
