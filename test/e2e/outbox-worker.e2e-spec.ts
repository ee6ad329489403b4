import { stubCardEvent } from '../support/events.js';
import { SystemClock } from '../../src/common/clock.js';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { formatId, newUuid, parseId } from '../../src/common/ids.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { NotificationListener } from '../../src/database/notifications.js';
import {
  OUTBOX_LEASES_RENEWED,
  OUTBOX_RECORDED,
  OutboxDispatcher,
  OutboxLeasesRenewed,
  OutboxRecorded,
} from '../../src/outbox/outbox.dispatcher.js';
import { OUTBOX_CHANNEL, OutboxService, WrittenEvent } from '../../src/outbox/outbox.service.js';
import { OutboxStore } from '../../src/outbox/outbox.store.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** Real elapsed time (these tests measure a real process and real leases). */
const wallClock = new SystemClock();

/**
 * The worker as it runs in production: background loops (ROLE=worker), woken by NOTIFY on
 * PostgreSQL and by polling on the embedded engine, on a database of this file's own. Tests await
 * the receiver and the workers' "recorded" events; nothing sleeps.
 */
let db: IsolatedDatabase;
let api: TestApp;
const workers: TestApp[] = [];
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  db = await isolatedDatabase();
  api = await startTestApp({}, { databaseUrl: db.url }); // ROLE=api: writes, never delivers
});
afterAll(async () => {
  for (const w of workers) await w.close();
  await api.close();
  for (const r of receivers) await r.stop();
  await db.close();
});

async function startWorker(): Promise<TestApp> {
  const w = await startTestApp({ ROLE: 'worker', OUTBOX_POLL_INTERVAL_MS: '50' }, { databaseUrl: db.url });
  workers.push(w);
  expect(w.app.get(OutboxDispatcher).running).toBe(true);
  return w;
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await WebhookReceiver.start();
  receivers.push(r);
  return r;
}

/** Waits until these workers have nothing in flight and have recorded every outcome. */
/** Resolves with the next outcomes `app` records (subscribe before causing them). */
function nextRecorded(app: TestApp): Promise<OutboxRecorded> {
  const emitter = app.app.get(EventEmitter2);
  return new Promise((resolve) => emitter.once(OUTBOX_RECORDED, resolve));
}

const idle = (apps: TestApp[]) => Promise.all(apps.map((a) => a.app.get(OutboxDispatcher).idle()));

function emit(p: TestPlatform, cardId: string, data: Record<string, unknown> = {}): Promise<WrittenEvent> {
  const platformId = parseId('Platform', p.platformId)!;
  return api.app
    .get(TransactionService)
    .run((m) => api.app.get(OutboxService).write(m, stubCardEvent(platformId, { id: cardId, ...data })));
}

describe('outbox worker', () => {
  it('API processes (ROLE=api) never deliver; a worker picks the events up', async () => {
    expect(api.app.get(OutboxDispatcher).running).toBe(false);
    const w = await startWorker();
    const r = await receiver();
    const p = await TestPlatform.create(api);
    const patched = await p.patch('/config', { webhookEndpoint: r.url });
    expect(patched.status).toBe(200);
    const test = await r.nth(1);
    expect(test.body).toMatchObject({ type: 'TEST', data: {} });
    await idle([w]); // the delivery is in flight until the receiver answers; then its outcome is recorded
    const list = await p.get('/webhook-events');
    expect(list.body.data).toEqual([
      expect.objectContaining({
        id: test.body.id,
        type: 'TEST',
        status: 'DELIVERED',
        aggregateId: expect.stringMatching(/^PlatformConfig:/),
      }),
    ]);
  });

  it('two worker processes on one database against a healthy receiver: each event delivered once, in order per aggregate', async () => {
    const [a, b] = workers.length >= 2 ? workers : [workers[0] ?? (await startWorker()), await startWorker()];
    const r = await receiver();
    const p = await TestPlatform.create(api);
    await p.patch('/config', { webhookEndpoint: r.url });
    await r.nth(1);
    await idle([a, b]);
    r.reset();

    const cards = Array.from({ length: 20 }, () => formatId('Card', newUuid()));
    const written: WrittenEvent[] = [];
    for (let step = 0; step < 10; step++) {
      written.push(...(await Promise.all(cards.map((card) => emit(p, card, { step })))));
    }
    const got = await r.waitFor(written.length);
    await idle([a, b]);
    expect(new Set(got.map((w) => w.body.id)).size).toBe(written.length);
    for (const card of cards) {
      const steps = got.filter((w) => w.body.data.id === card).map((w) => w.body.data.step);
      expect(steps).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
    // Nothing else is due, and nothing more arrives: one more cycle on each finds nothing.
    expect(await a.app.get(OutboxDispatcher).runOnce()).toEqual([]);
    expect(await b.app.get(OutboxDispatcher).runOnce()).toEqual([]);
    expect(r.received).toHaveLength(written.length);
    const delivered = await p.get('/webhook-events?status=DELIVERED&type=CARD.STATUS_CHANGE&limit=100');
    expect(delivered.body.totalCount).toBe(written.length);
  });

  it('on shutdown a worker finishes its in-flight delivery and records it', async () => {
    const w = await startTestApp({ ROLE: 'worker', OUTBOX_POLL_INTERVAL_MS: '50' }, { databaseUrl: db.url });
    // Only this worker runs for this test.
    for (const other of workers.splice(0)) await other.close();
    const r = await receiver();
    const p = await TestPlatform.create(api);
    await db.query(`UPDATE platform_configs SET webhook_endpoint = $1 WHERE platform_id = $2`, [
      r.url,
      parseId('Platform', p.platformId),
    ]);
    let release!: () => void;
    r.respondWith({ status: 200, after: new Promise<void>((resolve) => (release = resolve)) });
    const ev = await emit(p, formatId('Card', newUuid()));
    await r.nth(1); // in flight now
    const closing = w.close();
    release();
    await closing;
    const view = await p.get(`/webhook-events/${ev.envelope.id}`);
    expect(view.body).toMatchObject({
      status: 'DELIVERED',
      attempts: [expect.objectContaining({ responseStatus: 200 })],
    });
    const [row] = (await db.query(`SELECT locked_until FROM outbox_events WHERE id = $1`, [ev.uuid])).rows;
    expect(row.locked_until).toBeNull();
  });

  it('a delivery still out when the grace period ends is released, and another worker delivers it', async () => {
    const w = await startTestApp({ ROLE: 'worker', OUTBOX_POLL_INTERVAL_MS: '50' }, { databaseUrl: db.url });
    const r = await receiver();
    const p = await TestPlatform.create(api);
    await db.query(`UPDATE platform_configs SET webhook_endpoint = $1 WHERE platform_id = $2`, [
      r.url,
      parseId('Platform', p.platformId),
    ]);
    let release!: () => void;
    r.respondWith({ status: 200, after: new Promise<void>((resolve) => (release = resolve)) });
    const ev = await emit(p, formatId('Card', newUuid()));
    await r.nth(1);
    await w.app.get(OutboxDispatcher).stop(0); // no grace: give the lease back at once
    const [row] = (
      await db.query(`SELECT status, locked_until, attempt_count FROM outbox_events WHERE id = $1`, [ev.uuid])
    ).rows;
    expect(row).toEqual({ status: 'PENDING', locked_until: null, attempt_count: 0 });
    release();
    await w.close();

    const next = await startWorker();
    const again = await r.nth(2);
    expect(again.body.id).toBe(ev.envelope.id);
    await idle([next]);
    expect((await p.get(`/webhook-events/${ev.envelope.id}`)).body.status).toBe('DELIVERED');
  });

  it('renews its leases while a delivery outlasts the lease: no other worker takes the event, it is sent once', async () => {
    for (const other of workers.splice(0)) await other.close(); // only this worker delivers
    const leaseMs = 1000;
    const w = await startTestApp(
      { ROLE: 'worker', OUTBOX_POLL_INTERVAL_MS: '50', OUTBOX_LEASE_MS: String(leaseMs) },
      { databaseUrl: db.url },
    );
    workers.push(w);
    const r = await receiver();
    const p = await TestPlatform.create(api);
    await db.query(`UPDATE platform_configs SET webhook_endpoint = $1 WHERE platform_id = $2`, [
      r.url,
      parseId('Platform', p.platformId),
    ]);
    let release!: () => void;
    r.respondWith({ status: 200, after: new Promise<void>((resolve) => (release = resolve)) });
    const ev = await emit(p, formatId('Card', newUuid()));
    await r.nth(1); // in flight, and held there
    const [claimed] = (await db.query(`SELECT locked_until, lock_token FROM outbox_events WHERE id = $1`, [ev.uuid]))
      .rows as Array<{ locked_until: Date; lock_token: string }>;

    // Heartbeats go by until the lease it was claimed with is over.
    const renewals: OutboxLeasesRenewed[] = [];
    while (wallClock.now().getTime() <= claimed.locked_until.getTime()) {
      renewals.push(await new Promise((resolve) => w.app.get(EventEmitter2).once(OUTBOX_LEASES_RENEWED, resolve)));
    }
    expect(renewals.every((x) => x.renewed === 1 && x.lost === 0)).toBe(true);
    const [now] = (await db.query(`SELECT locked_until, lock_token FROM outbox_events WHERE id = $1`, [ev.uuid]))
      .rows as Array<{ locked_until: Date; lock_token: string }>;
    expect(now.lock_token).toBe(claimed.lock_token);
    expect(now.locked_until.getTime()).toBeGreaterThan(claimed.locked_until.getTime());
    // Another worker claiming at the end of the original lease finds nothing to take.
    const after = new Date(claimed.locked_until.getTime() + 1);
    expect(await api.app.get(OutboxStore).claimDue(after, 10)).toEqual([]);

    const done = nextRecorded(w);
    release();
    expect((await done).outcomes).toEqual([{ id: ev.envelope.id, status: 'DELIVERED' }]);
    expect(r.received).toHaveLength(1);
    const [row] = (await db.query(`SELECT status, locked_until FROM outbox_events WHERE id = $1`, [ev.uuid])).rows;
    expect(row).toEqual({ status: 'DELIVERED', locked_until: null });
  });
});

// LISTEN exists only on PostgreSQL (the embedded engine polls).
(process.env.TEST_DATABASE_ADMIN_URL ? describe : describe.skip)('LISTEN/NOTIFY (PostgreSQL)', () => {
  it('the listener wakes the worker on NOTIFY and reconnects when its connection is killed', async () => {
    for (const w of workers.splice(0)) await w.close(); // only this test's listener is connected
    let wakes = 0;
    const waiters: Array<{ at: number; resolve: () => void }> = [];
    const wakeNumber = (n: number) =>
      new Promise<void>((resolve) => (wakes >= n ? resolve() : waiters.push({ at: n, resolve })));
    const wake = () => {
      wakes++;
      waiters.filter((w) => w.at <= wakes).forEach((w) => w.resolve());
    };
    const listener = new NotificationListener(db.url, OUTBOX_CHANNEL, { onNotification: wake, onConnected: wake });
    await listener.start();
    try {
      await wakeNumber(1); // connected (a connect also wakes: notifications may have been missed)
      await db.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
      await wakeNumber(2);
      const { rows } = await db.query(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN ${OUTBOX_CHANNEL}'`,
      );
      expect(rows).toHaveLength(1);
      await db.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await wakeNumber(3); // reconnected
      await db.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
      await wakeNumber(4);
    } finally {
      await listener.stop();
    }
  });
});
