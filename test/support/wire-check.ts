import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { appendFileSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { WireOperation, WireSchemas } from '../fixtures/reference/extract.mjs';

/**
 * The project checks itself against the reference (docs/api-conventions.md, "Checked against the
 * reference"): every response a test app sends for a route that is a reference operation, and every
 * webhook a test receiver gets, is validated against the reference's schema for its status (or its
 * `type`), strict on required properties, types, enums, formats and discriminators, extra
 * properties allowed. The schemas are committed data (test/fixtures/reference/grid-wire-schemas.json,
 * cut by extract.mjs); the only exemptions are the spec's deviations, one list in
 * test/fixtures/reference/deviations.json. A violation fails the test that received the body
 * (an afterEach registered here) or, outside a test, the test app's close().
 */

const require = createRequire(import.meta.url);
const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;

const WIRE_FILE = fileURLToPath(new URL('../fixtures/reference/grid-wire-schemas.json', import.meta.url));
const DEVIATIONS_FILE = fileURLToPath(new URL('../fixtures/reference/deviations.json', import.meta.url));

/** One entry of deviations.json. */
export interface Deviation {
  id: string;
  /** The spec's exact words the exemption rests on. */
  spec?: string;
  /** Where the spec's words alone do not say how they make this deviation, the reasoning. */
  why?: string;
  /** A component schema, patched at `pointer` with `value` (replace) or `add` (values appended to an array). */
  schema?: string;
  pointer?: string;
  value?: unknown;
  add?: unknown[];
}

export interface Violation {
  /** `createCard 201` or `webhook CARD.STATUS_CHANGE`. */
  where: string;
  /** The JSON path in the body (`/data/0/status`), `/` for the body itself. */
  path: string;
  /** The schema rule that failed: keyword, what it wanted, and where in the schema. */
  rule: string;
  /** The method and URL of the request, or the webhook id. */
  request: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Deviations as loaded (exported for the test of the list itself). */
export function deviations(): Deviation[] {
  return (JSON.parse(readFileSync(DEVIATIONS_FILE, 'utf8')) as { deviations: Deviation[] }).deviations;
}

function unescape(part: string): string {
  return part.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Applies one deviation to the component schemas (in place). */
function patch(schemas: Json, d: Deviation): void {
  if (!d.schema) return;
  const parts = (d.pointer ?? '').split('/').slice(1).map(unescape);
  if (parts.length === 0) {
    if (d.value === undefined) throw new Error(`deviation ${d.id}: a whole-schema patch needs a value`);
    schemas[d.schema] = structuredClone(d.value);
    return;
  }
  let at: unknown = schemas[d.schema];
  if (at === undefined) throw new Error(`deviation ${d.id}: the reference has no schema ${d.schema}`);
  for (const part of parts.slice(0, -1)) {
    at = Array.isArray(at) ? at[Number(part)] : isObject(at) ? at[part] : undefined;
    if (at === undefined) throw new Error(`deviation ${d.id}: ${d.schema}${d.pointer} does not exist`);
  }
  const last = parts[parts.length - 1];
  const holder = at as Json;
  if (d.add) {
    const list = holder[last];
    if (!Array.isArray(list)) throw new Error(`deviation ${d.id}: ${d.schema}${d.pointer} is not an array`);
    holder[last] = [...list, ...d.add.filter((v) => !list.includes(v))];
  } else {
    if (!(last in holder)) throw new Error(`deviation ${d.id}: ${d.schema}${d.pointer} does not exist`);
    holder[last] = structuredClone(d.value);
  }
}

/**
 * The schema as Ajv takes it: an OpenAPI discriminator (Ajv's own keyword refuses `mapping`) becomes
 * a selection by the tag's value (an unknown or missing tag fails on the tag itself, a known one is
 * checked against its mapped schema only); OpenAPI 3.0's `nullable` becomes a `null` type; local
 * references point into the registered document.
 */
function prepare(value: unknown, base = 'wire'): unknown {
  if (Array.isArray(value)) return value.map((v) => prepare(v, base));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'enum' || key === 'const' || key === 'default') out[key] = child;
    else if (key === '$ref' && typeof child === 'string' && child.startsWith('#/')) out[key] = `${base}${child}`;
    else out[key] = prepare(child, base);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  }
  const discriminator = out.discriminator as { propertyName?: string; mapping?: Record<string, string> } | undefined;
  if (isObject(discriminator) && Array.isArray(out.oneOf)) {
    const tag = discriminator.propertyName!;
    const mapping: Record<string, string> = {};
    for (const [tagValue, target] of Object.entries(discriminator.mapping ?? {}))
      mapping[tagValue] = target.startsWith('#/') ? `${base}${target}` : target;
    // Branches the mapping does not name are selected by their schema's name (OpenAPI's implicit mapping).
    for (const branch of out.oneOf as Json[]) {
      const ref = branch.$ref as string | undefined;
      if (ref && !Object.values(mapping).includes(ref)) mapping[ref.split('/').pop()!] = ref;
    }
    delete out.discriminator;
    delete out.oneOf;
    const selection = [
      { type: 'object', required: [tag], properties: { [tag]: { type: 'string', enum: Object.keys(mapping) } } },
      ...Object.entries(mapping).map(([tagValue, ref]) => ({
        if: { properties: { [tag]: { const: tagValue } }, required: [tag] },
        then: { $ref: ref },
      })),
    ];
    out.allOf = [...((out.allOf as unknown[]) ?? []), ...selection];
  }
  return out;
}

interface Route {
  op: WireOperation;
  pattern: RegExp;
  /** Literal segments: the more, the more specific (`/customers/external-accounts` over `/customers/{id}`). */
  literals: number;
}

class WireChecker {
  private readonly ajv: Ajv2020;
  private readonly routes = new Map<string, Route[]>();
  private readonly webhookTypes: Set<string>;
  private readonly compiled = new Map<string, ValidateFunction | null>();
  private readonly errorStatuses: Set<string>;

  constructor(wire: WireSchemas, list: Deviation[]) {
    const schemas = structuredClone(wire.components.schemas) as Json;
    for (const d of list) {
      if (!d.spec) throw new Error(`deviation ${d.id} quotes no spec words`);
      patch(schemas, d);
    }
    for (const name of wire['x-missing']) if (!(name in schemas)) schemas[name] = {};
    this.ajv = new Ajv2020({ strict: false, allErrors: false, inlineRefs: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'wire', components: { schemas: prepare(schemas) } });
    this.webhookTypes = new Set(Object.keys(wire.webhooks));
    this.errorStatuses = new Set(Object.keys(schemas).flatMap((n) => /^Error(\d{3})$/.exec(n)?.[1] ?? []));
    for (const op of wire.operations) {
      const source = op.path
        .split('/')
        .map((seg) => (/^\{[^}]+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      const route: Route = {
        op,
        pattern: new RegExp(`^${source}/?$`),
        literals: op.path.split('/').filter((s) => s && !s.startsWith('{')).length,
      };
      const list = this.routes.get(op.method) ?? [];
      list.push(route);
      this.routes.set(op.method, list);
    }
    for (const list of this.routes.values()) list.sort((a, b) => b.literals - a.literals);
    this.webhookSchemas = wire.webhooks;
  }

  private readonly webhookSchemas: Record<string, unknown>;
  /** The service's own (opt-in) webhook types -> their payload schema in the served document. */
  private readonly ownTypes = new Map<string, unknown>();

  /** Whether the served document's own webhook types are known (registerServedDocument). */
  get servedDocumentRegistered(): boolean {
    return this.ownTypes.size > 0;
  }

  /**
   * The service's own webhook types (outside the reference's list, delivered only to a platform that
   * asked for them, docs/webhooks.md#own-event-types) are checked against what the service itself
   * documents for them: its served OpenAPI document's `webhooks`, with that document's components.
   */
  registerServedDocument(doc: Json): void {
    const components = isObject(doc.components) ? doc.components : {};
    const schemas = isObject(components.schemas) ? components.schemas : {};
    this.ajv.addSchema({ $id: 'own', components: prepare(components, 'own') as Json });
    for (const item of Object.values(isObject(doc.webhooks) ? doc.webhooks : {})) {
      const post = isObject(item) && isObject(item.post) ? item.post : {};
      const body = isObject(post.requestBody) ? post.requestBody : {};
      const content = isObject(body.content) ? body.content : {};
      const json = isObject(content['application/json']) ? content['application/json'] : {};
      const schema = json.schema;
      if (!isObject(schema)) continue;
      const ref = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : undefined;
      const resolved = ref && isObject(schemas[ref]) ? schemas[ref] : schema;
      // The types it carries: `type`'s enum, on the schema or on one of its allOf members.
      const members = [resolved, ...(Array.isArray(resolved.allOf) ? resolved.allOf : [])].filter(isObject);
      const types = members.flatMap((m) => {
        const props = isObject(m.properties) ? m.properties : {};
        const typeProp = isObject(props.type) ? props.type : {};
        return Array.isArray(typeProp.enum) ? (typeProp.enum as string[]) : [];
      });
      for (const type of types) if (!this.webhookTypes.has(type)) this.ownTypes.set(type, prepare(schema, 'own'));
    }
  }

  /** The reference operation `method path` (path without the version prefix and query) is, or undefined. */
  operation(method: string, path: string): WireOperation | undefined {
    const list = this.routes.get(method.toUpperCase());
    return list?.find((r) => r.pattern.test(path))?.op;
  }

  private validator(key: string, schema: () => unknown): ValidateFunction | null {
    let fn = this.compiled.get(key);
    if (fn === undefined) {
      const s = schema();
      fn = s === undefined ? null : this.ajv.compile(prepare(s) as object);
      this.compiled.set(key, fn);
    }
    return fn;
  }

  /** The schema an operation's answer with `status` must match: its own, its range's, else the reference's error of that status. */
  private responseSchema(op: WireOperation, status: number): unknown {
    const s = String(status);
    const own = op.responses[s] ?? op.responses[`${s[0]}XX`] ?? op.responses.default;
    if (own !== undefined) return own;
    if (status >= 400 && this.errorStatuses.has(s)) return { $ref: `#/components/schemas/Error${s}` };
    return undefined;
  }

  checkResponse(op: WireOperation, status: number, body: unknown, request: string): Violation | undefined {
    const fn = this.validator(`${op.method} ${op.path} ${status}`, () => this.responseSchema(op, status));
    if (!fn || fn(body)) return undefined;
    return this.violation(`${op.operationId} ${status}`, fn.errors ?? [], request, body);
  }

  checkWebhook(body: unknown, request: string): Violation | undefined {
    const type = isObject(body) && typeof body.type === 'string' ? body.type : undefined;
    if (type !== undefined && this.ownTypes.has(type)) {
      const fn = this.validator(`webhook ${type} (own)`, () => this.ownTypes.get(type));
      if (!fn) return undefined;
      return fn(body)
        ? undefined
        : this.violation(`webhook ${type} (own type, served document)`, fn.errors ?? [], request, body);
    }
    const known = type !== undefined && this.webhookTypes.has(type);
    const key = known ? `webhook ${type}` : 'webhook (envelope)';
    const fn = this.validator(key, () =>
      known ? this.webhookSchemas[type] : { $ref: '#/components/schemas/BaseWebhook' },
    );
    if (fn!(body)) return undefined;
    return this.violation(`webhook ${type ?? '(no type)'}`, fn!.errors ?? [], request, body);
  }

  private violation(where: string, errors: ErrorObject[], request: string, body: unknown): Violation {
    const e = errors[0];
    if (!e) return { where, path: '/', rule: 'invalid', request };
    const params = Object.entries(e.params as Json)
      .map(
        ([k, v]) =>
          `${k}=${Array.isArray(v) && v.length > 8 ? `[${v.slice(0, 8).join(',')},…${v.length - 8} more]` : JSON.stringify(v)}`,
      )
      .join(' ');
    let value: unknown = body;
    for (const part of e.instancePath.split('/').slice(1).map(unescape)) value = (value as Json | undefined)?.[part];
    const found = JSON.stringify(value);
    return {
      where,
      path: e.instancePath || '/',
      rule: `${e.keyword} (${e.message ?? ''}; ${params}) at ${e.schemaPath}; found ${found && found.length > 120 ? `${found.slice(0, 120)}…` : found}`,
      request,
    };
  }
}

/** A checker of its own (the test of the checker; everything else shares wireChecker()). */
export function newWireChecker(): WireChecker {
  return new WireChecker(JSON.parse(readFileSync(WIRE_FILE, 'utf8')) as WireSchemas, deviations());
}

let checker: WireChecker | undefined;
/** The process's checker: the schemas are read once, each operation/status compiled on first use. */
export function wireChecker(): WireChecker {
  checker ??= newWireChecker();
  return checker;
}

/** Violations seen and not yet reported (by an afterEach or a test app's close()). */
const unreported: Violation[] = [];
let seen = 0;
/** How many bodies were checked (WIRE_LOG writes them once a test file is done). */
const checked = { responses: 0, webhooks: 0 };

export function recordViolation(v: Violation): void {
  seen += 1;
  unreported.push(v);
  // WIRE_LOG=<file>: every violation as a JSON line too (a survey of the suite, not only the first).
  if (process.env.WIRE_LOG) appendFileSync(process.env.WIRE_LOG, `${JSON.stringify(v)}\n`);
}

/** Throws, naming the first unreported violation and how many there are; forgets them. */
export function reportViolations(when: string): void {
  if (unreported.length === 0) return;
  const [first] = unreported;
  const count = unreported.length;
  unreported.length = 0;
  throw new Error(
    `${count} body(ies) ${when} do not match the reference (test/support/wire-check.ts; ${seen} in this file so far). First: ${first.where} (${first.request}) at ${first.path}: ${first.rule}`,
  );
}

/** Whether a content type is JSON. */
const isJson = (type: unknown) => typeof type === 'string' && /^application\/([\w.-]+\+)?json\b/i.test(type);

/**
 * Watches every answer of `server` (whatever client sends the request): an answer to a reference
 * operation under `prefix` with a JSON body is validated once it is sent. Only matching requests
 * have their body captured.
 */
export function watchServer(server: Server, prefix: string): void {
  const check = wireChecker();
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    if (!url.startsWith(`${prefix}/`)) return;
    const path = url.slice(prefix.length).split('?')[0];
    const op = check.operation(req.method ?? '', path);
    if (!op) return;
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const keep = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === 'string')
        chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    res.write = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      if (typeof args[0] !== 'function') keep(args[0], args[1]);
      return end(...args);
    }) as typeof res.end;
    res.once('finish', () => {
      if (!isJson(res.getHeader('content-type')) || chunks.length === 0) return;
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        recordViolation({
          where: `${op.operationId} ${res.statusCode}`,
          path: '/',
          rule: 'the body is not JSON',
          request: `${req.method} ${url}`,
        });
        return;
      }
      checked.responses += 1;
      const v = check.checkResponse(op, res.statusCode, body, `${req.method} ${url}`);
      if (v) recordViolation(v);
    });
  });
}

/** Validates a webhook body a test receiver got (its raw text). */
export function checkWebhookBody(rawBody: string, request: string): void {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return; // not a webhook of the service (a test posting something else to the receiver)
  }
  checked.webhooks += 1;
  const v = wireChecker().checkWebhook(body, request);
  if (v) recordViolation(v);
}

// Registered once per test file that imports this module: the test that received a non-conforming
// body fails, naming it.
const hooks = globalThis as { afterEach?: (fn: () => void) => void; afterAll?: (fn: () => void) => void };
if (typeof hooks.afterEach === 'function') hooks.afterEach(() => reportViolations('received during this test'));
if (typeof hooks.afterAll === 'function' && process.env.WIRE_LOG) {
  const log = process.env.WIRE_LOG;
  hooks.afterAll(() => appendFileSync(log, `${JSON.stringify({ checked: { ...checked }, violations: seen })}\n`));
}
