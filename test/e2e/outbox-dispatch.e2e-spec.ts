import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { SystemClock } from '../../src/common/clock.js';
import { formatId, newUuid, parseId } from '../../src/common/ids.js';
import { AppConfig } from '../../src/config/app-config.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { GIVE_UP_AFTER_MS, MAX_INTERVAL_MS } from '../../src/outbox/delivery/retry-policy.js';
import { OutboxDispatcher } from '../../src/outbox/outbox.dispatcher.js';
import { OutboxService, WrittenEvent } from '../../src/outbox/outbox.service.js';
import { WebhookCapture, stubCard, stubCardEvent } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { referenceNodeVerify } from '../support/signatures.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The outbox driven one dispatch cycle at a time (`runOnce`/`drain`) with an injected clock, against
 * real local HTTP receivers, on a database of this file's own. No sleeps: time moves by the clock.
 */
let db: IsolatedDatabase;
let clock: FakeClock;
let t: TestApp;
const receivers: WebhookReceiver[] = [];
const extraApps: TestApp[] = [];

beforeAll(async () => {
  db = await isolatedDatabase();
  clock = new FakeClock();
  t = await startTestApp({}, { databaseUrl: db.url, clock });
});
afterAll(async () => {
  for (const app of extraApps) await app.close();
  await t.close();
  for (const r of receivers) await r.stop();
  await db.close();
});
beforeEach(async () => {
  // Each test starts with an empty outbox, so a cycle only sees that test's events.
  await db.query('DELETE FROM outbox_attempts');
  await db.query('DELETE FROM outbox_events');
  clock.set(new SystemClock().now());
});

const dispatcher = (app = t) => app.app.get(OutboxDispatcher);
const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;

/** A platform whose webhookEndpoint is a fresh receiver (the TEST webhook of the change already delivered). */
async function platformWithReceiver(): Promise<{ p: TestPlatform; r: WebhookReceiver }> {
  const p = await TestPlatform.create(t);
  const { receiver: r } = await WebhookCapture.attach(t, p);
  receivers.push(r);
  return { p, r };
}

function emit(p: TestPlatform, cardId: string, data: Record<string, unknown> = {}): Promise<WrittenEvent> {
  return t.app
    .get(TransactionService)
    .run((m) => t.app.get(OutboxService).write(m, stubCardEvent(uuidOf(p), { id: cardId, ...data })));
}

const newCardId = () => formatId('Card', newUuid());

async function eventView(p: TestPlatform, id: string) {
  const res = await p.get(`/webhook-events/${id}`);
  expect(res.status).toBe(200);
  return res.body as {
    id: string;
    status: string;
    nextAttemptAt: string | null;
    deliveredAt: string | null;
    payload: Record<string, unknown>;
    attempts: Array<{ attemptedAt: string; responseStatus: number | null; error: string | null; durationMs: number }>;
  };
}

describe('outbox writer', () => {
  it('an event written in a transaction that rolls back is never delivered; a committed one is', async () => {
    const { p, r } = await platformWithReceiver();
    const tx = t.app.get(TransactionService);
    const outbox = t.app.get(OutboxService);
    const card = newCardId();
    await expect(
      tx.run(async (m) => {
        await outbox.write(m, stubCardEvent(uuidOf(p), { id: card, status: 'FROZEN' }));
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    const committed = await emit(p, card, { status: 'ACTIVE' });

    await dispatcher().drain();
    clock.advance(GIVE_UP_AFTER_MS);
    await dispatcher().drain();
    expect(r.received.map((w) => w.body.id)).toEqual([committed.envelope.id]);
    expect(r.received[0].body.data).toEqual(stubCard({ id: card, status: 'ACTIVE' }));
    // The rolled-back event gave its sequence number back: the committed one is the aggregate's first.
    expect(committed.seq).toBe(1);
    const list = await p.get('/webhook-events?type=CARD.STATUS_CHANGE');
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([committed.envelope.id]);
  });

  it('refuses to write outside a transaction', async () => {
    const p = await TestPlatform.create(t);
    await expect(
      t.app
        .get(OutboxService)
        .write(t.app.get(TransactionService).manager, stubCardEvent(uuidOf(p), { id: newCardId() })),
    ).rejects.toThrow(/inside the producer transaction/);
  });

  it('numbers concurrent writers of one aggregate 1..n without gaps or duplicates', async () => {
    const p = await TestPlatform.create(t);
    const card = newCardId();
    const written = await Promise.all(Array.from({ length: 20 }, (_, i) => emit(p, card, { n: i })));
    expect(written.map((w) => w.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect((await emit(p, newCardId())).seq).toBe(1); // another aggregate has its own sequence
  });

  it('the envelope is {id: Webhook:<uuid>, type, timestamp, data} and goes out byte for byte', async () => {
    const { p, r } = await platformWithReceiver();
    const card = { id: newCardId(), status: 'FROZEN', last4: '4242' };
    const written = await t.app
      .get(TransactionService)
      .run((m) => t.app.get(OutboxService).write(m, stubCardEvent(uuidOf(p), card)));
    await dispatcher().drain();
    const [got] = r.received;
    expect(got.method).toBe('POST');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.body).toEqual({
      id: written.envelope.id,
      type: 'CARD.STATUS_CHANGE',
      timestamp: clock.now().toISOString(),
      data: stubCard(card),
    });
    expect(got.body.id).toMatch(/^Webhook:[0-9a-f-]{36}$/);
    const view = await eventView(p, written.envelope.id);
    expect(view.payload).toEqual(got.body);
    expect(JSON.stringify(view.payload)).toBe(got.rawBody);
  });
});

describe('delivery outcomes', () => {
  it('receiver fails the first 3 attempts: retried on the backoff schedule, then delivered, every attempt recorded', async () => {
    const { p, r } = await platformWithReceiver();
    r.respondWith({ status: 500, body: 'down' }, { status: 502 }, { status: 400, body: 'bad' });
    const ev = await emit(p, newCardId());
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [done] = await dispatcher().runOnce();
      expect(done.decision.status).toBe('PENDING');
      if (done.decision.status !== 'PENDING') return;
      const wait = done.decision.nextAttemptAt.getTime() - clock.now().getTime();
      const ceiling = 1000 * 2 ** (attempt - 1);
      expect(wait).toBeGreaterThanOrEqual(ceiling / 2);
      expect(wait).toBeLessThanOrEqual(ceiling);
      clock.advance(wait - 1);
      expect(await dispatcher().runOnce()).toEqual([]); // not a millisecond early
      clock.advance(1);
    }
    const [last] = await dispatcher().runOnce();
    expect(last.decision.status).toBe('DELIVERED');

    const view = await eventView(p, ev.envelope.id);
    expect(view.status).toBe('DELIVERED');
    expect(view.deliveredAt).toBe(clock.now().toISOString());
    expect(view.nextAttemptAt).toBeNull();
    expect(view.attempts.map((a) => a.responseStatus)).toEqual([500, 502, 400, 200]);
    expect(view.attempts[0]).toMatchObject({ error: null, responseBody: 'down' });
    expect(r.received).toHaveLength(4);
    expect(new Set(r.received.map((w) => w.body.id))).toEqual(new Set([ev.envelope.id]));
    expect(new Set(r.received.map((w) => w.rawBody)).size).toBe(1);
  });

  it('keeps retrying (intervals doubling, capped at 30 minutes) and gives up 7 days after creation: FAILED', async () => {
    const { p, r } = await platformWithReceiver();
    r.setDefault({ status: 503 });
    const created = clock.now().getTime();
    const ev = await emit(p, newCardId());
    const intervals: number[] = [];
    for (;;) {
      const [done] = await dispatcher().runOnce();
      expect(done.event.id).toBe(parseId('Webhook', ev.envelope.id));
      if (done.decision.status !== 'PENDING') {
        expect(done.decision.status).toBe('FAILED');
        break;
      }
      const wait = done.decision.nextAttemptAt.getTime() - clock.now().getTime();
      intervals.push(wait);
      clock.advance(wait);
    }
    intervals.forEach((ms, i) => {
      const ceiling = Math.min(1000 * 2 ** i, MAX_INTERVAL_MS);
      expect(ms).toBeGreaterThanOrEqual(ceiling / 2);
      expect(ms).toBeLessThanOrEqual(ceiling);
    });
    const lastAttempt = clock.now().getTime() - created;
    expect(lastAttempt).toBeLessThanOrEqual(GIVE_UP_AFTER_MS);
    expect(lastAttempt + MAX_INTERVAL_MS).toBeGreaterThan(GIVE_UP_AFTER_MS); // it tried until the end

    clock.advance(GIVE_UP_AFTER_MS);
    expect(await dispatcher().runOnce()).toEqual([]); // FAILED stays failed
    const view = await eventView(p, ev.envelope.id);
    expect(view).toMatchObject({ status: 'FAILED', nextAttemptAt: null, deliveredAt: null });
    expect(view.attempts).toHaveLength(intervals.length + 1);
    expect(r.received).toHaveLength(intervals.length + 1);
    expect((await p.get('/webhook-events?status=FAILED')).body.data.map((e: { id: string }) => e.id)).toEqual([
      ev.envelope.id,
    ]);

    // An operator redelivers it: same id, delivered this time.
    r.setDefault({ status: 200 });
    const redeliver = await p.post(`/webhook-events/${ev.envelope.id}/redeliver`);
    expect(redeliver.status).toBe(200);
    expect(redeliver.body).toMatchObject({
      id: ev.envelope.id,
      status: 'PENDING',
      nextAttemptAt: clock.now().toISOString(),
    });
    await dispatcher().drain();
    const after = await eventView(p, ev.envelope.id);
    expect(after.status).toBe('DELIVERED');
    expect(r.received[r.received.length - 1].body.id).toBe(ev.envelope.id);
  });

  it('receiver down, then up: everything is delivered, in order per aggregate, and a later event waits for an earlier one', async () => {
    const { p, r } = await platformWithReceiver();
    await r.stop();
    const cards = [newCardId(), newCardId(), newCardId()];
    const written: Record<string, WrittenEvent[]> = Object.fromEntries(cards.map((c) => [c, []]));
    for (let step = 0; step < 4; step++) {
      for (const card of cards) written[card].push(await emit(p, card, { step }));
    }
    const first = await dispatcher().runOnce(100);
    // Only the head of each aggregate is attempted while it fails; the rest wait behind it.
    expect(first.map((d) => d.event.id).sort()).toEqual(cards.map((c) => written[c][0].uuid).sort());
    expect(first.every((d) => d.attempt.error === 'ECONNREFUSED' && d.decision.status === 'PENDING')).toBe(true);
    clock.advance(60 * 60 * 1000);
    expect((await dispatcher().runOnce(100)).map((d) => d.event.id).sort()).toEqual(
      cards.map((c) => written[c][0].uuid).sort(),
    );

    await r.start();
    clock.advance(60 * 60 * 1000);
    await dispatcher().drain();
    expect(r.received).toHaveLength(12);
    for (const card of cards) {
      const order = r.received.filter((w) => w.body.data.id === card).map((w) => w.body.id);
      expect(order).toEqual(written[card].map((w) => w.envelope.id));
    }
  });

  it('409 from the receiver means it already has it: delivered, no retry', async () => {
    const { p, r } = await platformWithReceiver();
    r.respondWith({ status: 409, body: '{"code":"DUPLICATE"}' });
    const ev = await emit(p, newCardId());
    const [done] = await dispatcher().runOnce();
    expect(done.decision.status).toBe('DELIVERED');
    clock.advance(GIVE_UP_AFTER_MS);
    expect(await dispatcher().runOnce()).toEqual([]);
    expect(r.received).toHaveLength(1);
    const view = await eventView(p, ev.envelope.id);
    expect(view.status).toBe('DELIVERED');
    expect(view.attempts).toEqual([
      expect.objectContaining({ responseStatus: 409, responseBody: '{"code":"DUPLICATE"}' }),
    ]);
  });

  it.each([429, 503])('%s with Retry-After: the next attempt waits that long', async (status) => {
    const { p, r } = await platformWithReceiver();
    r.respondWith({ status, headers: { 'Retry-After': '120' } });
    await emit(p, newCardId());
    const [done] = await dispatcher().runOnce();
    expect(done.decision).toEqual({ status: 'PENDING', nextAttemptAt: new Date(clock.now().getTime() + 120_000) });
    clock.advance(119_999);
    expect(await dispatcher().runOnce()).toEqual([]);
    clock.advance(1);
    expect((await dispatcher().runOnce()).map((d) => d.decision.status)).toEqual(['DELIVERED']);
  });

  it('Retry-After on other statuses is not honoured, and a huge one is capped at 30 minutes', async () => {
    const { p, r } = await platformWithReceiver();
    r.respondWith(
      { status: 500, headers: { 'Retry-After': '3600' } },
      { status: 429, headers: { 'Retry-After': '86400' } },
    );
    await emit(p, newCardId());
    const [first] = await dispatcher().runOnce();
    if (first.decision.status !== 'PENDING') throw new Error('expected a retry');
    expect(first.decision.nextAttemptAt.getTime() - clock.now().getTime()).toBeLessThanOrEqual(1000);
    clock.set(first.decision.nextAttemptAt);
    const [second] = await dispatcher().runOnce();
    expect(second.decision).toEqual({
      status: 'PENDING',
      nextAttemptAt: new Date(clock.now().getTime() + MAX_INTERVAL_MS),
    });
  });

  it('TEST events are never retried', async () => {
    const { p, r } = await platformWithReceiver();
    r.setDefault({ status: 500 });
    const other = await WebhookReceiver.start();
    receivers.push(other);
    other.setDefault({ status: 500 });
    expect((await p.patch('/config', { webhookEndpoint: other.url })).status).toBe(200);
    const [done] = await dispatcher().runOnce();
    expect(done.decision.status).toBe('FAILED');
    clock.advance(GIVE_UP_AFTER_MS / 2);
    expect(await dispatcher().runOnce()).toEqual([]);
    expect(other.received.map((w) => w.body.type)).toEqual(['TEST']);
    expect(r.received).toHaveLength(0);
    const list = await p.get('/webhook-events?type=TEST&status=FAILED');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0].attempts).toHaveLength(1);
  });

  it('an endpoint that is not set is an attempt with an error, retried until one is set', async () => {
    const p = await TestPlatform.create(t);
    const ev = await emit(p, newCardId());
    const [done] = await dispatcher().runOnce();
    expect(done.attempt.error).toBe('webhook endpoint not set');
    expect(done.decision.status).toBe('PENDING');
    const r = await WebhookReceiver.start();
    receivers.push(r);
    await p.patch('/config', { webhookEndpoint: r.url });
    clock.advance(60_000);
    await dispatcher().drain();
    expect(r.received.map((w) => w.body.id)).toContain(ev.envelope.id);
    expect((await eventView(p, ev.envelope.id)).status).toBe('DELIVERED');
  });
});

describe('leases', () => {
  it("a worker's lease expires mid-delivery: another worker delivers the same id, the late outcome is discarded", async () => {
    const { p, r } = await platformWithReceiver();
    const b = await startTestApp({}, { databaseUrl: db.url, clock });
    extraApps.push(b);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    r.respondWith({ status: 500, after: held }); // worker A's delivery hangs (then fails)
    const ev = await emit(p, newCardId());

    const stuck = dispatcher().runOnce();
    await r.nth(1); // A is mid-delivery
    expect(await dispatcher(b).runOnce()).toEqual([]); // B may not take it while the lease holds
    clock.advance(t.app.get(AppConfig).OUTBOX_LEASE_MS);
    const [byB] = await dispatcher(b).runOnce();
    expect(byB.decision.status).toBe('DELIVERED');

    release();
    const [byA] = await stuck; // A finally hears back (a 500): too late, its lease is gone
    expect(byA.attempt.status).toBe(500);
    expect(r.received.map((w) => w.body.id)).toEqual([ev.envelope.id, ev.envelope.id]);
    const view = await eventView(p, ev.envelope.id);
    expect(view.status).toBe('DELIVERED');
    expect(view.attempts.map((a) => a.responseStatus).sort()).toEqual([200, 500]);
    clock.advance(GIVE_UP_AFTER_MS);
    expect(await dispatcher().runOnce()).toEqual([]);
  });

  it('two workers claiming at once never take the same event', async () => {
    const { p, r } = await platformWithReceiver();
    const b = extraApps[0] ?? (await startTestApp({}, { databaseUrl: db.url, clock }));
    if (!extraApps.includes(b)) extraApps.push(b);
    const events = await Promise.all(Array.from({ length: 60 }, () => emit(p, newCardId())));
    const [fromA, fromB] = await Promise.all([dispatcher().runOnce(100), dispatcher(b).runOnce(100)]);
    const ids = [...fromA, ...fromB].map((d) => d.event.id);
    expect(new Set(ids).size).toBe(ids.length);
    await Promise.all([dispatcher().drain(), dispatcher(b).drain()]);
    const received = r.received.map((w) => w.body.id);
    expect(received).toHaveLength(60);
    expect(new Set(received)).toEqual(new Set(events.map((e) => e.envelope.id)));
  });
});

describe('signatures', () => {
  it('verify with the reference Node snippet and with standardwebhooks, through a secret rotation', async () => {
    const { p, r } = await platformWithReceiver();
    const config = (await p.get('/config')).body as { webhookPublicKey: string; webhookSecret: string };
    expect(config.webhookPublicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    const oldSecret = config.webhookSecret;

    await emit(p, newCardId());
    await dispatcher().drain();
    const first = await r.nth(1);
    expect(
      referenceNodeVerify(first.headers['x-grid-signature'] as string, first.rawBody, config.webhookPublicKey),
    ).toBe(true);
    expect(
      referenceNodeVerify(first.headers['x-grid-signature'] as string, first.rawBody + ' ', config.webhookPublicKey),
    ).toBe(false);
    expect(first.headers['webhook-id']).toBe(first.body.id);
    expect(new Webhook(oldSecret).verify(first.rawBody, first.headers as Record<string, string>)).toEqual(first.body);

    // Rotation: for 24 hours both secrets sign every delivery.
    const rotated = await p.post('/config/webhook-secret/rotate');
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.webhookSecret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body.webhookPublicKey).toBe(config.webhookPublicKey);
    await emit(p, newCardId());
    await dispatcher().drain();
    const during = await r.nth(2);
    expect((during.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    for (const secret of [oldSecret, newSecret]) {
      expect(new Webhook(secret).verify(during.rawBody, during.headers as Record<string, string>)).toEqual(during.body);
    }
    expect(
      referenceNodeVerify(during.headers['x-grid-signature'] as string, during.rawBody, config.webhookPublicKey),
    ).toBe(true);
  });

  it('after the 24-hour overlap only the new secret signs', async () => {
    const { p, r } = await platformWithReceiver();
    const oldSecret = (await p.get('/config')).body.webhookSecret as string;
    const now = clock.now();
    clock.set(new Date(now.getTime() - 25 * 60 * 60 * 1000)); // rotated 25 hours ago
    const newSecret = (await p.post('/config/webhook-secret/rotate')).body.webhookSecret as string;
    clock.set(now); // standardwebhooks checks the timestamp against the real time
    await emit(p, newCardId());
    await dispatcher().drain();
    const got = await r.nth(1);
    expect((got.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(new Webhook(newSecret).verify(got.rawBody, got.headers as Record<string, string>)).toEqual(got.body);
    expect(() => new Webhook(oldSecret).verify(got.rawBody, got.headers as Record<string, string>)).toThrow(
      WebhookVerificationError,
    );
  });
});
