import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { ProtocolQueue } from './embedded-protocol-queue.js';

export interface EmbeddedDatabase {
  /** A postgres:// URL that `pg` (and so TypeORM) uses exactly as it would a PostgreSQL server. */
  url: string;
  stop(): Promise<void>;
}

export class EmbeddedLockedError extends Error {}

/**
 * One process at a time may hold an embedded data dir: a lock file beside it records the holder's
 * pid. A lock left by a dead process is taken over.
 */
function acquireLock(dataDir: string): () => void {
  const lockPath = `${resolve(dataDir)}.lock`;
  mkdirSync(dirname(lockPath), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(readFileSync(lockPath, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new EmbeddedLockedError(
          `The embedded database at ${resolve(dataDir)} is in use by process ${pid}. ` +
            'Stop that process first, or point PGLITE_DATA_DIR elsewhere (or set DATABASE_URL).',
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new EmbeddedLockedError(`Could not lock ${lockPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Starts PGlite (PostgreSQL compiled to WASM) in this process and serves it on a loopback port
 * with pglite-socket's protocol handler, one per connection, multiplexed by ProtocolQueue so each
 * transaction and each extended-protocol exchange stays whole.
 */
export async function startEmbeddedDatabase(dataDir: string, maxConnections: number): Promise<EmbeddedDatabase> {
  const inMemory = dataDir.startsWith('memory://');
  const release = inMemory ? () => undefined : acquireLock(dataDir);
  try {
    if (!inMemory) mkdirSync(resolve(dataDir), { recursive: true });
    const { PGlite } = await import('@electric-sql/pglite');
    const { PGLiteSocketHandler } = await import('@electric-sql/pglite-socket');
    const db = await PGlite.create(inMemory ? dataDir : resolve(dataDir));
    const queue = new ProtocolQueue(db);
    const handlers = new Map<Socket, InstanceType<typeof PGLiteSocketHandler>>();
    const server = createServer((socket) => {
      // A handler that detaches itself on a socket error drops our 'close' listener with its own.
      for (const open of handlers.keys()) if (open.destroyed) handlers.delete(open);
      if (handlers.size >= maxConnections) {
        socket.destroy();
        return;
      }
      const handler = new PGLiteSocketHandler({ queryQueue: queue as never, closeOnDetach: true });
      handlers.set(socket, handler);
      socket.on('close', () => handlers.delete(socket));
      handler.attach(socket).catch(() => socket.destroy());
    });
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(0, '127.0.0.1', () => ok());
    });
    const { port } = server.address() as AddressInfo;
    let stopped = false;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
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
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
