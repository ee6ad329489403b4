import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
export class EmbeddedLockedError extends Error {
}
/**
 * One process at a time may hold an embedded data dir, whatever path names it: the lock is on its
 * real path (`realDir`, from `fs.realpathSync`), so a symlink or `..` reaches the same lock. It is
 * a listening Unix socket named from a hash of that path, which the OS removes when its holder
 * exits, however it exits (no stale lock to clear, no pid that may have been reused). On Linux
 * the socket lives in the abstract namespace (no file at all); elsewhere it is a socket file in the
 * temp dir, and one nobody answers on is stale and taken over. A client that connects is told the
 * holder's pid, for the message.
 */
export async function lockDataDir(realDir) {
    const hash = createHash('sha256').update(realDir).digest('hex');
    const abstract = process.platform === 'linux';
    const address = abstract ? `\0payments-pglite-${hash}` : join(tmpdir(), `payments-pglite-${hash.slice(0, 32)}.lock`);
    for (let attempt = 0;; attempt++) {
        const server = createServer((socket) => socket.end(String(process.pid)));
        try {
            await listen(server, address);
            server.unref(); // the lock never keeps the process alive by itself
            return () => new Promise((ok) => {
                server.close(() => ok());
                server.unref();
            });
        }
        catch (error) {
            if (error.code !== 'EADDRINUSE')
                throw error;
            const holder = await askHolder(address);
            if (holder === null && !abstract && attempt === 0) {
                rmSync(address, { force: true }); // a socket file left by a dead process
                continue;
            }
            throw new EmbeddedLockedError(`The embedded database at ${realDir} is in use by ${holder ? `process ${holder}` : 'another process'}. ` +
                'Stop that process first, or point PGLITE_DATA_DIR elsewhere (or set DATABASE_URL).');
        }
    }
}
function listen(server, address) {
    return new Promise((ok, fail) => {
        server.once('error', fail);
        server.listen(address, () => {
            server.off('error', fail);
            ok();
        });
    });
}
/** The holder's pid (as it tells it), '' when it answers nothing, null when nobody listens. */
function askHolder(address) {
    return new Promise((resolve) => {
        let answer = '';
        const socket = connect(address);
        socket.setEncoding('utf8');
        socket.setTimeout(2000, () => {
            socket.destroy();
            resolve(''); // a holder too busy to answer still holds the lock
        });
        socket.on('data', (chunk) => (answer += chunk));
        socket.on('end', () => resolve(/^\d+$/.test(answer) ? answer : ''));
        socket.on('error', () => resolve(null));
    });
}
//# sourceMappingURL=embedded-lock.js.map