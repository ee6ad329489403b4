import { createHash, createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { IHttpOperation } from '@stoplight/types';
import type { IHttpRequest, IHttpResponse } from '@stoplight/prism-http';

/**
 * Modern Treasury, played by a real local HTTP server, from its published contract: every request
 * is routed and validated with Stoplight Prism (`@stoplight/prism-http`) against the committed subset
 * of Modern Treasury's OpenAPI document (test/fixtures/providers/modern-treasury/openapi-subset.json).
 * A request that does not validate is answered 4xx (Modern Treasury's `error_message` shape) AND
 * recorded in `violations`, which a test asserts empty; every answer the stand-in gives is itself
 * validated against the operation's response schema (`answerViolations`, empty unless the stand-in
 * is wrong). State: counterparties and payment orders, Idempotency-Key honoured per key (the same
 * key answers the first result again, never a second order; a different request under a used key
 * is 422). Payment orders move through their statuses (`advance`) and each move is a webhook signed
 * as Modern Treasury signs them: `X-Signature` = hex HMAC-SHA256 of the raw body with the webhook
 * key, `X-Webhook-ID` unique per webhook (the same on a redelivery), `X-Topic`, body
 * `{event, data}`. Failures on demand (`failNext`): a 5xx/429 answer, a hang (no answer until
 * stop), or a dropped answer after the work was done (the crash between the call and its answer).
 *
 * Use (a payout through the service):
 *
 *   const mt = await ModernTreasuryStandIn.start();
 *   // app env: PAYOUT_RAIL=modern-treasury, MODERN_TREASURY_BASE_URL=mt.url,
 *   //   MODERN_TREASURY_API_KEY=mt.apiKey, MODERN_TREASURY_ORGANIZATION_ID=mt.organizationId,
 *   //   MODERN_TREASURY_WEBHOOK_KEY=mt.webhookKey, MODERN_TREASURY_ORIGINATING_ACCOUNT_ID=<any UUID>
 *   mt.webhookUrl = `${appUrl}/webhooks/rails/modern-treasury`;
 *   ... execute a payout, await mt.orderFor(transactionId) ...
 *   await mt.advance(order.id, 'completed');        // signed webhook POSTed to the app
 *   expect(mt.violations).toEqual([]); expect(mt.ordersCreatedFor(transactionId)).toBe(1);
 *   await mt.stop();
 */
// Prism's own modules, loaded from where @stoplight/prism-http resolves them. Not its index: that
// also loads its mocker and the Postman importer, which pull in faker (ESM only, which Jest's
// CommonJS loader cannot require); the stand-in needs Prism's router, validator and operation model.
const require = createRequire(import.meta.url);
const fromPrism = createRequire(require.resolve('@stoplight/prism-http'));
type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
type Diagnostic = { path?: string[]; message: string; code?: string | number };
type Validator<E> = (opts: { resource: IHttpOperation; element: E }) => Either<Diagnostic[], E>;
const route = (fromPrism('./router') as { default: unknown }).default as (opts: {
  resources: IHttpOperation[];
  input: IHttpRequest;
}) => Either<Error, IHttpOperation>;
const validator = fromPrism('./validator') as {
  validateInput: Validator<IHttpRequest>;
  validateOutput: Validator<IHttpResponse>;
  validateSecurity: Validator<IHttpRequest>;
};
const { transformOas3Operations } = fromPrism('@stoplight/http-spec/oas3/operation') as {
  transformOas3Operations: (doc: unknown) => IHttpOperation[];
};
const RefParser = fromPrism('@stoplight/json-schema-ref-parser') as new () => {
  dereference: (doc: object) => Promise<object>;
};
const { decycle, bundleTarget } = fromPrism('@stoplight/json') as {
  decycle: (value: unknown) => object;
  bundleTarget: (opts: { document: unknown; path: string; cloneDocument: boolean }) => IHttpOperation;
};
const sampler = fromPrism('@stoplight/json-schema-sampler') as {
  sample: (schema: unknown, opts: { ticks: number }, spec: unknown) => unknown;
};

/** Prism's getHttpOperationsFromSpec for an OpenAPI 3 document (the same steps, without its other importers). */
async function operationsOf(spec: object): Promise<IHttpOperation[]> {
  const doc = decycle(await new RefParser().dereference(structuredClone(spec)));
  return transformOas3Operations(doc).map((op) =>
    bundleTarget({ document: { ...doc, __target__: op }, path: '#/__target__', cloneDocument: false }),
  );
}

export const SUBSET_FILE = fileURLToPath(
  new URL('../fixtures/providers/modern-treasury/openapi-subset.json', import.meta.url),
);

type Json = Record<string, unknown>;

/** A request the contract refuses (or an answer of ours it refuses): what, and why. */
export interface ContractViolation {
  method: string;
  path: string;
  operationId: string | null;
  problems: string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  operationId: string | null;
  idempotencyKey: string | null;
  status: number;
  /** The request's body, and what the stand-in answered (null: a failure it played). */
  body: unknown;
  answer: unknown;
}

export type Failure =
  | { mode: 'status'; status: 500 | 502 | 503 | 429; operationId?: string }
  | { mode: 'hang'; operationId?: string }
  | { mode: 'drop'; operationId?: string };

export interface SignedWebhook {
  body: string;
  headers: Record<string, string>;
}

/** Modern Treasury's payment order status -> the webhook event that announces it. */
const EVENT_OF_STATUS: Record<string, string> = {
  approved: 'approved',
  processing: 'begin_processing',
  sent: 'finish_processing',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  denied: 'denied',
  returned: 'returned',
  reversed: 'reversed',
};

let contract: Promise<{ operations: IHttpOperation[]; templates: Record<string, Json> }> | null = null;

/** The subset's operations (Prism's model) and one schema-shaped sample body per resource, loaded once. */
function loadContract() {
  contract ??= (async () => {
    const spec = JSON.parse(readFileSync(SUBSET_FILE, 'utf8')) as Json;
    const operations = await operationsOf(spec);
    const sample = (operationId: string, code: string): Json => {
      const op = operations.find((o) => o.iid === operationId);
      const schema = op?.responses.find((r) => r.code === code)?.contents?.[0]?.schema;
      if (!op || !schema) throw new Error(`the subset has no ${code} answer for ${operationId}`);
      // What Prism's static mocker answers (generateStatic): a schema-shaped sample body.
      return sampler.sample(schema, { ticks: 2500 }, op) as Json;
    };
    const counterparty = sample('createCounterparty', '201');
    const order = sample('createPaymentOrder', '201');
    return {
      operations,
      templates: {
        counterparty,
        account: (counterparty.accounts as Json[])[0],
        order,
        return: (order.current_return ?? {}) as Json,
      },
    };
  })();
  return contract;
}

export class ModernTreasuryStandIn {
  readonly organizationId = randomUUID();
  readonly apiKey = `test-${randomUUID()}`;
  readonly webhookKey = `whk-${randomUUID()}`;
  /** Requests that broke the contract (answered 4xx). A test asserts this is empty. */
  readonly violations: ContractViolation[] = [];
  /** Answers of the stand-in that break the contract (a bug here, not in the adapter). */
  readonly answerViolations: ContractViolation[] = [];
  readonly requests: RecordedRequest[] = [];
  readonly counterparties = new Map<string, Json>();
  readonly paymentOrders = new Map<string, Json>();
  /** Where `advance` delivers webhooks (null: built and returned, not sent). */
  webhookUrl: string | null = null;
  private readonly idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  private readonly ordersPerKey = new Map<string, number>();
  private readonly failures: Failure[] = [];
  private readonly sockets = new Set<Socket>();
  private server: http.Server | null = null;
  private port = 0;
  private seq = 0;

  private constructor(
    private readonly operations: IHttpOperation[],
    private readonly templates: Record<string, Json>,
  ) {}

  static async start(): Promise<ModernTreasuryStandIn> {
    const { operations, templates } = await loadContract();
    const standIn = new ModernTreasuryStandIn(operations, templates);
    const server = http.createServer((req, res) => void standIn.handle(req, res));
    server.on('connection', (socket) => {
      standIn.sockets.add(socket);
      socket.on('close', () => standIn.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    standIn.server = server;
    standIn.port = (server.address() as AddressInfo).port;
    return standIn;
  }

  /** The base URL to give the SDK (`baseURL`). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The next matching requests fail this way, in order (then the stand-in answers normally again). */
  failNext(...failures: Failure[]): this {
    this.failures.push(...failures);
    return this;
  }

  /** How many payment orders were created under one Idempotency-Key (the guarantee: never more than 1). */
  ordersCreatedFor(idempotencyKey: string): number {
    return this.ordersPerKey.get(idempotencyKey) ?? 0;
  }

  /** The payment order whose metadata carries this transaction id. */
  orderFor(transactionId: string): Json | undefined {
    return [...this.paymentOrders.values()].find(
      (o) => (o.metadata as Record<string, string>).transaction_id === transactionId,
    );
  }

  /**
   * Moves a payment order to `status` (Modern Treasury's name) and builds the webhook that announces
   * it; delivers it to `webhookUrl` when set. `returned` attaches a return (code R01 unless given);
   * `failed` a vendor failure reason.
   */
  async advance(
    orderId: string,
    status: keyof typeof EVENT_OF_STATUS,
    opts: { returnCode?: string; reason?: string; deliver?: boolean } = {},
  ): Promise<SignedWebhook> {
    const order = this.paymentOrders.get(orderId);
    if (!order) throw new Error(`no payment order ${orderId}`);
    order.status = status;
    order.updated_at = this.now();
    if (status === 'failed') order.vendor_failure_reason = opts.reason ?? 'Account closed';
    if (status === 'returned') {
      order.current_return = {
        ...structuredClone(this.templates.return),
        id: randomUUID(),
        object: 'return',
        live_mode: false,
        created_at: order.updated_at,
        updated_at: order.updated_at,
        discarded_at: null,
        returnable_id: order.id,
        returnable_type: 'payment_order',
        code: opts.returnCode ?? 'R01',
        reason: opts.reason ?? 'Insufficient Funds',
        status: 'completed',
        role: 'originating',
        type: order.type === 'ach' ? 'ach' : order.type === 'wire' ? 'wire' : order.type === 'rtp' ? 'rtp' : 'manual',
        amount: order.amount,
        currency: order.currency,
        current_return: null,
        reference_numbers: [],
        transaction_id: null,
        transaction_line_item_id: null,
        internal_account_id: order.originating_account_id,
        ledger_transaction_id: null,
        failure_reason: null,
        date_of_death: null,
        corrections: null,
      };
    }
    this.checkAnswer('getPaymentOrder', 'GET', `/api/payment_orders/${orderId}`, 200, order);
    const webhook = this.webhook('payment_order', EVENT_OF_STATUS[status], order);
    if (opts.deliver !== false && this.webhookUrl) await this.deliver(webhook);
    return webhook;
  }

  /** A webhook as Modern Treasury sends it: `{event, data}`, signed, with a fresh X-Webhook-ID. */
  webhook(topic: string, event: string, data: Json): SignedWebhook {
    const body = JSON.stringify({ event, data });
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'x-signature': this.sign(body),
        'x-webhook-id': randomUUID(),
        'x-topic': topic,
        'x-live': 'false',
        'x-organization-id': this.organizationId,
      },
    };
  }

  /** Modern Treasury's signature: HMAC-SHA256 of the raw body with the webhook key, hex. */
  sign(body: string, key = this.webhookKey): string {
    return createHmac('sha256', key).update(body, 'utf8').digest('hex');
  }

  /** POSTs one webhook (again, for a duplicate; in any order, for a reordering). */
  async deliver(webhook: SignedWebhook, url = this.webhookUrl): Promise<{ status: number; body: string }> {
    if (!url) throw new Error('no webhook URL');
    const res = await fetch(url, { method: 'POST', headers: webhook.headers, body: webhook.body });
    return { status: res.status, body: await res.text() };
  }

  private now(): string {
    // Strictly increasing timestamps, so "newer" is well defined within one test.
    return new Date(Date.UTC(2026, 0, 1) + ++this.seq * 1000).toISOString();
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    const method = (req.method ?? 'GET').toLowerCase();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of url.searchParams) {
      const prev = query[k];
      query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    let body: unknown;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        return this.refuse(res, method, url.pathname, null, 400, ['the body is not JSON']);
      }
    }
    const input: IHttpRequest = {
      method: method as IHttpRequest['method'],
      url: { path: url.pathname, query },
      headers,
      ...(body !== undefined ? { body } : {}),
    };
    const routed = route({ resources: this.operations, input });
    if (routed._tag === 'Left') {
      return this.refuse(res, method, url.pathname, null, 404, [`no such operation: ${routed.left.message}`]);
    }
    const op = routed.right;
    const operationId = op.iid ?? null;
    const problems: string[] = [];
    const security = validator.validateSecurity({ resource: op, element: input });
    if (security._tag === 'Left') problems.push(...security.left.map(describe));
    const valid = validator.validateInput({ resource: op, element: input });
    if (valid._tag === 'Left') problems.push(...valid.left.map(describe));
    if (problems.length > 0) return this.refuse(res, method, url.pathname, operationId, 422, problems);
    const expected = `Basic ${Buffer.from(`${this.organizationId}:${this.apiKey}`).toString('base64')}`;
    if (headers.authorization !== expected) {
      return this.refuse(res, method, url.pathname, operationId, 401, ['wrong credentials']);
    }

    const failureAt = this.failures.findIndex((f) => !f.operationId || f.operationId === operationId);
    const failure = failureAt >= 0 ? this.failures.splice(failureAt, 1)[0] : null;
    const key = headers['idempotency-key'] ?? null;
    const record = (status: number, answer: unknown) =>
      this.requests.push({ method, path: url.pathname, operationId, idempotencyKey: key, status, body, answer });
    if (failure?.mode === 'status') {
      record(failure.status, null);
      res.writeHead(failure.status, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ errors: { code: 'too_many_requests', message: 'stand-in failure' } }));
    }
    if (failure?.mode === 'hang') {
      record(0, null);
      return; // never answered; stop() destroys the socket
    }

    let status: number;
    let answer: unknown;
    const fingerprint = createHash('sha256').update(`${method} ${url.pathname} ${raw}`).digest('hex');
    const replay = method === 'post' && key ? this.idempotent.get(key) : undefined;
    if (replay && replay.fingerprint !== fingerprint) {
      return this.refuse(res, method, url.pathname, operationId, 422, [
        `Idempotency-Key ${key} was used for a different request`,
      ]);
    }
    if (replay) ({ status, answer } = { status: replay.status, answer: replay.body });
    else {
      ({ status, answer } = this.operate(operationId, op, url, body as Json, key));
      if (method === 'post' && key && status < 300) this.idempotent.set(key, { fingerprint, status, body: answer });
    }
    record(status, answer);
    this.checkAnswer(operationId ?? '', method, url.pathname, status, answer, op);
    if (failure?.mode === 'drop') {
      req.socket.destroy(); // the work is done, the answer is lost
      return;
    }
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(Array.isArray(answer) ? { 'x-per-page': String(answer.length || 25) } : {}),
    });
    res.end(JSON.stringify(answer));
  }

  private operate(
    operationId: string | null,
    op: IHttpOperation,
    url: URL,
    body: Json,
    key: string | null,
  ): { status: number; answer: unknown } {
    const now = this.now();
    switch (operationId ?? '') {
      case 'listCounterparties': {
        const externalId = url.searchParams.get('external_id');
        const all = [...this.counterparties.values()].filter((c) => !externalId || c.external_id === externalId);
        const perPage = Number(url.searchParams.get('per_page') ?? 25);
        return { status: 200, answer: all.slice(0, perPage) };
      }
      case 'createCounterparty': {
        const id = randomUUID();
        const accounts = ((body.accounts as Json[] | undefined) ?? []).map((a) => this.account(a, now));
        const counterparty: Json = {
          ...structuredClone(this.templates.counterparty),
          id,
          object: 'counterparty',
          live_mode: false,
          created_at: now,
          updated_at: now,
          discarded_at: null,
          name: body.name ?? null,
          accounts,
          email: body.email ?? null,
          legal_entity_id: null,
          metadata: body.metadata ?? {},
          external_id: body.external_id ?? null,
          send_remittance_advice: false,
          verification_status: 'unverified',
        };
        this.counterparties.set(id, counterparty);
        return { status: 201, answer: counterparty };
      }
      case 'createPaymentOrder': {
        const receiving = [...this.counterparties.values()]
          .flatMap((c) => (c.accounts as Json[]).map((a) => ({ counterparty: c, account: a })))
          .find((x) => x.account.id === body.receiving_account_id);
        if (!receiving) {
          return {
            status: 422,
            answer: {
              errors: {
                code: 'parameter_invalid',
                message: 'receiving_account_id is not an account',
                parameter: 'receiving_account_id',
              },
            },
          };
        }
        const id = randomUUID();
        const order: Json = {
          ...structuredClone(this.templates.order),
          id,
          object: 'payment_order',
          live_mode: false,
          created_at: now,
          updated_at: now,
          type: body.type,
          subtype: body.subtype ?? null,
          amount: body.amount,
          direction: body.direction,
          priority: body.priority ?? 'normal',
          originating_account_id: body.originating_account_id,
          receiving_account_id: body.receiving_account_id,
          receiving_account: receiving.account,
          receiving_account_type: 'external_account',
          counterparty_id: receiving.counterparty.id,
          currency: body.currency,
          description: body.description ?? null,
          metadata: body.metadata ?? {},
          status: 'approved',
          current_return: null,
          current_hold: null,
          vendor_failure_reason: null,
          transaction_ids: [],
          reference_numbers: [],
          ledger_transaction_id: null,
          external_id: body.external_id ?? null,
          batch_id: null,
          ultimate_originating_account: null,
          ultimate_originating_account_id: null,
          ultimate_originating_account_type: null,
          originating_account_type: 'internal_account',
          foreign_exchange_rate: null,
          vendor_attributes: null,
          expires_at: null,
          process_after: null,
        };
        this.paymentOrders.set(id, order);
        if (key) this.ordersPerKey.set(key, (this.ordersPerKey.get(key) ?? 0) + 1);
        return { status: 201, answer: order };
      }
      case 'getPaymentOrder': {
        const id = url.pathname.split('/').pop() ?? '';
        const order = this.paymentOrders.get(id);
        if (!order) return { status: 404, answer: { errors: { code: 'resource_not_found', message: 'not found' } } };
        return { status: 200, answer: order };
      }
      default:
        void op;
        return { status: 404, answer: { errors: { code: 'not_found', message: `${operationId} is not played` } } };
    }
  }

  private account(request: Json, now: string): Json {
    const stamp = { object: '', live_mode: false, created_at: now, updated_at: now, discarded_at: null };
    const t = this.templates.account;
    const detailT = (t.account_details as Json[])[0];
    const routingT = (t.routing_details as Json[])[0];
    return {
      ...structuredClone(t),
      ...stamp,
      id: randomUUID(),
      object: 'external_account',
      account_type: request.account_type ?? 'other',
      party_type: request.party_type ?? null,
      party_name: request.party_name ?? '',
      name: request.name ?? null,
      party_address: request.party_address
        ? {
            ...structuredClone(t.party_address as Json),
            live_mode: false,
            created_at: now,
            updated_at: now,
            id: randomUUID(),
            object: 'address',
            line2: null,
            region: null,
            ...(request.party_address as Json),
          }
        : null,
      account_details: ((request.account_details as Json[] | undefined) ?? []).map((d) => ({
        ...structuredClone(detailT),
        ...stamp,
        id: randomUUID(),
        object: 'account_detail',
        account_number: d.account_number,
        account_number_type: d.account_number_type ?? 'other',
        account_number_safe: String(d.account_number).slice(-4),
      })),
      routing_details: ((request.routing_details as Json[] | undefined) ?? []).map((r) => ({
        ...structuredClone(routingT),
        ...stamp,
        id: randomUUID(),
        object: 'routing_detail',
        routing_number: r.routing_number,
        routing_number_type: r.routing_number_type,
        payment_type: r.payment_type ?? null,
        bank_name: 'Stand-in Bank',
        bank_address: null,
      })),
      external_id: request.external_id ?? null,
      metadata: request.metadata ?? {},
      contact_details: [],
      ledger_account_id: null,
      verification_status: 'unverified',
    };
  }

  private checkAnswer(
    operationId: string,
    method: string,
    path: string,
    status: number,
    answer: unknown,
    op = this.operations.find((o) => o.iid === operationId),
  ): void {
    if (!op) return;
    const out = validator.validateOutput({
      resource: op,
      element: { statusCode: status, headers: { 'content-type': 'application/json' }, body: answer },
    });
    const problems = out._tag === 'Left' ? out.left.filter((d) => !publishedQuirk(d, answer)).map(describe) : [];
    if (problems.length > 0) this.answerViolations.push({ method, path, operationId, problems });
  }

  private refuse(
    res: http.ServerResponse,
    method: string,
    path: string,
    operationId: string | null,
    status: number,
    problems: string[],
  ): void {
    this.violations.push({ method, path, operationId, problems });
    this.requests.push({ method, path, operationId, idempotencyKey: null, status, body: null, answer: null });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        errors: { code: status === 401 ? 'invalid_key' : 'parameter_invalid', message: problems.join('; ') },
      }),
    );
  }
}

/**
 * The published document's one known quirk: `ultimate_originating_account` is `nullable` beside a
 * `oneOf` of two non-nullable $refs, so a JSON Schema validator refuses the null Modern Treasury
 * answers for a payment order without one. That null is accepted; nothing else is.
 */
function publishedQuirk(d: Diagnostic, answer: unknown): boolean {
  return (
    d.path?.[0] === 'body' &&
    d.path[1] === 'ultimate_originating_account' &&
    d.path.length === 2 &&
    (answer as Json | null)?.ultimate_originating_account === null
  );
}

function describe(d: Diagnostic): string {
  return `${(d.path ?? []).join('.')}: ${d.message}`;
}
