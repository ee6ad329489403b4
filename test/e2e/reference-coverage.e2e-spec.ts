import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPERATIONS_PATH, type OperationList } from '../fixtures/reference/extract.mjs';
import { startTestApp, TestApp, V } from '../support/test-app.js';

/**
 * docs/api-conventions.md, "Coverage of the reference": every operation of the reference document
 * and every route of the official Grid SDK is served by our own OpenAPI document, or named in that
 * section's table with its reason; a row for something served is stale and fails too.
 */
const SDK_ROUTES = fileURLToPath(new URL('../fixtures/reference/grid-sdk-routes.json', import.meta.url));
const DOC = fileURLToPath(new URL('../../docs/api-conventions.md', import.meta.url));

/** `VERB /path` with every path parameter's name dropped: `/cards/{id}` and `/cards/{cardId}` are one route. */
const route = (verb: string, path: string) => `${verb.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

/** The routes of `"<VERB> <path> <name>"` lines, each with the name it came from. */
function routes(lines: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of lines) {
    const [verb, path, name] = line.split(' ');
    out.set(route(verb, path), `${verb} ${path} (${name})`);
  }
  return out;
}

/** The table under "## Coverage of the reference": route -> reason. */
function exceptions(): Map<string, string> {
  const text = readFileSync(DOC, 'utf8');
  const section = text.split(/^## Coverage of the reference$/m)[1]?.split(/^## /m)[0];
  if (!section) throw new Error('docs/api-conventions.md has no "## Coverage of the reference" section');
  const out = new Map<string, string>();
  for (const match of section.matchAll(/^\| `([A-Z]+) (\/[^`]*)` \| (.+) \|$/gm)) {
    const key = route(match[1], match[2]);
    if (out.has(key)) throw new Error(`the coverage table names ${key} twice`);
    if (!match[3].trim()) throw new Error(`the coverage table gives no reason for ${key}`);
    out.set(key, match[3].trim());
  }
  return out;
}

let t: TestApp;
let served: Set<string>;
beforeAll(async () => {
  t = await startTestApp();
  const res = await t.http.get(`${V}/openapi.json`);
  expect(res.status).toBe(200);
  const doc = res.body as { paths: Record<string, Record<string, unknown>> };
  served = new Set(
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => ['get', 'put', 'post', 'patch', 'delete'].includes(key))
        .map((verb) => route(verb, path.startsWith(V) ? path.slice(V.length) : path)),
    ),
  );
});
afterAll(() => t.close());

const unserved = (wanted: Map<string, string>, excepted: Map<string, string>) =>
  [...wanted].filter(([key]) => !served.has(key) && !excepted.has(key)).map(([, name]) => name);

it('serves every operation of the reference document, or the docs say why not', () => {
  const reference = routes((JSON.parse(readFileSync(OPERATIONS_PATH, 'utf8')) as OperationList).operations);
  expect(reference.size).toBe(153);
  expect(unserved(reference, exceptions())).toEqual([]);
});

it("serves every route of the official Grid SDK's methods, or the docs say why not", () => {
  const sdk = routes((JSON.parse(readFileSync(SDK_ROUTES, 'utf8')) as { routes: string[] }).routes);
  expect(sdk.size).toBeGreaterThanOrEqual(100);
  expect(unserved(sdk, exceptions())).toEqual([]);
});

it('the exception table names only real gaps of one of the two lists (no stale rows)', () => {
  const reference = routes((JSON.parse(readFileSync(OPERATIONS_PATH, 'utf8')) as OperationList).operations);
  const sdk = routes((JSON.parse(readFileSync(SDK_ROUTES, 'utf8')) as { routes: string[] }).routes);
  const stale = [...exceptions().keys()].filter((key) => served.has(key) || !(reference.has(key) || sdk.has(key)));
  expect(stale).toEqual([]);
});
