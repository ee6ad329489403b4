import net from 'node:net';
import { individual } from '../support/customers.js';
import { expectError, startTestApp, TestApp, TestPlatform, V, basicAuth } from '../support/test-app.js';
import { usdAccountBody } from '../support/fixtures.js';

/** Issue 10, items 4-7: bad input of every kind is a 4xx in the error shape, never a 5xx. */
let t: TestApp;
let p: TestPlatform;
beforeAll(async () => {
  t = await startTestApp();
  p = await TestPlatform.create(t);
});
afterAll(() => t.close());

const basic = basicAuth;
const fields = (body: { details?: Record<string, unknown> }) =>
  (body.details?.errors as Array<{ field: string }>).map((e) => e.field);

describe('NUL bytes (item 4)', () => {
  it.each([
    ['in the client id', () => basic('abc\u0000def:secret')],
    ['in a wrong secret of a real client id', () => basic(`${p.clientId}:wr\u0000ng`)],
    ['after the real secret', () => basic(`${p.clientId}:${p.clientSecret}\u0000`)],
  ])('Basic credentials with a NUL %s → 401 UNAUTHORIZED', async (_name, header) => {
    const res = await t.http.get(`${V}/tokens`).set('Authorization', header());
    expectError(res, 401, 'UNAUTHORIZED');
  });

  it('a NUL in a query filter is a FieldError on that filter', async () => {
    for (const path of [
      '/tokens?name=a%00b',
      '/customers?platformCustomerId=%00',
      '/customers?umaAddress=x%00y',
      '/platform/external-accounts?currency=US%00',
      '/webhook-events?type=TEST%00',
      '/customers/internal-accounts?currency=%00',
    ]) {
      const body = expectError(await p.get(path), 400, 'INVALID_INPUT');
      const name = /\?(\w+)=/.exec(path)![1];
      expect({ path, fields: fields(body) }).toEqual({ path, fields: expect.arrayContaining([name]) as unknown });
    }
  });

  it('a NUL in a body string member is a FieldError on its dot path', async () => {
    const token = expectError(
      await p.post('/tokens', { name: 'a\u0000', permissions: ['VIEW'] }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(token)).toEqual(['name']);

    const customer = expectError(
      await p.post(
        '/customers',
        individual({ fullName: 'Jane\u0000', address: { line1: '\u0000', city: 'X', postalCode: '1', country: 'US' } }),
      ),
      400,
      'INVALID_INPUT',
    );
    expect(fields(customer)).toEqual(expect.arrayContaining(['fullName', 'address.line1']));

    const account = expectError(
      await p.post(
        '/platform/external-accounts',
        usdAccountBody({ bankName: 'Chase\u0000Bank' }, { fullName: 'John\u0000Doe' }),
      ),
      400,
      'INVALID_INPUT',
    );
    expect(fields(account)).toEqual(
      expect.arrayContaining(['accountInfo.bankName', 'accountInfo.beneficiary.fullName']),
    );

    const config = expectError(await p.patch('/config', { umaDomain: 'x\u0000.com' }), 400, 'INVALID_INPUT');
    expect(fields(config)).toContain('umaDomain');
  });

  it('a NUL in an object key or an array element is a FieldError too', async () => {
    const res = expectError(
      await p.post('/customers', individual({ 'odd\u0000key': 1, currencies: ['US\u0000'] })),
      400,
      'INVALID_INPUT',
    );
    expect(fields(res)).toEqual(expect.arrayContaining(['odd\u0000key', 'currencies.0']));
  });

  it('a NUL in a path id is a FieldError on the parameter', async () => {
    const res = expectError(await p.get('/tokens/Token:%00'), 400, 'INVALID_INPUT');
    expect(fields(res)).toEqual(['tokenId']);
  });
});

describe('deeply nested bodies (item 5)', () => {
  const nested = (depth: number) => '{"name":' + '['.repeat(depth - 1) + ']'.repeat(depth - 1) + '}';

  it('a body nested 2,000 levels deep → 400 INVALID_REQUEST_FORMAT', async () => {
    const res = await p.post('/tokens').set('Content-Type', 'application/json').send(nested(2000));
    const body = expectError(res, 400, 'INVALID_REQUEST_FORMAT');
    expect(body.reason).toMatch(/64/);
  });

  it('the limit is 64 levels; brackets inside strings do not count', async () => {
    const atLimit = await p.post('/tokens').set('Content-Type', 'application/json').send(nested(64));
    expectError(atLimit, 400, 'INVALID_INPUT');
    const over = await p.post('/tokens').set('Content-Type', 'application/json').send(nested(65));
    expectError(over, 400, 'INVALID_REQUEST_FORMAT');
    const inString = await p.post('/tokens', { name: '[{"\\'.repeat(500), permissions: ['VIEW'] });
    expectError(inString, 400, 'INVALID_INPUT'); // too long a name, but not too deep
  });

  it('credentials are checked before the body is parsed', async () => {
    const noCredentials = await t.http.post(`${V}/tokens`).set('Content-Type', 'application/json').send(nested(5000));
    expectError(noCredentials, 401, 'UNAUTHORIZED');
    expect(noCredentials.headers['www-authenticate']).toMatch(/^Basic/);
    const malformed = await t.http
      .post(`${V}/customers`)
      .set('Authorization', 'Basic !!!')
      .set('Content-Type', 'application/json')
      .send('{"not json');
    expectError(malformed, 401, 'UNAUTHORIZED');
  });

  it('public routes still answer without credentials', async () => {
    expect((await t.http.get('/healthz').set('Content-Type', 'application/json').send('{}')).status).toBe(200);
    expect((await t.http.get(`${V}/openapi.json`)).status).toBe(200);
  });
});

describe('crafted cursors (item 6)', () => {
  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  it.each([
    ['dashes only', cursor({ k: '-'.repeat(36) })],
    ['hex without dashes', cursor({ k: '0'.repeat(36) })],
    ['misplaced dashes', cursor({ k: '0000000000000000000000000000000000-0' })],
    ['a number', cursor({ k: 7 })],
    ['null', cursor(null)],
    ['an array', cursor([1])],
    ['not base64 JSON', 'not-a-cursor'],
  ])('%s → 400 INVALID_INPUT on cursor', async (_name, value) => {
    for (const path of ['/tokens', '/customers', '/platform/external-accounts', '/webhook-events']) {
      const body = expectError(await p.get(`${path}?cursor=${value}`), 400, 'INVALID_INPUT');
      expect(fields(body)).toEqual(['cursor']);
    }
  });
});

describe("errors of Node's HTTP parser (item 7)", () => {
  /** Writes raw bytes on a fresh connection and returns everything the server answered. */
  function raw(payload: string): Promise<string> {
    const { port } = t.app.getHttpServer().address() as { port: number };
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('end', () => resolve(answer));
      socket.on('close', () => resolve(answer));
      socket.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ECONNRESET' ? resolve(answer) : reject(error),
      );
      socket.write(payload);
    });
  }
  function parse(answer: string) {
    const [head, body] = answer.split('\r\n\r\n');
    const [statusLine, ...headers] = head.split('\r\n');
    const map = Object.fromEntries(
      headers.map((h) => [h.slice(0, h.indexOf(':')).toLowerCase(), h.slice(h.indexOf(':') + 1).trim()]),
    );
    return {
      status: Number(statusLine.split(' ')[1]),
      headers: map,
      body: JSON.parse(body) as { code: string; reason: string },
    };
  }

  it.each([
    [
      'headers over 16 KiB',
      400,
      'INVALID_REQUEST_FORMAT',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    ],
    ['an unknown method', 400, 'INVALID_REQUEST_FORMAT', 'BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
    [
      'a bad Content-Length',
      400,
      'INVALID_REQUEST_FORMAT',
      'POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    ],
    [
      'bad chunked framing',
      400,
      'INVALID_REQUEST_FORMAT',
      // authenticated, so the answer waits for the body the parser then refuses
      () =>
        `POST ${V}/tokens HTTP/1.1\r\nHost: x\r\nAuthorization: ${p.authorization}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n',
    ],
    [
      'a NUL in a header value',
      400,
      'INVALID_REQUEST_FORMAT',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0000b\r\n\r\n',
    ],
    ['not HTTP at all', 400, 'INVALID_REQUEST_FORMAT', '\u0016\u0003\u0001\u0000\u00a5\u0001\r\n\r\n'],
  ])('%s → %s %s in the error shape with X-Request-Id', async (_name, status, code, payload) => {
    const res = parse(await raw(typeof payload === 'function' ? payload() : payload));
    expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    expect(typeof res.body.reason).toBe('string');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('a member named constructor (found by the 10,000-request fuzz, issue 15)', () => {
  it('is a FieldError at any depth, on DTO routes and on bodies a service validates, never a 500', async () => {
    const nested = { ...usdAccountBody(), extra: [{ constructor: 2.9e213 }] };
    const customer = individual() as Record<string, unknown>;
    for (const [path, body, field] of [
      ['/platform/external-accounts', nested, 'extra.0.constructor'],
      ['/customers', { ...customer, address: { constructor: 'x' } }, 'address.constructor'],
      ['/tokens', { name: 'n', permissions: [{ constructor: {} }] }, 'permissions.0.constructor'],
      ['/tokens', { name: 'n', permissions: ['VIEW'], constructor: 1 }, 'constructor'],
    ] as const) {
      const res = await p.post(path, body);
      const error = expectError(res, 400, 'INVALID_INPUT');
      expect({ path, fields: fields(error) }).toEqual({ path, fields: [field] });
    }
    const query = expectError(await p.get('/tokens?name[constructor]=1'), 400, 'INVALID_INPUT');
    expect(fields(query)).toEqual(['name.constructor']);
  });
});
