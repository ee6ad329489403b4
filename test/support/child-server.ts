import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_WEBHOOK_KEY } from './test-app.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One JSON log line of the child (pino). */
export type LogLine = Record<string, unknown> & { msg?: string };

/**
 * A real server process (`node dist/src/main.js`, or `npm start`) on the run's database (or
 * `env.DATABASE_URL`), with its stdout log lines parsed so a test can await one.
 */
export class ChildServer {
  readonly lines: LogLine[] = [];
  /** Every stdout line as printed (log lines and anything else, e.g. the credentials banner). */
  readonly output: string[] = [];
  private outputWaiters: Array<{ test: (text: string) => boolean; resolve: (text: string) => void }> = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private waiters: Array<{ test: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = [];
  private stderr = '';

  private constructor(readonly child: ChildProcess) {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const text = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        this.output.push(text);
        this.outputWaiters = this.outputWaiters.filter((w) => (w.test(text) ? (w.resolve(text), false) : true));
        if (!text.startsWith('{')) continue;
        const line = JSON.parse(text) as LogLine;
        this.lines.push(line);
        this.waiters = this.waiters.filter((w) => (w.test(line) ? (w.resolve(line), false) : true));
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  static start(command: string[], env: Record<string, string> = {}): ChildServer {
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATABASE_URL: process.env.TEST_DATABASE_URL ?? '',
        // The ring form (the single-key variable is deprecated and would add a warning line to a start).
        KEY_ENCRYPTION_KEYS: TEST_WEBHOOK_KEY,
        PORT: '0',
        ROLE: 'api',
        LOG_LEVEL: 'info',
        RATE_LIMIT_REQUESTS: '1000000',
        // DATABASE_URL makes SANDBOX default to false; children run the sandbox unless told otherwise.
        SANDBOX: 'true',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ChildServer(child);
  }

  /** The first log line (already written or to come) that passes `test`. */
  waitFor(test: (l: LogLine) => boolean, what: string): Promise<LogLine> {
    const seen = this.lines.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      this.waiters.push({ test, resolve });
      void this.exited.then(({ code }) =>
        reject(new Error(`exited (${code}) before logging ${what}: ${this.stderr.slice(-2000)}`)),
      );
    });
  }

  /** The first stdout line (already printed or to come) that passes `test`. */
  waitForOutput(test: (text: string) => boolean, what: string): Promise<string> {
    const seen = this.output.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      this.outputWaiters.push({ test, resolve });
      void this.exited.then(({ code }) =>
        reject(new Error(`exited (${code}) before printing ${what}: ${this.stderr.slice(-2000)}`)),
      );
    });
  }

  /** The first log line with this message. */
  log(msg: string): Promise<LogLine> {
    return this.waitFor((l) => l.msg === msg, `"${msg}"`);
  }

  /** The "listening on" line (its `port` and `pid`). */
  listening(): Promise<LogLine & { port: number; pid: number }> {
    return this.waitFor((l) => String(l.msg).startsWith('listening on'), 'listening') as Promise<
      LogLine & { port: number; pid: number }
    >;
  }

  get errors(): string {
    return this.stderr;
  }
}

/**
 * The kill -9 harness of the crash tests: `clients` concurrent senders take the next of `items` and
 * `send` it to the running `server`; `send` answers what the server acknowledged (or null), and
 * throws once the server is gone. When `enough` were acknowledged (or every item was sent) the
 * server is killed with SIGKILL; answers every acknowledgement, after checking the kill was the end.
 */
export async function killMidBurst<T, A>(
  server: ChildServer,
  items: readonly T[],
  send: (item: T) => Promise<A | null>,
  { clients = 6, enough = 15 }: { clients?: number; enough?: number } = {},
): Promise<A[]> {
  const acknowledged: A[] = [];
  let next = 0;
  let reached!: () => void;
  const enoughSeen = new Promise<void>((resolve) => (reached = resolve));
  const client = async () => {
    while (next < items.length) {
      const item = items[next++];
      try {
        const ack = await send(item);
        if (ack !== null) acknowledged.push(ack);
        if (acknowledged.length === enough) reached();
      } catch {
        return; // the server is gone
      }
    }
    reached(); // every item sent before the kill: the caller's checks still hold
  };
  const running = Promise.all(Array.from({ length: clients }, client));
  await enoughSeen;
  server.child.kill('SIGKILL');
  await running;
  const exit = await server.exited;
  if (exit.signal !== 'SIGKILL') throw new Error(`the server ended with ${JSON.stringify(exit)}, not SIGKILL`);
  return acknowledged;
}
