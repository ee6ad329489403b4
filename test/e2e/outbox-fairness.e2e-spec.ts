import { EventEmitter2 } from '@nestjs/event-emitter';
import { formatId, newUuid, parseId } from '../../src/common/ids.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { OUTBOX_RECORDED, OutboxDispatcher, OutboxRecorded } from '../../src/outbox/outbox.dispatcher.js';
import { OutboxService, WrittenEvent } from '../../src/outbox/outbox.service.js';
import { platformWithEndpoint, stubCardEvent } from '../support/events.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Fair delivery: one platform's slow receiver and backlog must not hold up another platform. A
 * background worker (ROLE=worker, OUTBOX_CONCURRENCY=16 and OUTBOX_ENDPOINT_CONCURRENCY=4)
 * on a database of this file's own; the slow receiver holds every request until the test lets go.
 */
let db: IsolatedDatabase;
let api: TestApp;
let worker: TestApp | null = null;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  db = await isolatedDatabase();
  api = await startTestApp({}, { databaseUrl: db.url });
});
afterAll(async () => {
  await worker?.close();
  await api.close();
  for (const r of receivers) await r.stop();
  await db.close();
});

const platformAt = (r: WebhookReceiver): Promise<TestPlatform> => platformWithEndpoint(api, db, r.url);

function emit(p: TestPlatform, data: Record<string, unknown>): Promise<WrittenEvent> {
  const platformId = parseId('Platform', p.platformId)!;
  return api.app
    .get(TransactionService)
    .run((m) =>
      api.app.get(OutboxService).write(m, stubCardEvent(platformId, { id: formatId('Card', newUuid()), ...data })),
    );
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start();
  receivers.push(r);
  return r;
}

describe('fair delivery across platforms', () => {
  it("a slow receiver with a large backlog takes only its endpoint's slots: another platform's events all arrive meanwhile", async () => {
    const slow = await receiver();
    const fast = await receiver();
    let release!: () => void;
    slow.setDefault({ status: 200, after: new Promise<void>((resolve) => (release = resolve)) });
    const slowPlatform = await platformAt(slow);
    const fastPlatform = await platformAt(fast);

    // The slow platform's backlog is queued first (older), on as many cards: every event is due now.
    const backlog = 80;
    const slowEvents: WrittenEvent[] = [];
    for (let i = 0; i < backlog; i += 20) {
      slowEvents.push(...(await Promise.all(Array.from({ length: 20 }, (_, j) => emit(slowPlatform, { n: i + j })))));
    }
    const fastEvents = await Promise.all(Array.from({ length: 10 }, (_, n) => emit(fastPlatform, { n })));

    const cap = 4;
    worker = await startTestApp(
      {
        ROLE: 'worker',
        OUTBOX_POLL_INTERVAL_MS: '50',
        OUTBOX_CONCURRENCY: '16',
        OUTBOX_ENDPOINT_CONCURRENCY: String(cap),
      },
      { databaseUrl: db.url },
    );
    const recorded = new Set<string>();
    const fastRecorded = new Promise<void>((resolve) => {
      const onRecorded = ({ outcomes }: OutboxRecorded) => {
        outcomes.forEach((o) => recorded.add(o.id));
        if (fastEvents.every((e) => recorded.has(e.envelope.id))) {
          worker!.app.get(EventEmitter2).off(OUTBOX_RECORDED, onRecorded);
          resolve();
        }
      };
      worker!.app.get(EventEmitter2).on(OUTBOX_RECORDED, onRecorded);
    });

    const got = await fast.waitFor(fastEvents.length);
    await fastRecorded;
    expect(new Set(got.map((w) => w.body.id))).toEqual(new Set(fastEvents.map((e) => e.envelope.id)));
    // Meanwhile the slow endpoint has exactly its cap of requests out, and its backlog is untouched.
    expect(slow.received).toHaveLength(cap);
    const pending = await db.query(
      `SELECT count(*)::int AS n FROM outbox_events WHERE platform_id = $1 AND status = 'PENDING'`,
      [parseId('Platform', slowPlatform.platformId)],
    );
    expect(pending.rows[0].n).toBe(backlog);
    const fastView = await fastPlatform.get('/webhook-events?status=DELIVERED&limit=100');
    expect(fastView.body.totalCount).toBe(fastEvents.length);

    // The slow receiver catches up: its whole backlog arrives, each event once.
    slow.setDefault({ status: 200 });
    release();
    const slowGot = await slow.waitFor(backlog);
    await worker.app.get(OutboxDispatcher).idle();
    expect(new Set(slowGot.map((w) => w.body.id))).toEqual(new Set(slowEvents.map((e) => e.envelope.id)));
    expect(slow.received).toHaveLength(backlog);
    const slowView = await slowPlatform.get('/webhook-events?status=DELIVERED&limit=100');
    expect(slowView.body.totalCount).toBe(backlog);
  });
});
