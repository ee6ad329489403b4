import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { activeCard, statusChange } from '../support/cards.js';
import { ChildServer } from '../support/child-server.js';
import { isolatedDatabase, type IsolatedDatabase } from '../support/isolated-database.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver.js';

/**
 * Traces across the outbox (src/tracing.ts, src/tracing/trace-context.ts): a real server process
 * started with the tracing preload and ROLE=all, exporting OTLP/HTTP JSON to a receiver this test
 * runs; a PATCH /cards/{id} freeze gives the request's span, its SQL spans, and the worker's
 * delivery span in the same trace and linked to the request, and the webhook carries a
 * traceparent of that trace.
 */

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
  links?: Array<{ traceId: string; spanId: string }>;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

/** A local OTLP/HTTP collector: records every exported span (JSON) and the resources they came with. */
class OtlpReceiver {
  readonly spans: OtlpSpan[] = [];
  readonly resources: Array<Record<string, string | undefined>> = [];
  private waiters: Array<() => void> = [];
  private server!: http.Server;

  static async start(): Promise<OtlpReceiver> {
    const r = new OtlpReceiver();
    r.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          const parsed = JSON.parse(body) as OtlpExport;
          for (const rs of parsed.resourceSpans) {
            r.resources.push(Object.fromEntries(rs.resource.attributes.map((a) => [a.key, a.value.stringValue])));
            for (const ss of rs.scopeSpans) r.spans.push(...ss.spans);
          }
          const waiting = r.waiters;
          r.waiters = [];
          waiting.forEach((w) => w());
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The first span passing `test`, once exported. */
  async span(test: (s: OtlpSpan) => boolean): Promise<OtlpSpan> {
    for (;;) {
      const found = this.spans.find(test);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue !== undefined ? String(v.intValue) : undefined);
};

let own: IsolatedDatabase;
let t: TestApp;
let otlp: OtlpReceiver;
let receiver: WebhookReceiver;
let child: ChildServer | undefined;
beforeAll(async () => {
  own = await isolatedDatabase();
  t = await startTestApp({}, { databaseUrl: own.url });
  otlp = await OtlpReceiver.start();
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  if (child) {
    child.child.kill('SIGTERM');
    await child.exited;
  }
  await t.close();
  await receiver.stop();
  await otlp.stop();
  await own.close();
});

/** `promise`, or after two minutes a failure saying what had arrived (instead of the test's bare timeout). */
function diagnosed<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const spans = otlp.spans.map((s) => `${s.name}/${s.kind}/${s.traceId.slice(0, 8)}`).join(', ');
      const hooks = receiver.received.map(
        (w) => `${w.body.type}:${String(w.body.data.status)}:${String(w.headers.traceparent)}`,
      );
      reject(
        new Error(`no ${what}; webhooks: ${hooks.join(', ')}; spans: ${spans}; stderr: ${child?.errors.slice(-1000)}`),
      );
    }, 120_000);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

/** The n-th and later webhooks until one passes `test`. */
async function webhook(test: (w: ReceivedWebhook) => boolean): Promise<ReceivedWebhook> {
  for (let n = 1; ; n++) {
    const w = await receiver.nth(n);
    if (test(w)) return w;
  }
}

it('a freeze: request span, SQL spans, a delivery span in its trace linked to it, and the traceparent at the receiver', async () => {
  const p = await TestPlatform.create(t);
  const { card } = await activeCard(p);
  await p.patch('/config', { webhookEndpoint: receiver.url }).expect(200);
  child = ChildServer.start(['node', '--import', './dist/src/tracing.js', 'dist/src/main.js'], {
    DATABASE_URL: own.url,
    ROLE: 'all',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_SERVICE_NAME: 'payments-test',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  const { port } = await child.listening();
  const res = await fetch(`http://127.0.0.1:${port}${V}/cards/${card.id}`, {
    method: 'PATCH',
    headers: { authorization: p.authorization, 'content-type': 'application/json' },
    body: JSON.stringify(statusChange('FROZEN', 'LOST', 'traced')),
  });
  expect(res.status).toBe(200);

  const delivered = await diagnosed(
    webhook((w) => w.body.type === 'CARD.STATUS_CHANGE' && w.body.data.status === 'FROZEN'),
    'the FROZEN webhook',
  );
  const traceparent = String(delivered.headers.traceparent);
  expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
  const traceId = traceparent.split('-')[1];

  const delivery = await diagnosed(
    otlp.span((s) => s.name === 'webhook delivery' && s.traceId === traceId),
    'the delivery span',
  );
  const inTrace = otlp.spans.filter((s) => s.traceId === traceId);
  const request = inTrace.find(
    (s) => s.kind === 2 && (attr(s, 'http.method') ?? attr(s, 'http.request.method')) === 'PATCH',
  );
  const sql = inTrace.find((s) => (attr(s, 'db.system') ?? attr(s, 'db.system.name')) === 'postgresql');
  expect(request).toBeDefined();
  expect(sql).toBeDefined();
  expect(sql!.traceId).toBe(request!.traceId);
  expect(attr(delivery, 'webhook.event_id')).toBe(delivered.body.id);
  expect(delivery.links).toEqual([expect.objectContaining({ traceId })]);
  // The delivery's parent (and link) is the span that wrote the event, inside the request's trace.
  expect(delivery.parentSpanId).toBe(delivery.links![0].spanId);
  expect(otlp.spans.some((s) => s.spanId === delivery.parentSpanId)).toBe(true);
  expect(traceparent.split('-')[2]).toBe(
    otlp.spans.find((s) => s.traceId === traceId && s.parentSpanId === delivery.spanId && s.kind === 3)?.spanId ??
      delivery.spanId,
  );
  expect(otlp.resources).toContainEqual(
    expect.objectContaining({ 'service.name': 'payments-test', 'service.version': expect.any(String) }),
  );
  // Log lines carry the ids while tracing is on.
  expect(child.lines.some((l) => l.trace_id === traceId && typeof l.span_id === 'string')).toBe(true);
}, 240_000); // the traced process loads the SDK and starts under the import hook: slow on a busy machine
