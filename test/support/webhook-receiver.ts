import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkWebhookBody } from './wire-check.js';

/** One request as the receiver got it: the raw body is what signatures are checked against. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
  /** performance.now() when the body was complete. */
  receivedAt: number;
}

/** How to answer one request. */
export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Answer only after this many ms (server-side latency). */
  delayMs?: number;
  /** Answer only once this settles (e.g. a test holds a delivery in flight). */
  after?: Promise<unknown>;
}

/**
 * A real HTTP server on 127.0.0.1 that records every webhook POST and answers from a script
 * (queued responses first, then the default). Tests await the n-th request instead of sleeping.
 * `stop()` then `start()` again brings it down and up on the same port.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly script: ScriptedResponse[] = [];
  private fallback: ScriptedResponse = { status: 200, body: '{"received":true}' };
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  private server: http.Server | null = null;
  private port = 0;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.start();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/webhooks`;
  }

  /** Answers the next requests with these, in order; then the default. */
  respondWith(...responses: ScriptedResponse[]): this {
    this.script.push(...responses);
    return this;
  }

  setDefault(response: ScriptedResponse): this {
    this.fallback = response;
    return this;
  }

  /** Forgets what was received and scripted (e.g. after a test's setup). */
  reset(): this {
    this.received.length = 0;
    this.script.length = 0;
    this.waiters = [];
    return this;
  }

  /** Resolves with the first `count` requests once that many have arrived. */
  async waitFor(count: number): Promise<ReceivedWebhook[]> {
    if (this.received.length < count) {
      await new Promise<void>((resolve) => this.waiters.push({ count, resolve }));
    }
    return this.received.slice(0, count);
  }

  /** The n-th request (1-based), once it has arrived. */
  async nth(n: number): Promise<ReceivedWebhook> {
    return (await this.waitFor(n))[n - 1];
  }

  /** Listens (again, on the same port after a stop). */
  async start(): Promise<void> {
    const server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and drops open connections: the receiver is down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: ReceivedWebhook['body'];
      try {
        body = JSON.parse(rawBody) as ReceivedWebhook['body'];
      } catch {
        body = { id: '', type: '', timestamp: '', data: {} };
      }
      // Every webhook body is checked against the reference's schema for its type (wire-check.ts).
      checkWebhookBody(rawBody, `webhook ${req.method} ${req.url} ${body.id}`);
      const response = this.script.shift() ?? this.fallback;
      this.received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody,
        body,
        receivedAt: performance.now(),
      });
      const ready = this.waiters.filter((w) => w.count <= this.received.length);
      this.waiters = this.waiters.filter((w) => w.count > this.received.length);
      ready.forEach((w) => w.resolve());
      void this.answer(res, response);
    });
  }

  private async answer(res: http.ServerResponse, response: ScriptedResponse): Promise<void> {
    if (response.after) await response.after.catch(() => undefined);
    if (response.delayMs) await new Promise((resolve) => setTimeout(resolve, response.delayMs));
    if (res.destroyed) return;
    res.writeHead(response.status ?? 200, { 'Content-Type': 'application/json', ...response.headers });
    res.end(response.body ?? '');
  }
}
