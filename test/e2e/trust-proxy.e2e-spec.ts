import { AuditRefusals } from '../../src/audit/audit-refusals.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createRootLogger } from '../../src/logging/logger.js';
import { basicAuth, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * Issue 33, the client address: TRUST_PROXY decides whose X-Forwarded-For counts. Behind a real
 * reverse proxy (node:http, appending X-Forwarded-For as an ingress does) two clients, on their own
 * loopback addresses, get their own console sign-in limits and their own address in the audit
 * trail and the access log; a value a client writes itself never counts, and with the setting off
 * a forged header changes nothing.
 */

type Line = Record<string, unknown> & { msg?: string; reqId?: string };

/** The app's log lines; `next` resolves at the first line (past or future) matching. */
class LogCapture extends Writable {
  readonly lines: Line[] = [];
  private waiting: Array<{ match: (l: Line) => boolean; resolve: (l: Line) => void }> = [];

  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    for (const raw of chunk.toString('utf8').split('\n').filter(Boolean)) {
      const line = JSON.parse(raw) as Line;
      this.lines.push(line);
      this.waiting = this.waiting.filter((w) => (w.match(line) ? (w.resolve(line), false) : true));
    }
    done();
  }

  next(match: (l: Line) => boolean): Promise<Line> {
    const seen = this.lines.find(match);
    return seen ? Promise.resolve(seen) : new Promise((resolve) => this.waiting.push({ match, resolve }));
  }
}

/** A reverse proxy as an ingress is one: appends the address it saw to X-Forwarded-For, says https. */
async function startProxy(target: number): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const seen = req.socket.remoteAddress!.replace(/^::ffff:/, '');
    const prior = req.headers['x-forwarded-for'];
    const headers = {
      ...req.headers,
      'x-forwarded-for': prior ? `${String(prior)}, ${seen}` : seen,
      'x-forwarded-proto': 'https',
    };
    const upstream = http.request(
      { host: '127.0.0.1', port: target, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read members at any depth
  body: any;
}

/** One request from a client socket bound to `from` (127.0.0.2, 127.0.0.3: Linux routes all of 127/8). */
function call(
  from: string,
  port: number,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method,
        path,
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const SESSION = '/console/api/session';
const portOf = (t: TestApp) => (t.app.getHttpServer().address() as AddressInfo).port;

async function auditOf(p: TestPlatform, resourceId: string) {
  const res = await p.get(`/audit-events?limit=100&resourceId=${encodeURIComponent(resourceId)}`);
  expect(res.status).toBe(200);
  return (res.body as { data: Array<{ sourceAddress: string | null; requestId: string; action: string }> }).data;
}

describe('TRUST_PROXY set to the proxy (127.0.0.1), through a reverse proxy', () => {
  const logs = new LogCapture();
  let t: TestApp;
  let proxy: { port: number; close: () => Promise<void> };
  beforeAll(async () => {
    t = await startTestApp(
      { TRUST_PROXY: '127.0.0.1', CONSOLE_SIGNIN_FAILURES: '2', LOG_LEVEL: 'info' },
      { logger: createRootLogger('info', logs) },
    );
    proxy = await startProxy(portOf(t));
  });
  afterAll(async () => {
    await proxy.close();
    await t.close();
  });

  it('two clients behind it get separate sign-in limits; a client-written X-Forwarded-For never counts', async () => {
    const p = await TestPlatform.create(t);
    const wrong = { clientId: p.clientId, clientSecret: 'wrong' };
    const right = { clientId: p.clientId, clientSecret: p.clientSecret };
    // client A fails twice, each time claiming to be someone else
    for (const forged of ['127.0.0.9', '10.0.0.1'])
      expect(
        (await call('127.0.0.2', proxy.port, 'POST', SESSION, { body: wrong, headers: { 'x-forwarded-for': forged } }))
          .status,
      ).toBe(401);
    const limited = await call('127.0.0.2', proxy.port, 'POST', SESSION, {
      body: right,
      headers: { 'x-forwarded-for': '127.0.0.77' },
    });
    expect({ status: limited.status, code: limited.body.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    // client B, behind the same proxy, is not limited by A's failures
    const b = await call('127.0.0.3', proxy.port, 'POST', SESSION, { body: right });
    expect(b.status).toBe(200);
    // X-Forwarded-Proto from the trusted proxy: the session cookie is Secure (https at the ingress)
    expect(String(b.headers['set-cookie'])).toContain('; Secure');
  });

  it("the audit trail and the access log show each client's own address", async () => {
    const p = await TestPlatform.create(t);
    const auth = { authorization: p.authorization };
    const made: Array<{ from: string; id: string; reqId: string }> = [];
    for (const from of ['127.0.0.2', '127.0.0.3']) {
      const res = await call(from, proxy.port, 'POST', `${V}/tokens`, {
        headers: { ...auth, 'x-forwarded-for': '198.51.100.1' }, // a client's own claim: ignored
        body: { name: `from ${from}`, permissions: ['VIEW'] },
      });
      expect(res.status).toBe(201);
      made.push({ from, id: res.body.id as string, reqId: res.headers['x-request-id'] as string });
    }
    for (const { from, id, reqId } of made) {
      const [event] = await auditOf(p, id);
      expect({ id, action: event?.action, sourceAddress: event?.sourceAddress }).toEqual({
        id,
        action: 'createToken',
        sourceAddress: from,
      });
      const line = await logs.next((l) => l.reqId === reqId && l.msg === 'request completed');
      expect((line.req as { remoteAddress?: string }).remoteAddress).toBe(from);
    }
  });

  it('a client reaching the service directly (not through a trusted hop) is its own socket address', async () => {
    const p = await TestPlatform.create(t);
    const res = await call('127.0.0.2', portOf(t), 'POST', `${V}/tokens`, {
      headers: { authorization: p.authorization, 'x-forwarded-for': '127.0.0.1', 'x-forwarded-proto': 'https' },
      body: { name: 'direct', permissions: ['VIEW'] },
    });
    expect(res.status).toBe(201);
    const [event] = await auditOf(p, res.body.id as string);
    expect(event.sourceAddress).toBe('127.0.0.2');
  });
});

describe('TRUST_PROXY off (the default), called directly', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CONSOLE_SIGNIN_FAILURES: '2' });
  });
  afterAll(() => t.close());

  it('forged X-Forwarded-For values do not reset the sign-in limit', async () => {
    const p = await TestPlatform.create(t);
    const port = portOf(t);
    const wrong = { clientId: p.clientId, clientSecret: 'wrong' };
    for (const forged of ['203.0.113.1', '203.0.113.2'])
      expect(
        (await call('127.0.0.4', port, 'POST', SESSION, { body: wrong, headers: { 'x-forwarded-for': forged } }))
          .status,
      ).toBe(401);
    const again = await call('127.0.0.4', port, 'POST', SESSION, {
      body: { clientId: p.clientId, clientSecret: p.clientSecret },
      headers: { 'x-forwarded-for': '203.0.113.3', forwarded: 'for=203.0.113.3', 'x-real-ip': '203.0.113.3' },
    });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
    // another address is a different client: its own limit
    const other = await call('127.0.0.5', port, 'POST', SESSION, {
      body: { clientId: p.clientId, clientSecret: p.clientSecret },
    });
    expect(other.status).toBe(200);
  });

  it('forged X-Forwarded-For values do not appear in the audit trail', async () => {
    const p = await TestPlatform.create(t);
    const res = await call('127.0.0.4', portOf(t), 'POST', `${V}/tokens`, {
      headers: { authorization: p.authorization, 'x-forwarded-for': '203.0.113.7, 127.0.0.1' },
      body: { name: 'forged', permissions: ['VIEW'] },
    });
    expect(res.status).toBe(201);
    const refused = await call('127.0.0.4', portOf(t), 'GET', `${V}/tokens`, {
      headers: { authorization: basicAuth(`${p.clientId}:wrong`), 'x-forwarded-for': '203.0.113.8' },
    });
    expect(refused.status).toBe(401);
    await t.app.get(AuditRefusals).flush(); // refusals are counted per window, then written
    const [event] = await auditOf(p, res.body.id as string);
    expect(event.sourceAddress).toBe('127.0.0.4');
    const failures = await p.get('/audit-events?limit=100&action=listTokens');
    expect(failures.body.data.map((e: { sourceAddress: string }) => e.sourceAddress)).toEqual(['127.0.0.4']);
    const all = await p.get('/audit-events?limit=100');
    expect(JSON.stringify(all.body)).not.toMatch(/203\.0\.113/);
  });
});

describe('TRUST_PROXY=1 (a hop count), through the reverse proxy', () => {
  it('the address the one trusted hop appended counts, not the ones the client wrote', async () => {
    const t = await startTestApp({ TRUST_PROXY: '1' });
    const proxy = await startProxy(portOf(t));
    try {
      const p = await TestPlatform.create(t);
      const res = await call('127.0.0.6', proxy.port, 'POST', `${V}/tokens`, {
        headers: { authorization: p.authorization, 'x-forwarded-for': '198.51.100.1, 198.51.100.2' },
        body: { name: 'one hop', permissions: ['VIEW'] },
      });
      expect(res.status).toBe(201);
      const [event] = await auditOf(p, res.body.id as string);
      expect(event.sourceAddress).toBe('127.0.0.6');
    } finally {
      await proxy.close();
      await t.close();
    }
  });
});
