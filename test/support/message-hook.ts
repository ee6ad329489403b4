import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message as `MESSAGE_HOOK_URL` received it. */
export interface HookMessage {
  channel: 'EMAIL' | 'SMS';
  to: string;
  purpose: string;
  code: string;
}

type Match = Partial<Pick<HookMessage, 'channel' | 'to' | 'purpose'>>;

const matches = (message: HookMessage, match: Match) =>
  (match.channel === undefined || message.channel === match.channel) &&
  (match.to === undefined || message.to === match.to) &&
  (match.purpose === undefined || message.purpose === match.purpose);

/**
 * A real HTTP server on 127.0.0.1 standing in for the operator's email/SMS bridge: pass
 * `{ MESSAGE_HOOK_URL: hook.url }` to startTestApp, then `await hook.next({ channel, to })` for the
 * next message to that address (each message is handed out once; no sleeps). `refuse(n)` answers
 * the next n messages 503.
 */
export class MessageHook {
  private readonly unclaimed: HookMessage[] = [];
  private waiters: Array<{ match: Match; resolve: (message: HookMessage) => void }> = [];
  private refusals = 0;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<MessageHook> {
    const holder: { hook?: MessageHook } = {};
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => holder.hook!.receive(Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.hook = new MessageHook(server, `http://127.0.0.1:${port}/messages`);
    return holder.hook;
  }

  /** Every message received and not yet handed out by `next`. */
  get pending(): readonly HookMessage[] {
    return this.unclaimed;
  }

  refuse(count: number): void {
    this.refusals += count;
  }

  next(match: Match = {}): Promise<HookMessage> {
    const index = this.unclaimed.findIndex((message) => matches(message, match));
    if (index >= 0) return Promise.resolve(this.unclaimed.splice(index, 1)[0]);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private receive(raw: string, res: http.ServerResponse): void {
    if (this.refusals > 0) {
      this.refusals--;
      res.writeHead(503).end();
      return;
    }
    const message = JSON.parse(raw) as HookMessage;
    res.writeHead(204).end();
    const waiter = this.waiters.find((candidate) => matches(message, candidate.match));
    if (waiter) {
      this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
      waiter.resolve(message);
    } else {
      this.unclaimed.push(message);
    }
  }
}
