import http from 'node:http';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { parseId } from '../../src/common/ids.js';
import { business, individual } from '../support/customers.js';
import { startTestApp, TestApp, TestPlatform, V, basicAuth } from '../support/test-app.js';

/**
 * Issue 10, item 8 and issue 15: generated requests across every route of the OpenAPI document
 * (plus the probes and unknown paths) with random methods, malformed ids, ids of other resources
 * and of another platform, hostile bodies, NULs, deep nesting, huge strings, numbers beyond 2^53,
 * odd headers, bad credentials, valid ones too. No answer may be a 5xx, every non-2xx answer is
 * `{code, reason, details?}`, and nothing changes that the caller had no right to change: the
 * platform's rows are the same after every request made with a credential that may not write
 * them (none, a wrong one, a VIEW-only token, another platform's), and the bystander platform whose
 * ids are used as foreign ids is the same at the end as at the start.
 * FUZZ_RUNS sets the number of requests (default 1000; 10000 for the run); FUZZ_SEED
 * replays a failing run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

let t: TestApp;
let p: TestPlatform;
let agent: http.Agent;
let port: number;
const routes: Array<{ method: string; path: string }> = [];
/** Ids per path parameter: the platform's own resources, then another platform's. */
const own: Record<string, string[]> = {};
const foreign: Record<string, string[]> = {};
const auth: Record<string, string> = {};
/** Every id of the platform's own resources, whatever its type: put where another type belongs. */
let anyOwn: string[] = [];
let bystander: TestPlatform;
let digestSql: string;

const usd = (n: number) => ({
  currency: 'USD',
  accountInfo: {
    accountType: 'USD_ACCOUNT',
    accountNumber: `1234567${n}`,
    routingNumber: '123456789',
    bankAccountType: 'CHECKING',
    bankName: 'Chase Bank',
    beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe', birthDate: '1990-01-15', nationality: 'US' },
  },
});

async function resources(platform: TestPlatform, into: Record<string, string[]>): Promise<void> {
  const created = async (path: string, body: object) => {
    const res = await platform.post(path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { id: string }).id;
  };
  const customerId = await created('/customers', individual());
  await created('/customers', business());
  const accounts = (await platform.get('/platform/internal-accounts')).body as { data: Array<{ id: string }> };
  await platform.patch('/config', { webhookEndpoint: 'https://hooks.example.com/fuzz' });
  const events = (await platform.get('/webhook-events')).body as { data: Array<{ id: string }> };
  into.customerId = [customerId];
  into.tokenId = [(await platform.token(['VIEW'])).id];
  into.externalAccountId = [
    await created('/platform/external-accounts', usd(1)),
    await created('/customers/external-accounts', { customerId, ...usd(2) }),
  ];
  into.accountId = accounts.data.map((a) => a.id);
  into.eventId = events.data.map((e) => e.id);
}

/**
 * One digest of every row a platform owns: each table with a `platform_id` column, and its
 * `platforms` row. Any insert, update or delete changes it.
 */
async function platformDigest(platform: TestPlatform): Promise<string> {
  const [{ digest }] = await t.app
    .get(DataSource)
    .query<Array<{ digest: string }>>(digestSql, [parseId('Platform', platform.platformId)]);
  return digest;
}

beforeAll(async () => {
  t = await startTestApp({ LOG_LEVEL: process.env.FUZZ_LOG ?? 'silent' });
  p = await TestPlatform.create(t);
  // `other`'s credentials are used against p's routes; `bystander`'s ids are the foreign ids and its
  // credentials are never used, so none of its rows may change.
  const other = await TestPlatform.create(t, 'Foreign platform');
  bystander = await TestPlatform.create(t, 'Bystander platform');
  await resources(p, own);
  await resources(bystander, foreign);
  anyOwn = Object.values(own).flat();
  const viewer = await p.token(['VIEW']);
  auth.valid = p.authorization;
  auth.viewOnly = viewer.authorization;
  auth.foreign = other.authorization;

  const tables = await t.app.get(DataSource).query<Array<{ table_name: string }>>(
    `SELECT table_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND column_name = 'platform_id'
         AND table_name <> 'audit_events' -- records every attempt, refused ones included, by design
       ORDER BY table_name`,
  );
  if (tables.length < 5) throw new Error(`only ${tables.length} platform tables found`);
  const parts = [
    `SELECT 'platforms' AS tbl, md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS d FROM platforms x WHERE x.id = $1`,
    ...tables.map(
      ({ table_name: name }) =>
        `SELECT '${name}', md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) FROM ${name} x WHERE x.platform_id = $1`,
    ),
  ];
  digestSql = `SELECT string_agg(tbl || ':' || d, ',' ORDER BY tbl) AS digest FROM (${parts.join(' UNION ALL ')}) s`;

  const doc = (await t.http.get(`${V}/openapi.json`)).body as { paths: Record<string, Record<string, unknown>> };
  for (const [path, operations] of Object.entries(doc.paths)) {
    // it would send a real webhook to whatever endpoint an earlier generated PATCH /config set
    if (path === '/sandbox/webhooks/test' || path === '/webhooks/test') continue;
    for (const method of Object.keys(operations)) routes.push({ method: method.toUpperCase(), path: `${V}${path}` });
  }
  for (const path of ['/healthz', '/readyz', '/docs', `${V}/openapi.json`, `${V}/no-such-route`, '/'])
    routes.push({ method: 'GET', path });
  if (routes.length < 25) throw new Error(`only ${routes.length} routes found`);
  port = ((t.app.getHttpServer() as http.Server).address() as { port: number }).port;
  agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
});
afterAll(async () => {
  agent.destroy();
  await t.close();
});

// ---------------------------------------------------------------- generators

const TYPES = ['Token', 'Customer', 'InternalAccount', 'ExternalAccount', 'Webhook', 'Card', ''];
const nul = fc.string({ maxLength: 8 }).map((s) => `${s}\u0000${s}`);
const hugeString = fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n));
const weirdString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  nul,
  hugeString,
  fc.constantFrom('', ' ', '\u202e', '💳', "'; DROP TABLE customers; --", '%00', '../..', '__proto__', 'null'),
);
const malformedId = fc.oneof(
  fc.constantFrom(...TYPES).chain((type) =>
    fc.oneof(
      fc.uuid().map((u) => `${type}:${u}`), // unknown, or of the wrong type
      fc.string({ maxLength: 40 }).map((s) => `${type}:${s}`),
      fc.constant(`${type}:00000000-0000-0000-0000-00000000000\u0000`),
    ),
  ),
  weirdString,
);
const pathValue = (param: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...(own[param]?.length ? own[param] : ['Nothing:own'])) },
    { weight: 2, arbitrary: fc.constantFrom(...(foreign[param]?.length ? foreign[param] : ['Nothing:foreign'])) },
    { weight: 3, arbitrary: malformedId.map((s) => s.slice(0, 2000)) },
    { weight: 1, arbitrary: fc.constantFrom(...anyOwn) }, // another resource's id, maybe of another type
  );
/** A path segment as a client could send it: encoded, or raw percent garbage. */
const encoded = (value: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 4, arbitrary: value.map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constantFrom('%ZZ', '%', '%C0%80', '%FF%FE', '..%2F..', '%2e%2e', '%00') },
  );

const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -0, 0.1, 2 ** 64),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
);
/** A JSON literal for a number, including ones no double holds exactly (kept as raw text). */
const numberText = fc.oneof(
  number.map(String),
  fc.constantFrom('9007199254740993', '1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0.0'),
);

const QUERY_KEYS = [
  'limit',
  'cursor',
  'name',
  'currency',
  'customerId',
  'type',
  'status',
  'customerType',
  'region',
  'umaAddress',
  'platformCustomerId',
  'isIncludingDeleted',
  'createdAfter',
  'createdBefore',
  'updatedAfter',
  'updatedBefore',
  'sortOrder',
];
const cursor = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc
    .oneof(fc.jsonValue(), fc.record({ k: fc.oneof(fc.string(), fc.uuid(), fc.jsonValue()) }))
    .map((v) => Buffer.from(JSON.stringify(v) ?? 'x').toString('base64url')),
);
const queryValue = fc.oneof(
  weirdString.map((s) => s.slice(0, 5000)),
  numberText,
  cursor,
  fc.constantFrom(
    'true',
    'false',
    'USD',
    'INDIVIDUAL',
    '2025-01-01T00:00:00Z',
    '2025-13-45T99:99:99Z',
    '-1',
    '0',
    '101',
  ),
);
const query = fc
  .array(
    fc.tuple(
      fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...QUERY_KEYS) }, fc.string({ maxLength: 10 })),
      fc.oneof(fc.constant(''), fc.constant('[]'), fc.constant('[a]'), fc.constant('[0][b]')),
      queryValue,
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.map(([key, suffix, value]) => `${encodeURIComponent(key)}${suffix}=${encodeURIComponent(value)}`).join('&'),
  );

/** Member names the API knows, so generated objects reach deeper validation. */
const MEMBERS = [
  'name',
  'permissions',
  'customerType',
  'platformCustomerId',
  'fullName',
  'email',
  'currencies',
  'address',
  'businessInfo',
  'customerId',
  'currency',
  'accountInfo',
  'accountType',
  'beneficiary',
  'amount',
  'kycStatus',
  'umaDomain',
  'webhookEndpoint',
  'supportedCurrencies',
  'counterpartyRequirements',
  'defaultUmaDepositAccount',
  'platformAccountId',
  '__proto__',
  'constructor',
];
const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    weirdString,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...MEMBERS), fc.string({ maxLength: 8 }), nul), tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** JSON text; a bigint becomes a number literal no double holds exactly (beyond 2^53). */
const toJson = (value: unknown): string =>
  (JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `#big${v}#` : v)) ?? 'null').replace(
    /"#big(-?\d+)#"/g,
    '$1',
  );

/** Valid bodies with one member replaced by a hostile value: reach the deep validators. */
const VALID_BODIES = [
  () => individual(),
  () => business(),
  () => usd(Math.floor(Math.random() * 1e6)),
  () => ({ name: 'fuzz', permissions: ['VIEW'] }),
  () => ({ amount: 100 }),
  () => ({ kycStatus: 'APPROVED' }),
  () => ({ supportedCurrencies: ['USD'], webhookEndpoint: 'https://hooks.example.com/x' }),
];
function leafPaths(value: unknown, path: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [path];
  return [path, ...Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...path, k]))];
}
const mutatedValid = fc
  .tuple(fc.nat({ max: VALID_BODIES.length - 1 }), fc.nat(), hostileValue, fc.boolean())
  .map(([which, at, replacement, drop]) => {
    const body = VALID_BODIES[which]() as Record<string, unknown>;
    const paths = leafPaths(body).filter((x) => x.length > 0);
    const path = paths[at % paths.length];
    let parent = body;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    if (drop) delete parent[path[path.length - 1]];
    else parent[path[path.length - 1]] = replacement;
    return toJson(body);
  });

const deep = fc
  .tuple(fc.integer({ min: 30, max: 5000 }), fc.constantFrom('[', '{"a":'), fc.constantFrom(...MEMBERS))
  .map(([depth, open, member]) => {
    const close = open === '[' ? ']' : '}';
    return `{"${member}":${open.repeat(depth)}1${close.repeat(depth)}}`;
  });
const bodyText = fc.oneof(
  { weight: 4, arbitrary: mutatedValid },
  { weight: 3, arbitrary: hostileValue.map(toJson) },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...MEMBERS), numberText).map(([k, n]) => `{"${k}":${n}}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 50 }) }, // not JSON
  { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":1,}', '\ufeff{}', '{"a":"\\ud800"}', '[]', 'null', '0') },
);

const basic = basicAuth;
const authorization = fc.oneof(
  { weight: 8, arbitrary: fc.constant('valid') },
  { weight: 1, arbitrary: fc.constantFrom('viewOnly', 'foreign') },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom('Basic', 'Basic !!!', 'Bearer x', 'basic Og==', 'Basic ' + 'A'.repeat(9000)),
      fc.tuple(weirdString, weirdString).map(([a, b]) => basic(`${a.slice(0, 200)}:${b.slice(0, 200)}`)),
      nul.map((s) => basic(`${s}:${s}`)),
    ),
  },
);
/** Header values a real client can send (no CR, LF or NUL: item 7's test covers those raw). */
const headerText = fc.string({ unit: 'grapheme-ascii', maxLength: 300 }).map((s) => s.replace(/[\r\n]/g, ''));
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16le',
  'application/json; charset=koi8-r',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
];
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'];

/** `arbitrary` in `percent` % of the requests, null otherwise. */
const maybe = <T>(percent: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: percent, arbitrary }, { weight: 100 - percent, arbitrary: fc.constant(null) });

/** Headers a client or a proxy in front may add. */
const EXTRA_HEADERS: Array<[string, fc.Arbitrary<string>]> = [
  ['origin', fc.constantFrom('https://evil.example.com', 'null', 'http://localhost:3000')],
  ['accept', fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml')],
  ['content-encoding', fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'bogus')],
  ['x-forwarded-for', fc.constantFrom('1.2.3.4', '::1, 10.0.0.1', 'not an ip')],
  ['x-http-method-override', fc.constantFrom(...METHODS)],
  ['cookie', headerText],
  ['access-control-request-method', fc.constantFrom(...METHODS)],
];
const extraHeaders = fc
  .subarray(EXTRA_HEADERS, { maxLength: 3 })
  .chain((picked) => fc.tuple(...picked.map(([name, value]) => value.map((v): [string, string] => [name, v]))));

interface Generated {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Which credential: `valid` may change the platform; anything else may not. */
  credential: string;
}

const requestArb: fc.Arbitrary<Generated> = fc
  .record({
    route: fc.nat(),
    randomMethod: maybe(15, fc.constantFrom(...METHODS)),
    query: maybe(50, query),
    extraSegment: maybe(8, encoded(weirdString.map((s) => s.slice(0, 200)))),
    auth: authorization,
    contentType: maybe(15, fc.constantFrom(...CONTENT_TYPES)),
    idempotencyKey: maybe(30, fc.oneof(fc.uuid(), headerText)),
    requestId: maybe(15, headerText),
    body: maybe(70, bodyText),
    extra: maybe(20, extraHeaders),
  })
  .chain((g) => {
    const route = routes[g.route % routes.length];
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    return fc.tuple(fc.constant(g), fc.constant(route), fc.tuple(...names.map((n) => encoded(pathValue(n)))));
  })
  .map(([g, route, values]) => {
    let i = 0;
    let path = route.path.replace(/\{\w+\}/g, () => values[i++]);
    if (g.extraSegment !== null) path += `/${g.extraSegment}`;
    if (g.query !== null && g.query !== '') path += `?${g.query}`;
    const headers: Record<string, string> = Object.fromEntries(g.extra ?? []);
    const credential = auth[g.auth as string] ?? g.auth;
    if (credential !== undefined) headers.authorization = credential;
    if (g.contentType !== null) headers['content-type'] = g.contentType;
    else if (g.body !== null) headers['content-type'] = 'application/json';
    if (g.idempotencyKey !== null) headers['idempotency-key'] = g.idempotencyKey;
    if (g.requestId !== null) headers['x-request-id'] = g.requestId;
    // framed, as any client frames it (unframed bytes would be parsed as the next request)
    if (g.body !== null) headers['content-length'] = String(Buffer.byteLength(g.body));
    const method = g.randomMethod ?? route.method;
    return { method, path, headers, body: g.body ?? undefined, credential: g.auth === 'valid' ? 'valid' : 'other' };
  });

function send(r: Generated): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, agent, method: r.method, path: r.path, headers: r.headers });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body);
  });
}

it(`${RUNS} generated requests across every route: no 5xx, the error shape on every non-2xx, no unauthorized change`, async () => {
  const seen = new Map<string, number>();
  const bystanderBefore = await platformDigest(bystander);
  /** p's digest as of the last request that could not change it (null: a valid request came since). */
  let known: string | null = null;
  await fc.assert(
    fc.asyncProperty(requestArb, async (r) => {
      const before = r.credential === 'valid' ? null : (known ?? (await platformDigest(p)));
      const res = await send(r);
      const what = `${r.method} ${r.path.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
      if (before === null) known = null;
      else {
        known = await platformDigest(p);
        expect({ what, changed: known !== before }).toEqual({ what, changed: false });
      }
      expect({ what, serverError: res.status >= 500 }).toEqual({ what, serverError: false });
      expect(res.headers['x-request-id']).toBeDefined();
      const family = `${Math.floor(res.status / 100)}xx`;
      if (res.status >= 400 && r.method !== 'HEAD') {
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        const body = JSON.parse(res.text) as { code?: unknown; reason?: unknown; details?: { errors?: unknown } };
        expect({ what, code: typeof body.code, reason: typeof body.reason }).toEqual({
          what,
          code: 'string',
          reason: 'string',
        });
        if (body.code === 'INVALID_INPUT')
          expect({ what, errors: Array.isArray(body.details?.errors) }).toEqual({ what, errors: true });
        seen.set(String(body.code), (seen.get(String(body.code)) ?? 0) + 1);
      }
      seen.set(family, (seen.get(family) ?? 0) + 1);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  expect(await platformDigest(bystander)).toBe(bystanderBefore);
  if (process.env.FUZZ_STATS) process.stdout.write(`${JSON.stringify(Object.fromEntries(seen))}\n`);
  // The generators reach past authentication and validation, not only the first 401.
  if (RUNS >= 500) {
    expect(seen.get('2xx')).toBeGreaterThan(0);
    expect(seen.get('INVALID_INPUT')).toBeGreaterThan(0);
    expect(seen.get('UNAUTHORIZED')).toBeGreaterThan(0);
  }
}, 600_000);
