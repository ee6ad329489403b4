import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with a request: `forward` it; `down`: the deployment behind is unreachable
 * (the connection is cut at once); `drop-settlement-answers`: settlement messages
 * (`/.well-known/uma-settlement`) reach the deployment, which acts on them, but its answer is lost
 * (the connection is cut when it arrives); `hold-settlement-answers`: the same, but the answer is
 * held (the caller waits) until `releaseHeld()` cuts it; everything else is forwarded.
 */
export type ProxyMode = 'forward' | 'down' | 'drop-settlement-answers' | 'hold-settlement-answers';

/**
 * A real HTTP proxy on 127.0.0.1 in front of one deployment, whose UMA domain is the proxy's
 * (`localhost:<proxy port>`): counterparties reach it only through here. The deployment behind can
 * be replaced (a restart on another port) by setting `target`.
 */
export class UmaProxy {
  mode: ProxyMode = 'forward';
  target = 0;
  /** Settlement messages whose answer was dropped (the deployment behind answered them). */
  dropped = 0;
  private server: http.Server | null = null;
  private held: Array<() => void> = [];
  private heldWaiters: Array<{ count: number; resolve: () => void }> = [];

  /** Resolves once `count` settlement answers are held (the deployment behind acted on them). */
  waitHeld(count: number): Promise<void> {
    if (this.held.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.heldWaiters.push({ count, resolve }));
  }

  /** Cuts every held answer's connection (the caller never gets it). */
  releaseHeld(): void {
    const held = this.held;
    this.held = [];
    held.forEach((cut) => cut());
  }

  static async start(): Promise<UmaProxy> {
    const proxy = new UmaProxy();
    proxy.server = http.createServer((req, res) => proxy.handle(req, res));
    await new Promise<void>((resolve) => proxy.server!.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get domain(): string {
    return `localhost:${(this.server!.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.releaseHeld();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.mode === 'down' || this.target === 0) {
      req.socket.destroy();
      return;
    }
    const settlement = (req.url ?? '').startsWith('/.well-known/uma-settlement');
    const drop = this.mode === 'drop-settlement-answers' && settlement;
    const hold = this.mode === 'hold-settlement-answers' && settlement;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: this.target,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: this.domain, 'content-length': String(body.length) },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            if (hold) {
              this.held.push(() => req.socket.destroy());
              const ready = this.heldWaiters.filter((w) => this.held.length >= w.count);
              this.heldWaiters = this.heldWaiters.filter((w) => this.held.length < w.count);
              ready.forEach((w) => w.resolve());
              return;
            }
            if (drop) {
              this.dropped++;
              req.socket.destroy(); // the deployment acted; its answer never arrives
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(parts));
          });
        },
      );
      upstream.on('error', () => req.socket.destroy());
      upstream.end(body);
    });
  }
}
