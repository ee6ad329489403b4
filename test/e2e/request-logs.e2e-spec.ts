import net from 'node:net';
import { Writable } from 'node:stream';
import { createRootLogger } from '../../src/logging/logger.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * Issue 11, logs: every line of a request carries its request id and, once authenticated, the
 * platform id; probes log at debug; no credential or secret reaches the log.
 */
type Line = Record<string, unknown> & { level: number; msg?: string; reqId?: string };

/** Captures the app's log lines; `next` resolves at the first line (past or future) matching. */
class LogCapture extends Writable {
  readonly lines: Line[] = [];
  readonly text: string[] = [];
  private waiting: Array<{ match: (l: Line) => boolean; resolve: (l: Line) => void }> = [];

  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    for (const raw of chunk.toString('utf8').split('\n').filter(Boolean)) {
      this.text.push(raw);
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

const capture = new LogCapture();
let t: TestApp;
let p: TestPlatform;
beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: 'debug' }, { logger: createRootLogger('debug', capture) });
  p = await TestPlatform.create(t);
});
afterAll(() => t.close());

const accessLine = (reqId: string) => capture.next((l) => l.reqId === reqId && l.msg === 'request completed');

it('the access line of an authenticated request carries reqId and platformId, and no secret', async () => {
  const res = await p
    .post('/tokens', { name: 'logged', permissions: ['VIEW'] })
    .set('X-Request-Id', 'log-test-1')
    .set('X-Forwarded-For', '203.0.113.9'); // TRUST_PROXY off: ignored
  expect(res.status).toBe(201);
  const line = await accessLine('log-test-1');
  expect(line).toMatchObject({
    level: 30,
    reqId: 'log-test-1',
    platformId: p.platformId,
    req: { method: 'POST', url: `${V}/tokens`, remoteAddress: '127.0.0.1' },
    res: { status: 201 },
  });
  const everything = capture.text.join('\n');
  const created = res.body as { clientSecret: string };
  for (const secret of [p.authorization, p.authorization.slice('Basic '.length), p.clientSecret, created.clientSecret])
    expect(everything).not.toContain(secret);
  // No Authorization header in any line (route names such as .../simulate/authorization may appear).
  expect(everything).not.toMatch(/"authorization"\s*:/i);
});

it('a refused request logs its reqId without a platformId and without the credentials sent', async () => {
  const wrong = `Basic ${Buffer.from(`${p.clientId}:not-the-secret`).toString('base64')}`;
  const res = await t.http.get(`${V}/tokens`).set('Authorization', wrong).set('X-Request-Id', 'log-test-2');
  expect(res.status).toBe(401);
  const line = await accessLine('log-test-2');
  expect(line).toMatchObject({ level: 30, res: { status: 401 } });
  expect(line.platformId).toBeUndefined();
  expect(capture.text.join('\n')).not.toContain(wrong.slice('Basic '.length));
});

it('health probes log at debug', async () => {
  await t.http.get('/healthz').set('X-Request-Id', 'log-test-3');
  await t.http.get('/readyz').set('X-Request-Id', 'log-test-4');
  expect((await accessLine('log-test-3')).level).toBe(20);
  expect((await accessLine('log-test-4')).level).toBe(20);
});

it("a request Node's HTTP parser refuses is logged with the X-Request-Id it was answered with", async () => {
  const { port } = t.app.getHttpServer().address() as { port: number };
  const answer = await new Promise<string>((resolve, reject) => {
    let text = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write('BREW / HTTP/1.1\r\nHost: x\r\n\r\n'));
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
  const reqId = /X-Request-Id: ([0-9a-f-]{36})/.exec(answer)?.[1];
  expect(reqId).toBeDefined();
  expect(await capture.next((l) => l.reqId === reqId)).toMatchObject({ res: { status: 400 } });
});
