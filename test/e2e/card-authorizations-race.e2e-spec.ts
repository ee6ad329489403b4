import http from 'node:http';
import { DataSource } from 'typeorm';
import { formatId, parseId } from '../../src/common/ids.js';
import { verifyLedger } from '../../src/ledger/ledger-verify.js';
import { authorization, cardWithFunds } from '../support/card-transactions.js';
import { ChildServer, killMidBurst } from '../support/child-server.js';
import type { TestCard } from '../support/card-transactions.js';
import { FakeClock } from '../support/fake-clock.js';
import { recordedEvents } from '../support/events.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * Limits under concurrency (the card row is locked for each authorization, so none overshoots) and
 * the UTC day windows with a clock the test moves.
 */
let t: TestApp;
const clock = new FakeClock(new Date('2026-03-01T23:59:59.000Z'));
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

interface Txn {
  status: string;
  cardDeclinedReason?: string;
  authorizedAmount: { amount: number };
}

async function authorize(p: TestPlatform, card: TestCard, amount: number): Promise<Txn> {
  const res = await p.post(`/sandbox/cards/${card.id}/simulate/authorization`, authorization(amount));
  if (res.status !== 202) throw new Error(`authorization: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.cardTransaction as Txn;
}

const parallel = (p: TestPlatform, card: TestCard, amounts: number[]) =>
  Promise.all(amounts.map((amount) => authorize(p, card, amount)));
const approved = (txns: Txn[]) => txns.filter((x) => x.status === 'AUTHORIZED');

async function available(p: TestPlatform, card: TestCard) {
  const res = await p.get(`/customers/internal-accounts?customerId=${card.customer.id}&currency=USD`);
  const [a] = res.body.data as Array<{ balance: { amount: number }; totalBalance: { amount: number } }>;
  return { available: a.balance.amount, total: a.totalBalance.amount };
}

describe('concurrent authorizations on one card', () => {
  beforeEach(() => clock.set(new Date('2026-03-02T12:00:00.000Z')));

  it('50 in parallel against maxTransactionsPerDay 10: exactly 10 approved, 10 AUTHORIZED events', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1_000_000, { maxTransactionsPerDay: 10 });
    const txns = await parallel(p, card, Array<number>(50).fill(100));
    expect(approved(txns)).toHaveLength(10);
    for (const x of txns.filter((y) => y.status !== 'AUTHORIZED'))
      expect(x.cardDeclinedReason).toBe('SPEND_LIMIT_EXCEEDED');
    expect(await recordedEvents(p, 'CARD_TRANSACTION.AUTHORIZED')).toHaveLength(10);
    expect(await recordedEvents(p, 'CARD_TRANSACTION.DECLINED')).toHaveLength(40);
    expect(await available(p, card)).toEqual({ available: 999_000, total: 1_000_000 });
  });

  it('50 in parallel against maxSpendPerDay: the approved sum never exceeds it', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1_000_000, { maxSpendPerDay: 1000 });
    const amounts = Array.from({ length: 50 }, (_, i) => 30 + ((i * 37) % 90));
    const txns = await parallel(p, card, amounts);
    const sum = approved(txns).reduce((s, x) => s + x.authorizedAmount.amount, 0);
    expect(sum).toBeLessThanOrEqual(1000);
    // Every decline was necessary: adding it would have gone over (the smallest decline does not fit).
    const declined = txns.filter((x) => x.status === 'DECLINED').map((x) => x.authorizedAmount.amount);
    expect(sum + Math.min(...declined)).toBeGreaterThan(1000);
    expect(await available(p, card)).toEqual({ available: 1_000_000 - sum, total: 1_000_000 });
  });

  it('50 in parallel against a balance: holds never exceed it', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1000);
    const txns = await parallel(p, card, Array<number>(50).fill(75));
    expect(approved(txns)).toHaveLength(13);
    for (const x of txns.filter((y) => y.status !== 'AUTHORIZED'))
      expect(x.cardDeclinedReason).toBe('INSUFFICIENT_FUNDS');
    expect(await available(p, card)).toEqual({ available: 25, total: 1000 });
  });
});

describe('UTC day windows', () => {
  it('reset at 00:00 UTC: the last millisecond of a day counts for it, the next one starts afresh', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 100_000, { maxSpendPerDay: 1000, maxTransactionsPerDay: 3 });
    clock.set(new Date('2026-03-01T00:00:00.000Z'));
    expect(await authorize(p, card, 600)).toMatchObject({ status: 'AUTHORIZED' });
    clock.set(new Date('2026-03-01T23:59:59.999Z'));
    expect(await authorize(p, card, 400)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 1)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
    clock.advance(1); // 2026-03-02T00:00:00.000Z
    expect(await authorize(p, card, 1000)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 1)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
    clock.set(new Date('2026-03-03T08:00:00.000Z'));
    for (let i = 0; i < 3; i++) expect(await authorize(p, card, 1)).toMatchObject({ status: 'AUTHORIZED' });
    expect(await authorize(p, card, 1)).toMatchObject({ cardDeclinedReason: 'SPEND_LIMIT_EXCEEDED' });
  });
});

/**
 * A real server process killed with SIGKILL while authorizations on one card stream in, then
 * started again on the same database: every authorization it acknowledged is stored AUTHORIZED
 * with its hold, the account's `held` is exactly its open holds (`verifyLedger`), and the card's
 * velocity counters equal the day's approved purchases counted from its transactions.
 */
describe('kill -9 during authorizations', () => {
  it('loses no acknowledged authorization; held, holds and the day counters agree', async () => {
    const p = await TestPlatform.create(t);
    const card = await cardWithFunds(p, 1_000_000);
    const server = ChildServer.start(['node', 'dist/src/main.js'], { SANDBOX: 'true' });
    const { port } = await server.listening();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    const acknowledged = await killMidBurst(
      server,
      Array.from({ length: 400 }, (_, i) => i),
      async () => {
        const res = await post(
          port,
          agent,
          `${V}/sandbox/cards/${card.id}/simulate/authorization`,
          p.authorization,
          authorization(10),
        );
        return res.status === 202 ? (res.body as { cardTransaction: { id: string } }).cardTransaction.id : null;
      },
    );
    agent.destroy();
    expect(acknowledged.length).toBeGreaterThanOrEqual(15);

    const m = t.app.get(DataSource).manager;
    const cardUuid = parseId('Card', card.id)!;
    const stored = await m.query<Array<{ id: string; status: string; hold_id: string | null }>>(
      'SELECT id, status, hold_id FROM card_transactions WHERE card_id = $1',
      [cardUuid],
    );
    const byId = new Map(stored.map((r) => [formatId('Transaction', r.id), r]));
    for (const id of acknowledged) expect(byId.get(id)).toMatchObject({ status: 'AUTHORIZED' });
    for (const r of stored) expect(r.hold_id).not.toBeNull();
    const [counters] = await m.query<
      Array<{ day: string; count: number; spent: string; aggregate: number; sum: string }>
    >(
      `SELECT to_char(c.day_usage_date, 'YYYY-MM-DD') AS day, c.day_usage_count AS count, c.day_usage_spent::text AS spent,
              (SELECT count(*)::int FROM card_transactions t WHERE t.card_id = c.id AND t.direction = 'DEBIT' AND t.status <> 'DECLINED'
                  AND (t.authorized_at AT TIME ZONE 'UTC')::date = c.day_usage_date) AS aggregate,
              (SELECT COALESCE(sum(authorized_amount), 0)::text FROM card_transactions t WHERE t.card_id = c.id AND t.direction = 'DEBIT'
                  AND t.status <> 'DECLINED' AND (t.authorized_at AT TIME ZONE 'UTC')::date = c.day_usage_date) AS sum
         FROM cards c WHERE c.id = $1`,
      [cardUuid],
    );
    expect(counters.count).toBe(counters.aggregate);
    expect(counters.spent).toBe(counters.sum);
    expect(await verifyLedger(t.app.get(DataSource), parseId('Platform', p.platformId))).toMatchObject({ ok: true });
  }, 300_000);
});

function post(
  port: number,
  agent: http.Agent,
  path: string,
  authorizationHeader: string,
  body: object,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request({
      host: '127.0.0.1',
      port,
      agent,
      method: 'POST',
      path,
      headers: {
        authorization: authorizationHeader,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
