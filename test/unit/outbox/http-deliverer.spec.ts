import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpDeliverer, parseRetryAfter } from '../../../src/outbox/delivery/http-deliverer.js';

/** A real local server; `handler` decides each response, `received` records requests. */
async function startServer(handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void) {
  const received: Array<{ method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Server = Awaited<ReturnType<typeof startServer>>;

describe('HttpDeliverer', () => {
  let deliverer: HttpDeliverer;
  let server: Server | undefined;
  const body = JSON.stringify({ id: 'Webhook:1', type: 'TEST', data: {} });

  beforeEach(() => {
    deliverer = new HttpDeliverer({ allowPrivateTargets: true });
  });
  afterEach(async () => {
    deliverer.close();
    await server?.close();
    server = undefined;
  });

  it('POSTs the body with JSON headers and reports a 200', async () => {
    server = await startServer((_req, res) => res.end('{"received":true}'));
    const result = await deliverer.deliver(server.url, body, { 'X-Grid-Signature': 'sig' });

    expect(result).toEqual(
      expect.objectContaining({ status: 200, responseBody: '{"received":true}', retryAfterMs: null, error: null }),
    );
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [request] = server.received;
    expect(request.method).toBe('POST');
    expect(request.body).toBe(body);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(request.headers['user-agent']).toEqual(expect.any(String));
    expect(request.headers['x-grid-signature']).toBe('sig');
  });

  it('keeps only the first 1 KiB of a large response body', async () => {
    server = await startServer((_req, res) => res.end('a'.repeat(1000) + 'b'.repeat(200_000)));
    const result = await deliverer.deliver(server.url, body, {});
    expect(result.status).toBe(200);
    expect(result.responseBody).toBe('a'.repeat(1000) + 'b'.repeat(24));
  });

  it('reports Retry-After of a 503', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(503, { 'Retry-After': '7' });
      res.end('busy');
    });
    const result = await deliverer.deliver(server.url, body, {});
    expect(result).toEqual(expect.objectContaining({ status: 503, responseBody: 'busy', retryAfterMs: 7000 }));
  });

  it('does not follow redirects', async () => {
    server = await startServer((req, res) => {
      res.writeHead(req.url === '/hook' ? 302 : 200, { Location: '/elsewhere' });
      res.end();
    });
    const result = await deliverer.deliver(server.url, body, {});
    expect(result.status).toBe(302);
    expect(result.error).toBe('redirect not followed');
    expect(server.received.map((r) => r.url)).toEqual(['/hook']);
  });

  it('reports a refused connection', async () => {
    const closed = await startServer(() => undefined);
    await closed.close(); // the port is now free: nothing listens there
    const result = await deliverer.deliver(closed.url, body, {});
    expect(result).toEqual(expect.objectContaining({ status: null, responseBody: '', error: 'ECONNREFUSED' }));
  });

  it('times out a server that never answers', async () => {
    const fast = new HttpDeliverer({ allowPrivateTargets: true, timeoutMs: 200 });
    server = await startServer(() => undefined);
    try {
      const result = await fast.deliver(server.url, body, {});
      expect(result).toEqual(expect.objectContaining({ status: null, error: 'timeout' }));
      expect(server.received).toHaveLength(1);
    } finally {
      fast.close();
    }
  });

  it('keeps the status and partial body when the body stalls past the timeout', async () => {
    const fast = new HttpDeliverer({ allowPrivateTargets: true, timeoutMs: 200 });
    server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('partial'); // ...and never ends
    });
    try {
      const result = await fast.deliver(server.url, body, {});
      expect(result).toEqual(expect.objectContaining({ status: 200, responseBody: 'partial', error: 'timeout' }));
    } finally {
      fast.close();
    }
  });

  it('reuses one keep-alive socket for sequential deliveries', async () => {
    server = await startServer((_req, res) => res.end('ok'));
    expect((await deliverer.deliver(server.url, body, {})).status).toBe(200);
    expect((await deliverer.deliver(server.url, body, {})).status).toBe(200);
    expect(server.received).toHaveLength(2);
    expect(server.connections()).toBe(1);
  });

  it('still reuses the socket after truncating a moderately large body', async () => {
    server = await startServer((_req, res) => res.end('x'.repeat(10_000)));
    await deliverer.deliver(server.url, body, {});
    await deliverer.deliver(server.url, body, {});
    expect(server.connections()).toBe(1);
  });

  it('never throws on a bad URL', async () => {
    expect((await deliverer.deliver('not a url', body, {})).error).toBe('ERR_INVALID_URL');
    expect((await deliverer.deliver('ftp://example.com/x', body, {})).error).toBe('unsupported protocol ftp:');
  });

  describe('with private targets not allowed', () => {
    let strict: HttpDeliverer;
    beforeEach(() => {
      strict = new HttpDeliverer({ allowPrivateTargets: false });
    });
    afterEach(() => strict.close());

    it.each(['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]'])('refuses %s without connecting', async (host) => {
      server = await startServer((_req, res) => res.end('ok'));
      const result = await strict.deliver(`http://${host}:${server.port}/hook`, body, {});
      expect(result).toEqual(expect.objectContaining({ status: null, error: 'blocked: private address' }));
      expect(server.connections()).toBe(0);
      expect(server.received).toHaveLength(0);
    });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('parses seconds and HTTP-dates relative to now', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});
