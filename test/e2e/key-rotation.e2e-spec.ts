import { randomUUID } from 'node:crypto';
import { ConfigError } from '../../src/config/app-config.js';
import { deriveKeyId } from '../../src/secrets/envelope.js';
import { authorization, cardWithFunds, TestCard } from '../support/card-transactions.js';
import { cardBody, postCard, statusChange } from '../support/cards.js';
import { ChildServer, LogLine } from '../support/child-server.js';
import { individual } from '../support/customers.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { OutboxDispatcher } from '../../src/outbox/outbox.dispatcher.js';
import { verifyWebhook } from '../support/signatures.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { startTestApp, TEST_WEBHOOK_KEY, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * Key rotation end to end: values sealed under key 1 (the single WEBHOOK_KEY_ENCRYPTION_KEY, its
 * derived id), a rolling restart onto the ring `k2,k1`, `keys:rotate` (killed after its first
 * batch, then run again) while card PATCHes, authorizations and webhook deliveries run, and a
 * start with key 1 removed. The CLI is a real child process on this file's own database.
 */
const KEY1 = TEST_WEBHOOK_KEY;
const KID1 = deriveKeyId(Buffer.from(KEY1, 'base64'));
const KEY2 = Buffer.alloc(32, 8).toString('hex');
const RING = `k2:${KEY2},k1:${KEY1}`;
/** The ring replaces the deprecated variable ('' unsets what the helpers set by default). */
const ringEnv = (keys: string) => ({ KEY_ENCRYPTION_KEYS: keys, WEBHOOK_KEY_ENCRYPTION_KEY: '' });

let db: IsolatedDatabase;
const apps: TestApp[] = [];
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  db = await isolatedDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const r of receivers) await r.stop();
  await db?.close();
});

async function app(env: Record<string, string>): Promise<TestApp> {
  const started = await startTestApp(env, { databaseUrl: db.url });
  apps.push(started);
  return started;
}

/** Runs the CLI to its end (or until `until` sees a line, then SIGKILL); its JSON stdout lines. */
async function cli(args: string[], until?: (l: LogLine) => boolean) {
  const child = ChildServer.start(['node', 'dist/src/cli.js', ...args], { DATABASE_URL: db.url, ...ringEnv(RING) });
  if (until) {
    await child.waitFor(until, 'a progress line');
    child.child.kill('SIGKILL');
  }
  const exit = await child.exited;
  if (!until && exit.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${exit.code}: ${child.errors}`);
  return { exit, lines: child.lines };
}

const countsOf = (lines: LogLine[]) => (lines.find((l) => 'counts' in l) as { counts: Record<string, number> }).counts;

/** A platform of `t` whose webhooks go to a local receiver, and its signing keys. */
async function subscriber(t: TestApp) {
  const p = await TestPlatform.create(t);
  const receiver = await WebhookReceiver.start();
  receivers.push(receiver);
  expect((await p.patch('/config', { webhookEndpoint: receiver.url })).status).toBe(200);
  const keys = (await p.get('/config')).body as { webhookPublicKey: string; webhookSecret: string };
  return { p, receiver, keys, seen: 0 };
}

/** Runs `t`'s outbox worker until nothing is due; checks both signatures of what arrived since the last call. */
async function deliver(t: TestApp, s: Awaited<ReturnType<typeof subscriber>>): Promise<number> {
  await t.app.get(OutboxDispatcher).drain();
  const fresh = s.receiver.received.slice(s.seen);
  s.seen += fresh.length;
  for (const w of fresh)
    expect({ id: w.body.id, ...verifyWebhook(w, s.keys) }).toEqual({
      id: w.body.id,
      gridSignature: true,
      standardWebhooks: true,
    });
  return fresh.length;
}

interface Replay {
  p: TestPlatform;
  key: string;
  body: object;
  status: number;
  answer: unknown;
}

/** An idempotent POST /cards, kept to be replayed later. */
async function storedReplay(p: TestPlatform, card: TestCard): Promise<Replay> {
  const key = randomUUID();
  const body = cardBody(card.customer.id, card.account.id);
  const res = await postCard(p, body, key);
  expect(res.status).toBe(201);
  return { p, key, body, status: res.status, answer: res.body };
}

it('rotates from key 1 to key 2 under load, survives a kill, and key 1 can then leave the ring', async () => {
  // Before: one key (WEBHOOK_KEY_ENCRYPTION_KEY), values sealed under its derived id.
  const before = await app({});
  const subscribers = [];
  const replays: Replay[] = [];
  for (let i = 0; i < 3; i++) {
    const s = await subscriber(before);
    const card = await cardWithFunds(s.p, 1_000_000);
    const customer = await s.p.post('/customers', individual({ idType: 'SSN', identifier: `123-45-678${i}` }));
    expect(customer.status).toBe(201);
    replays.push(await storedReplay(s.p, card));
    subscribers.push({ ...s, card });
  }
  // Enough key-1 values that a rotation in batches of 1 is still running when the test sees its
  // first progress line and kills it, however loaded the machine (it was once done before the kill).
  const extra = subscribers[0].p;
  for (let batch = 0; batch < 4; batch++) {
    const created = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        extra.post('/customers', individual({ idType: 'SSN', identifier: `900-${10 + batch}-${String(1000 + i)}` })),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array(15).fill(201));
  }
  await before.close();
  apps.splice(apps.indexOf(before), 1);

  // A start whose ring lacks key 1 is refused, naming it and its count.
  await expect(app(ringEnv(`k2:${KEY2}`))).rejects.toThrow(ConfigError);
  await expect(app(ringEnv(`k2:${KEY2}`))).rejects.toThrow(new RegExp(`key ${KID1} still seals \\d+ values`));

  // Rolling restart onto the ring: key 2 seals, key 1 still opens.
  const t = await app(ringEnv(RING));
  for (const s of subscribers) s.p = s.p.on(t);
  for (const r of replays) r.p = r.p.on(t);
  const initial = countsOf((await cli(['keys:status'])).lines);
  expect(initial.k1).toBeGreaterThan(60);

  // Load: card PATCHes, authorizations, deliveries (each checked against both signatures), new replays.
  let running = true;
  const failures: string[] = [];
  const load = Promise.all(
    subscribers.map(async (s) => {
      let frozen = false;
      while (running) {
        frozen = !frozen;
        const patch = await s.p.patch(`/cards/${s.card.id}`, statusChange(frozen ? 'FROZEN' : 'ACTIVE'));
        if (patch.status !== 200) failures.push(`PATCH ${patch.status}`);
        const auth = await s.p.post(`/sandbox/cards/${s.card.id}/simulate/authorization`, authorization(1));
        if (auth.status !== 202) failures.push(`authorization ${auth.status}`);
        replays.push(await storedReplay(s.p, s.card));
        await deliver(t, s);
      }
    }),
  );

  // Killed after its first batch, then run again to the end.
  let midway: Record<string, number>;
  let finished: Awaited<ReturnType<typeof cli>>;
  try {
    const killed = await cli(['keys:rotate', '--batch-size', '1'], (l) => 'progress' in l);
    expect(killed.exit.signal).toBe('SIGKILL');
    midway = countsOf((await cli(['keys:status'])).lines);
    finished = await cli(['keys:rotate', '--batch-size', '2']);
  } finally {
    running = false;
    await load;
  }
  expect(midway.k1).toBeGreaterThan(0);
  expect(finished.lines.some((l) => 'progress' in l)).toBe(true);
  expect(failures).toEqual([]);
  expect(countsOf(finished.lines)).toMatchObject({ k1: 0 });

  // After: nothing sealed by key 1; key 1 leaves the ring; every replay answers, every webhook verifies.
  const after = countsOf((await cli(['keys:status'])).lines);
  expect(after).toEqual({ k2: expect.any(Number), k1: 0 });
  expect(after.k2).toBeGreaterThanOrEqual(initial.k1);
  await t.close();
  apps.splice(apps.indexOf(t), 1);
  const last = await app(ringEnv(`k2:${KEY2}`));
  for (const s of subscribers) {
    s.p = s.p.on(last);
    expect((await s.p.get('/config')).body).toMatchObject({
      webhookPublicKey: s.keys.webhookPublicKey,
      webhookSecret: s.keys.webhookSecret,
    });
    expect((await s.p.post(`/sandbox/cards/${s.card.id}/simulate/authorization`, authorization(1))).status).toBe(202);
    expect(await deliver(last, s)).toBeGreaterThan(0); // both signatures checked
  }
  const scraped = (await last.app.get(MetricsService).scrape()).body;
  expect(scraped).toContain(`sealed_values{key="k2"} ${countsOf((await cli(['keys:status'])).lines).k2}`);
  expect(scraped).not.toContain('sealed_values{key="k1"}');
  for (const r of replays) {
    const again = await postCard(r.p.on(last), r.body, r.key);
    expect({ status: again.status, body: again.body as unknown }).toEqual({ status: r.status, body: r.answer });
  }
}, 240_000); // a load, a kill and two rotations: minutes on a loaded machine
