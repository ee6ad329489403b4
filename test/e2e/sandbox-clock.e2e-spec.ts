import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ClockOffsets } from '../../src/common/clock.js';
import { parseId } from '../../src/common/ids.js';
import { SandboxClockOffsets } from '../../src/sandbox-clock/clock-offsets.js';
import { spendingAgent, type Json } from '../support/agent-quotes.js';
import { agentPolicy, newAgent, redeem } from '../support/agents.js';
import { authorization, cardWithFunds, type TestCard } from '../support/card-transactions.js';
import { recordedEvents } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { kycApprovedCustomer, newCustomer } from '../support/fixtures.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * Sandbox test clocks (docs/test-clocks.md), over HTTP on the real app. The base ("real") clock is
 * injected and stands still unless a test moves it, so every platform time below is exact; the
 * platforms' clocks move only through POST /sandbox/clock/advance.
 */
const clock = new FakeClock(new Date('2031-05-10T10:00:00.000Z'));
const DAY_MS = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ QUOTE_TTL_SECONDS: '300' }, { clock });
});
afterAll(() => t.close());

const platform = () => TestPlatform.create(t);

/** Advances the platform's clock; expects 200 and answers the clock. */
async function advance(p: TestPlatform, body: object): Promise<{ time: string; offsetSeconds: number }> {
  const res = await p.post('/sandbox/clock/advance', body);
  if (res.status !== 200) throw new Error(`advance: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { time: string; offsetSeconds: number };
}

/** The platform's time now. */
async function timeOf(p: TestPlatform): Promise<Date> {
  const res = await p.get('/sandbox/clock');
  expect(res.status).toBe(200);
  return new Date((res.body as { time: string }).time);
}

/** 00:00:00 UTC of the day after `at`, plus `ms`. */
const nextMidnight = (at: Date, ms = 0) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1) + ms);
const iso = (d: Date) => d.toISOString();
const date = (d: Date) => iso(d).slice(0, 10);

interface Txn {
  id: string;
  status: string;
  cardDeclinedReason?: string;
  createdAt: string;
}
async function simulate(p: TestPlatform, card: TestCard, what: string, body: object): Promise<Txn> {
  const res = await p.post(`/sandbox/cards/${card.id}/simulate/${what}`, body);
  if (res.status !== 202) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.cardTransaction as Txn;
}
const authorize = (p: TestPlatform, card: TestCard, amount: number) =>
  simulate(p, card, 'authorization', authorization(amount));
const outcome = (txn: Txn) => (txn.status === 'DECLINED' ? `DECLINED ${txn.cardDeclinedReason}` : 'APPROVED');

describe('GET /sandbox/clock and POST /sandbox/clock/advance', () => {
  it('starts at real time, moves by seconds or to a time, keeps running, and records each advance', async () => {
    const p = await platform();
    const start = clock.now();
    expect((await p.get('/sandbox/clock')).body).toEqual({ time: iso(start), offsetSeconds: 0 });

    expect(await advance(p, { seconds: 86_400 })).toEqual({
      time: iso(new Date(start.getTime() + DAY_MS)),
      offsetSeconds: 86_400,
    });
    const firstOfJune = new Date('2031-06-01T00:00:00.000Z');
    expect(await advance(p, { to: '2031-06-01T00:00:00Z' })).toEqual({
      time: iso(firstOfJune),
      offsetSeconds: (firstOfJune.getTime() - start.getTime()) / 1000,
    });
    // Real time goes on; so does the platform's.
    const before = clock.now();
    try {
      clock.advance(5_000);
      expect(await timeOf(p)).toEqual(new Date(firstOfJune.getTime() + 5_000));
    } finally {
      clock.set(before);
    }

    const tokens = (await p.get('/tokens')).body as { data: Array<{ id: string }> };
    const advances = await p.get('/sandbox/clock/advances');
    expect(advances.status).toBe(200);
    expect(advances.body).toEqual({
      data: [
        {
          id: expect.stringMatching(/^SandboxClockAdvance:/),
          from: iso(new Date(start.getTime() + DAY_MS)),
          to: iso(firstOfJune),
          tokenId: tokens.data[0].id,
          createdAt: iso(start),
        },
        {
          id: expect.stringMatching(/^SandboxClockAdvance:/),
          from: iso(start),
          to: iso(new Date(start.getTime() + DAY_MS)),
          tokenId: tokens.data[0].id,
          createdAt: iso(start),
        },
      ],
      hasMore: false,
      totalCount: 2,
    });
    const page = await p.get('/sandbox/clock/advances?limit=1');
    expect(page.body).toMatchObject({ hasMore: true, totalCount: 2, nextCursor: expect.any(String) });
    const rest = await p.get(`/sandbox/clock/advances?limit=1&cursor=${page.body.nextCursor}`);
    expect(rest.body.data[0].to).toBe(iso(new Date(start.getTime() + DAY_MS)));
  });

  it('is idempotent with an Idempotency-Key: a replay answers the same and does not move the clock again', async () => {
    const p = await platform();
    const key = randomUUID();
    // Two days: more than the key's 24 hours, which run on the platform's time (the advance's
    // record is stamped at the new time, so the replay still finds it).
    const first = await p.post('/sandbox/clock/advance', { seconds: 2 * 86_400 }).set('Idempotency-Key', key);
    const again = await p.post('/sandbox/clock/advance', { seconds: 2 * 86_400 }).set('Idempotency-Key', key);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await p.get('/sandbox/clock')).body.offsetSeconds).toBe(2 * 86_400);
    expect((await p.get('/sandbox/clock/advances')).body.totalCount).toBe(1);
    expectError(await p.post('/sandbox/clock/advance', { seconds: 60 }).set('Idempotency-Key', key), 409, 'CONFLICT');
    // Applied after its commit: the platform's next request runs at the new time.
    expect((await newCustomer(p)).createdAt).toBe(iso(new Date(clock.now().getTime() + 2 * DAY_MS)));
  });

  it('refuses every bad body with its FieldError (400 INVALID_INPUT), and a token without MANAGE (403)', async () => {
    const p = await platform();
    const now = clock.now();
    const bodies: Array<[unknown, string[]]> = [
      [{}, ['to']],
      [{ to: iso(new Date(now.getTime() + DAY_MS)), seconds: 60 }, ['seconds']],
      [{ seconds: 0 }, ['seconds']],
      [{ seconds: -5 }, ['seconds']],
      [{ seconds: 1.5 }, ['seconds']],
      [{ seconds: '60' }, ['seconds']],
      [{ seconds: 400 * 86_400 + 1 }, ['seconds']],
      [{ to: 'tomorrow' }, ['to']],
      [{ to: '2031-05-10' }, ['to']],
      [{ to: 7 }, ['to']],
      [{ to: iso(new Date(now.getTime() - 1_000)) }, ['to']],
      [{ to: iso(now) }, ['to']],
      [{ to: iso(new Date(now.getTime() + 400 * DAY_MS + 1_000)) }, ['to']],
      [{ seconds: 60, extra: true }, ['extra']],
      [[{ seconds: 60 }], ['body']],
    ];
    for (const [body, fields] of bodies) {
      const res = await p.post('/sandbox/clock/advance', body as object);
      expect({ body, fields: invalidFields(res) }).toEqual({ body, fields });
    }
    const viewer = await p.token(['VIEW']);
    expectError(
      await t.http.post(`${V}/sandbox/clock/advance`).set('Authorization', viewer.authorization).send({ seconds: 60 }),
      403,
      'FORBIDDEN',
    );
    expect((await p.get('/sandbox/clock')).body).toEqual({ time: iso(now), offsetSeconds: 0 });
    // The most one call allows is allowed.
    expect((await advance(p, { seconds: 400 * 86_400 })).offsetSeconds).toBe(400 * 86_400);
  });
});

describe('cards: the UTC day windows follow the platform clock', () => {
  it('maxTransactionsPerDay 1: declined until 00:00 UTC, approved from then on', async () => {
    const p = await platform();
    const card = await cardWithFunds(p, 100_000, { maxTransactionsPerDay: 1 });
    expect(outcome(await authorize(p, card, 100))).toBe('APPROVED');
    expect(outcome(await authorize(p, card, 100))).toBe('DECLINED SPEND_LIMIT_EXCEEDED');
    const midnight = nextMidnight(await timeOf(p));
    await advance(p, { to: iso(new Date(midnight.getTime() - 1_000)) });
    expect(outcome(await authorize(p, card, 100))).toBe('DECLINED SPEND_LIMIT_EXCEEDED');
    await advance(p, { seconds: 1 });
    const next = await authorize(p, card, 100);
    expect(outcome(next)).toBe('APPROVED');
    expect(next.createdAt).toBe(iso(midnight));
    expect(outcome(await authorize(p, card, 100))).toBe('DECLINED SPEND_LIMIT_EXCEEDED');
  });

  it('maxSpendPerDay: the day spent is declined until 00:00 UTC, approved from then on', async () => {
    const p = await platform();
    const card = await cardWithFunds(p, 100_000, { maxSpendPerDay: 1_000 });
    expect(outcome(await authorize(p, card, 1_000))).toBe('APPROVED');
    expect(outcome(await authorize(p, card, 1))).toBe('DECLINED SPEND_LIMIT_EXCEEDED');
    const midnight = nextMidnight(await timeOf(p));
    await advance(p, { to: iso(new Date(midnight.getTime() - 1_000)) });
    expect(outcome(await authorize(p, card, 1))).toBe('DECLINED SPEND_LIMIT_EXCEEDED');
    await advance(p, { seconds: 1 });
    expect(outcome(await authorize(p, card, 1_000))).toBe('APPROVED');
    expect(outcome(await authorize(p, card, 1))).toBe('DECLINED SPEND_LIMIT_EXCEEDED');
  });

  it("a return of the previous day's purchase does not restore today's capacity", async () => {
    const p = await platform();
    const card = await cardWithFunds(p, 100_000, { maxSpendPerDay: 1_000 });
    const yesterday = await authorize(p, card, 1_000);
    expect(outcome(yesterday)).toBe('APPROVED');
    await simulate(p, card, 'clearing', { cardTransactionId: yesterday.id, amount: 1_000 });
    await advance(p, { to: iso(nextMidnight(await timeOf(p))) });
    expect(outcome(await authorize(p, card, 1_000))).toBe('APPROVED');
    await simulate(p, card, 'return', { cardTransactionId: yesterday.id, amount: 1_000 });
    expect(outcome(await authorize(p, card, 1))).toBe('DECLINED SPEND_LIMIT_EXCEEDED');
  });
});

describe('agents: usage resets, quote expiry, device-code expiry follow the platform clock', () => {
  it('dailyLimit and monthlyLimit reached, then past midnight and past the month end: counters back to zero', async () => {
    const p = await platform();
    const a = await spendingAgent(p, {
      spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: 1_000, monthlyLimit: 1_500 },
    });
    const execute = async (amount: number) => a.client.post(`/agents/me/quotes/${(await a.quote(amount)).id}/execute`);
    const usage = async () => ((await a.client.get('/agents/me')).body as Json).usage as Json;
    const day1 = await timeOf(p);
    const day2 = nextMidnight(day1);
    const day3 = nextMidnight(day2);
    expect((await execute(1_000)).status).toBe(200);
    expect(await usage()).toEqual({
      dailyTransactionCount: 1,
      dailySpend: 1_000,
      monthlySpend: 1_000,
      dailyResetDate: date(day2),
      monthlyResetMonth: '2031-06',
    });
    expectError(await execute(1), 403, 'FORBIDDEN');

    await advance(p, { to: iso(day2) });
    expect(await usage()).toEqual({
      dailyTransactionCount: 0,
      dailySpend: 0,
      monthlySpend: 1_000,
      dailyResetDate: date(day3),
      monthlyResetMonth: '2031-06',
    });
    expect((await execute(500)).status).toBe(200);
    const refused = expectError(await execute(1), 403, 'FORBIDDEN');
    expect(refused.details).toMatchObject({ limit: 'monthlyLimit' });

    await advance(p, { to: '2031-06-01T00:00:00Z' });
    expect(await usage()).toEqual({
      dailyTransactionCount: 0,
      dailySpend: 0,
      monthlySpend: 0,
      dailyResetDate: '2031-06-02',
      monthlyResetMonth: '2031-07',
    });
    expect((await execute(1_000)).status).toBe(200);
    expect(await usage()).toMatchObject({ dailySpend: 1_000, monthlySpend: 1_000, dailyResetDate: '2031-06-02' });
  });

  it('a quote executed after its expiresAt is 400 QUOTE_EXPIRED', async () => {
    const p = await platform();
    const a = await spendingAgent(p);
    const q = await a.quote(100);
    await advance(p, { to: q.expiresAt as string });
    expectError(await a.client.post(`/agents/me/quotes/${q.id}/execute`), 400, 'QUOTE_EXPIRED');
    expect((await a.client.get(`/agents/me/quotes/${q.id}`)).body.status).toBe('EXPIRED');
    expect(await a.balance()).toBe(1_000_000);
  });

  it('an action pending approval whose quote expired meanwhile: FAILED on approval with failureReason QUOTE_EXPIRED', async () => {
    const p = await platform();
    const a = await spendingAgent(p, { defaultExecutionMode: 'APPROVAL_REQUIRED' });
    const q = await a.quote(1_000);
    const action = (await a.client.post(`/agents/me/quotes/${q.id}/execute`)).body as Json;
    expect(action.status).toBe('PENDING_APPROVAL');
    await advance(p, { seconds: 3_600 });
    const res = await p.post(`/agents/${a.agent.id}/actions/${action.id}/approve`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'FAILED',
      quote: { status: 'EXPIRED' },
      transaction: { status: 'FAILED', failureReason: 'QUOTE_EXPIRED', quoteId: q.id },
    });
    expect(await a.balance()).toBe(1_000_000);
  });

  it('a device code redeemed after its expiresAt is refused as any expired code', async () => {
    const p = await platform();
    const { deviceCode } = await newAgent(p, { policy: agentPolicy() });
    await advance(p, { to: deviceCode.expiresAt });
    const refused = expectError(await redeem(p, deviceCode.code), 400, 'INVALID_INPUT');
    expect(refused.reason).toBe(`Device code expired at ${deviceCode.expiresAt}`);
    // Another platform's code of the same age still works: its clock did not move.
    const other = await platform();
    const fresh = await newAgent(other, { policy: agentPolicy() });
    expect((await redeem(other, fresh.deviceCode.code)).status).toBe(200);
  });
});

describe("isolation and what follows the platform's time", () => {
  it("timestamps on A's resources and events follow A's clock; B's requests and timestamps stay on real time", async () => {
    const [a, b] = [await platform(), await platform()];
    const now = clock.now();
    const ahead = new Date(now.getTime() + 40 * DAY_MS);
    await advance(a, { seconds: 40 * 86_400 });

    const customerA = await kycApprovedCustomer(a);
    const customerB = await kycApprovedCustomer(b);
    expect(customerA).toMatchObject({ createdAt: iso(ahead), updatedAt: iso(ahead) });
    expect(customerB).toMatchObject({ createdAt: iso(now), updatedAt: iso(now) });
    const [eventA] = await recordedEvents(a, 'CUSTOMER.KYC_APPROVED');
    const [eventB] = await recordedEvents(b, 'CUSTOMER.KYC_APPROVED');
    expect(eventA.timestamp).toBe(iso(ahead));
    expect(eventB.timestamp).toBe(iso(now));
    const listed = (await a.get('/webhook-events?type=CUSTOMER.KYC_APPROVED')).body.data[0];
    expect(listed.createdAt).toBe(iso(ahead));

    const tokenA = await a.token(['VIEW']);
    expect((await a.get(`/tokens/${tokenA.id}`)).body.createdAt).toBe(iso(ahead));
    expect((await b.get('/sandbox/clock')).body).toEqual({ time: iso(now), offsetSeconds: 0 });
    expect((await newCustomer(b)).createdAt).toBe(iso(now));
  });

  it("the worker's schedule stays on real time: an event written at the platform's time is due now, not in 40 days", async () => {
    const a = await platform();
    await advance(a, { seconds: 40 * 86_400 });
    const customer = await kycApprovedCustomer(a);
    const rows = await t.app
      .get(DataSource)
      .query<Array<{ next_attempt_at: Date; retrying_since: Date; created_at: Date }>>(
        `SELECT next_attempt_at, retrying_since, created_at FROM outbox_events
         WHERE platform_id = $1 AND type = 'CUSTOMER.KYC_APPROVED'`,
        [parseId('Platform', a.platformId)],
      );
    expect(customer.id).toMatch(/^Customer:/);
    expect(rows).toHaveLength(1);
    expect(rows[0].next_attempt_at.toISOString()).toBe(iso(clock.now()));
    expect(rows[0].retrying_since.toISOString()).toBe(iso(clock.now()));
    expect(rows[0].created_at.toISOString()).toBe(iso(new Date(clock.now().getTime() + 40 * DAY_MS)));
  });

  it('another app instance on the same database learns of an advance (LISTEN/NOTIFY, or in-process on the embedded engine)', async () => {
    const other = await startTestApp({}, { clock });
    try {
      const p = await platform();
      const applied = once(other.app.get(SandboxClockOffsets).events, 'applied');
      await advance(p, { seconds: 7 * 86_400 });
      expect(await applied).toEqual([parseId('Platform', p.platformId), 7 * DAY_MS]);
      expect((await newCustomer(p.on(other))).createdAt).toBe(iso(new Date(clock.now().getTime() + 7 * DAY_MS)));
    } finally {
      await other.close();
    }
  });
});

describe('SANDBOX=false', () => {
  it('has no clock routes (404), binds no offsets, and ignores a clock row planted in the table', async () => {
    const live = await startTestApp({ SANDBOX: 'false' }, { clock });
    try {
      const p = await TestPlatform.create(live);
      await live.app
        .get(DataSource)
        .query(`INSERT INTO sandbox_clocks (platform_id, offset_ms, updated_at) VALUES ($1, $2, $3)`, [
          parseId('Platform', p.platformId),
          30 * DAY_MS,
          clock.now(),
        ]);
      expectError(await p.get('/sandbox/clock'), 404, 'NOT_FOUND');
      expectError(await p.post('/sandbox/clock/advance', { seconds: 60 }), 404, 'NOT_FOUND');
      expectError(await p.get('/sandbox/clock/advances'), 404, 'NOT_FOUND');
      expect(() => live.app.get(ClockOffsets, { strict: false })).toThrow();
      const customer = await newCustomer(p);
      expect(customer.createdAt).toBe(iso(clock.now()));
    } finally {
      await live.close();
    }
  });
});
