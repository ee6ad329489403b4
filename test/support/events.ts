import { TestPlatform, type TestApp } from './test-app.js';
import type { IsolatedDatabase } from './isolated-database.js';
import { parseId } from '../../src/common/ids.js';
import { WebhookReceiver } from './webhook-receiver.js';
import type { ReceivedWebhook } from './webhook-receiver.js';
import { OutboxDispatcher } from '../../src/outbox/outbox.dispatcher.js';
import type { OutboxWrite } from '../../src/outbox/outbox.service.js';
import type { Card } from '../../src/cards/card.dto.js';
import { cardStatusChange } from '../../src/cards/card-events.js';
import { verifyWebhook } from './signatures.js';

/** The envelope a webhook carries (and the outbox keeps, byte for byte). */
export interface Envelope {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * Event capture without a worker: the platform's events as the outbox recorded them (through
 * GET /webhook-events, every page), oldest first, optionally of one type. Works on any test app,
 * ROLE=api included: what was written is here as soon as its transaction committed.
 */
export async function recordedEvents(p: TestPlatform, type?: string): Promise<Envelope[]> {
  const events: Envelope[] = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: '100' });
    if (type) query.set('type', type);
    if (cursor) query.set('cursor', cursor);
    const res = await p.get(`/webhook-events?${query.toString()}`);
    if (res.status !== 200) throw new Error(`GET /webhook-events: ${res.status} ${JSON.stringify(res.body)}`);
    const page = res.body as { data: Array<{ payload: Envelope }>; nextCursor?: string };
    events.push(...page.data.map((e) => e.payload));
    cursor = page.nextCursor;
  } while (cursor);
  return events.reverse(); // the list is newest first
}

/**
 * Event capture at a real receiver, for apps that run the outbox worker on a database of their
 * own (isolatedDatabase()): the platform's webhookEndpoint is a fresh local receiver (the TEST
 * webhook of that change already delivered and forgotten). `deliver()` drives the worker until
 * nothing is due and answers what arrived since the last call.
 */
export class WebhookCapture {
  private seen = 0;

  private constructor(
    readonly t: TestApp,
    readonly receiver: WebhookReceiver,
  ) {}

  static async attach(t: TestApp, p: TestPlatform): Promise<WebhookCapture> {
    const receiver = await WebhookReceiver.start();
    const res = await p.patch('/config', { webhookEndpoint: receiver.url });
    if (res.status !== 200) throw new Error(`PATCH /config: ${res.status} ${JSON.stringify(res.body)}`);
    await t.app.get(OutboxDispatcher).drain();
    const [test] = await receiver.waitFor(1);
    if (test.body.type !== 'TEST') throw new Error(`expected the TEST webhook first, got ${test.body.type}`);
    receiver.reset();
    return new WebhookCapture(t, receiver);
  }

  /** Runs the worker until nothing is due; the webhooks received since the last call, in arrival order. */
  async deliver(): Promise<ReceivedWebhook[]> {
    await this.t.app.get(OutboxDispatcher).drain();
    const all = this.receiver.received;
    const fresh = all.slice(this.seen);
    this.seen = all.length;
    return fresh;
  }

  stop(): Promise<void> {
    return this.receiver.stop();
  }
}

const subscribers: WebhookCapture[] = [];

/**
 * A new platform of `t` (an app on an isolated database) subscribed to a fresh receiver, its
 * signing keys, and `deliver()`: drains the worker and answers what arrived since the last call,
 * after checking that every webhook carries both valid signatures. `stopSubscribers()` in afterAll.
 */
export async function signedSubscriber(t: TestApp) {
  const p = await TestPlatform.create(t);
  const capture = await WebhookCapture.attach(t, p);
  subscribers.push(capture);
  const keys = (await p.get('/config')).body as { webhookPublicKey: string; webhookSecret: string };
  const deliver = async (): Promise<ReceivedWebhook[]> => {
    const got = await capture.deliver();
    for (const w of got)
      expect({ id: w.body.id, ...verifyWebhook(w, keys) }).toEqual({
        id: w.body.id,
        gridSignature: true,
        standardWebhooks: true,
      });
    return got;
  };
  return { p, capture, keys, deliver };
}

/** Stops the receivers of every `signedSubscriber` so far. */
export async function stopSubscribers(): Promise<void> {
  for (const c of subscribers.splice(0)) await c.stop();
}

/**
 * A new platform of `api` whose webhook endpoint is `url`, set directly in `db` so that no TEST
 * event is queued (tests that count deliveries).
 */
export async function platformWithEndpoint(api: TestApp, db: IsolatedDatabase, url: string): Promise<TestPlatform> {
  const p = await TestPlatform.create(api);
  await db.query(`UPDATE platform_configs SET webhook_endpoint = $1 WHERE platform_id = $2`, [
    url,
    parseId('Platform', p.platformId),
  ]);
  return p;
}

/**
 * A stand-in card for the outbox tests: every member the reference's `Card` requires, then `data`
 * over it (so what a receiver gets still validates against the reference, test/support/wire-check.ts).
 */
export function stubCard(data: { id: string } & Record<string, unknown>): { id: string } & Record<string, unknown> {
  return {
    customerId: 'Customer:00000000-0000-7000-8000-000000000001',
    status: 'ACTIVE',
    form: 'VIRTUAL',
    fundingSource: 'InternalAccount:00000000-0000-7000-8000-000000000001',
    maxSpendPerTransaction: null,
    maxSpendPerDay: null,
    maxTransactionsPerDay: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...data,
  };
}

/**
 * A `CARD.STATUS_CHANGE` outbox write of a stand-in card (`stubCard(data)`): the outbox tests (and
 * the outbox bench) use it as a stand-in event, not a real card (see `cardStatusChange`).
 */
export function stubCardEvent(
  platformId: string,
  data: { id: string } & Record<string, unknown>,
): OutboxWrite<'CARD.STATUS_CHANGE'> {
  return cardStatusChange(platformId, stubCard(data) as unknown as Card);
}
