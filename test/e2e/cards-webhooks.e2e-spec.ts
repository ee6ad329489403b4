import { platformWithEndpoint } from '../support/events.js';
import { CardView, issuedCard, statusChange } from '../support/cards.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { verifyWebhook } from '../support/signatures.js';
import { startTestApp, TestApp } from '../support/test-app.js';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver.js';

/**
 * CARD.STATUS_CHANGE end to end, as in production: an API process (ROLE=api) and worker processes
 * (ROLE=worker) on a database of this file's own; the workers provision cards in the background
 * and deliver the events to a real local receiver, where both signatures are verified.
 */
let db: IsolatedDatabase;
let api: TestApp;
const workers: TestApp[] = [];
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  db = await isolatedDatabase();
  api = await startTestApp({}, { databaseUrl: db.url });
  for (let i = 0; i < 2; i++)
    workers.push(await startTestApp({ ROLE: 'worker', OUTBOX_POLL_INTERVAL_MS: '50' }, { databaseUrl: db.url }));
});
afterAll(async () => {
  for (const w of workers) await w.close();
  await api.close();
  for (const r of receivers) await r.stop();
  await db.close();
});

async function subscribedPlatform() {
  const receiver = await WebhookReceiver.start();
  receivers.push(receiver);
  const p = await platformWithEndpoint(api, db, receiver.url);
  const keys = (await p.get('/config')).body as { webhookPublicKey: string; webhookSecret: string };
  const verified = (w: ReceivedWebhook) => {
    expect(verifyWebhook(w, keys)).toEqual({ gridSignature: true, standardWebhooks: true });
    return w.body as unknown as { id: string; type: string; data: CardView };
  };
  /** The first `n` CARD.STATUS_CHANGE webhooks, once they arrived (other areas' events, e.g. KYC, are skipped). */
  const cardEvents = async (n: number) => {
    for (let k = n; ; k++) {
      const got = (await receiver.waitFor(k)).filter((w) => (w.body as { type: string }).type === 'CARD.STATUS_CHANGE');
      if (got.length >= n) return got.slice(0, n).map(verified);
    }
  };
  const nthCardEvent = async (n: number) => (await cardEvents(n))[n - 1];
  return { p, cardEvents, nthCardEvent };
}

describe('CARD.STATUS_CHANGE delivery', () => {
  it('issue → the worker provisions (ACTIVE) → freeze → close: each change arrives signed, with the card after it', async () => {
    const { p, nthCardEvent } = await subscribedPlatform();
    const { card } = await issuedCard(p);
    expect(card.status).toBe('PROCESSING');

    const activated = await nthCardEvent(1);
    expect(activated.type).toBe('CARD.STATUS_CHANGE');
    expect(activated.data).toEqual((await p.get(`/cards/${card.id}`)).body);
    expect(activated.data.status).toBe('ACTIVE');

    const frozen = await p.patch(`/cards/${card.id}`, statusChange('FROZEN', 'SUSPICIOUS_ACTIVITY', 'Fraud review'));
    const frozenEvent = await nthCardEvent(2);
    expect(frozenEvent.data).toEqual(frozen.body);

    const closed = await p.patch(`/cards/${card.id}`, statusChange('CLOSED', 'COMPROMISED', 'Card compromised'));
    const closedEvent = await nthCardEvent(3);
    expect(closedEvent.data).toEqual(closed.body);
    expect(closedEvent.data).toMatchObject({ status: 'CLOSED', statusReason: 'CLOSED_BY_PLATFORM' });
    expect(new Set([activated.id, frozenEvent.id, closedEvent.id]).size).toBe(3);
  });

  it('two workers provision each card exactly once (FOR UPDATE SKIP LOCKED): one ACTIVE event per card', async () => {
    const { p, cardEvents, nthCardEvent } = await subscribedPlatform();
    const cards = await Promise.all(Array.from({ length: 6 }, () => issuedCard(p)));
    const events = await cardEvents(6);
    expect(events.map((e) => e.data.id).sort()).toEqual(cards.map((c) => c.card.id).sort());
    expect(events.every((e) => e.data.status === 'ACTIVE')).toBe(true);
    const history = (await p.get(`/cards/${cards[0].card.id}/status-history`)).body as { data: unknown[] };
    expect(history.data).toHaveLength(2);
    // Nothing more arrives for them: a later event (a freeze) is the next one received.
    await p.patch(`/cards/${cards[0].card.id}`, statusChange('FROZEN')).expect(200);
    expect((await nthCardEvent(7)).data).toMatchObject({ id: cards[0].card.id, status: 'FROZEN' });
  });
});
