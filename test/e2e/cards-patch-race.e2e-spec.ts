import { DataSource } from 'typeorm';
import { CardsRepository } from '../../src/cards/cards.repository.js';
import { PATCH_OPTIMISTIC_ATTEMPTS } from '../../src/cards/cards.service.js';
import { activeCard, CardView, statusChange } from '../support/cards.js';
import { StatementCounter } from '../support/statement-counter.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * PATCH /cards/{id} under concurrency: it reads the card without a lock and writes on the condition
 * that the card did not change since (one statement: update, history, event), judging again on a
 * conflict and locking the card after PATCH_OPTIMISTIC_ATTEMPTS conflicts.
 */
let t: TestApp;
let counter: StatementCounter;
beforeAll(async () => {
  t = await startTestApp({ TOKEN_CACHE_TTL_MS: '60000' }); // statement counts assume the token stays cached
  counter = new StatementCounter(t.app);
});
afterAll(() => t.close());

interface HistoryEntry {
  at: string;
  fromStatus: string | null;
  toStatus: string;
}
interface OutboxRow {
  seq: number;
  data: CardView;
}

const history = async (p: TestPlatform, cardId: string) =>
  ((await p.get(`/cards/${cardId}/status-history`)).body as { data: HistoryEntry[] }).data;

/** The card's CARD.STATUS_CHANGE events in their aggregate's order (`seq`), straight from the outbox. */
async function eventsBySeq(cardId: string): Promise<OutboxRow[]> {
  const rows = await t.app
    .get(DataSource)
    .query<Array<{ seq: string; body: string }>>(
      `SELECT seq, body FROM outbox_events WHERE aggregate_id = $1 AND type = 'CARD.STATUS_CHANGE' ORDER BY seq`,
      [cardId],
    );
  return rows.map((r) => ({ seq: Number(r.seq), data: (JSON.parse(r.body) as { data: CardView }).data }));
}

/** Replaces the repository's conditioned write for the duration of `work`. */
async function withConditionedWrite<T>(
  replacement: (
    original: CardsRepository['updateIfVersion'],
    ...args: Parameters<CardsRepository['updateIfVersion']>
  ) => Promise<boolean>,
  work: () => Promise<T>,
): Promise<T> {
  const repo = t.app.get(CardsRepository);
  const original = repo.updateIfVersion.bind(repo);
  repo.updateIfVersion = (...args) => replacement(original, ...args);
  try {
    return await work();
  } finally {
    Reflect.deleteProperty(repo, 'updateIfVersion'); // the prototype's again
  }
}

describe('PATCH /cards/{id} under concurrency', () => {
  it('20 concurrent freezes and unfreezes of one card: one event and one history row per 200, in the same order', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        p.patch(`/cards/${card.id}`, statusChange(i % 2 === 0 ? 'FROZEN' : 'ACTIVE', 'OTHER', `toggle ${i}`)),
      ),
    );
    const ok = answers.filter((r) => r.status === 200);
    for (const r of answers.filter((a) => a.status !== 200)) expectError(r, 409, 'INVALID_STATE_TRANSITION');
    expect(ok.length).toBeGreaterThanOrEqual(1);

    const entries = await history(p, card.id);
    const events = await eventsBySeq(card.id);
    // Issuance (no event) and provisioning, then exactly one history row and one event per 200.
    expect(entries.slice(0, 2).map((h) => h.toStatus)).toEqual(['PROCESSING', 'ACTIVE']);
    expect(entries).toHaveLength(2 + ok.length);
    expect(events).toHaveLength(1 + ok.length);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    // The events in seq order are the history rows in order: the same transition at the same time.
    expect(events.map((e) => [e.data.status, e.data.updatedAt])).toEqual(
      entries.slice(1).map((h) => [h.toStatus, h.at]),
    );
    // Each row continues from the one before (no lost or doubled transition).
    for (let i = 1; i < entries.length; i++) expect(entries[i].fromStatus).toBe(entries[i - 1].toStatus);
    // Every 200 answered the card of exactly one event.
    const sorted = (cards: unknown[]) => cards.map((c) => JSON.stringify(c)).sort();
    expect(sorted(ok.map((r) => r.body as CardView))).toEqual(sorted(events.slice(1).map((e) => e.data)));
    // The card ends as the last event left it.
    const final = (await p.get(`/cards/${card.id}`)).body as CardView;
    expect(final).toEqual(events[events.length - 1].data);
  });

  it('a change committed between the read and the write: the PATCH is judged again (a second freeze is 409)', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    let competing = false;
    let writes = 0;
    const answer = await withConditionedWrite(
      async (original, ...args) => {
        writes++;
        if (!competing) {
          // The first write: another freeze gets in first, after this PATCH read the card.
          competing = true;
          const other = await p.patch(`/cards/${card.id}`, statusChange('FROZEN', 'LOST', 'the other one'));
          expect(other.status).toBe(200);
        }
        return original(...args);
      },
      () => p.patch(`/cards/${card.id}`, statusChange('FROZEN', 'LOST', 'this one')),
    );
    expectError(answer, 409, 'INVALID_STATE_TRANSITION');
    expect(writes).toBe(2); // this PATCH's write (matched nothing), the other's; the second read refused it
    expect((await eventsBySeq(card.id)).map((e) => e.data.status)).toEqual(['ACTIVE', 'FROZEN']);
    expect((await history(p, card.id)).map((h) => h.toStatus)).toEqual(['PROCESSING', 'ACTIVE', 'FROZEN']);
  });

  it(`after ${PATCH_OPTIMISTIC_ATTEMPTS} conflicts the PATCH locks the card and still makes its change once`, async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    await p.get('/config').expect(200); // the token is cached
    let attempts = 0;
    const res = { status: 0, body: {} as CardView };
    const statements = await withConditionedWrite(
      () => {
        attempts++;
        return Promise.resolve(false); // as if the card changed every time
      },
      () =>
        counter.during(async () => {
          const r = await p.patch(`/cards/${card.id}`, statusChange('FROZEN', 'LOST', 'locked'));
          Object.assign(res, { status: r.status, body: r.body as CardView });
        }),
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('FROZEN');
    expect(attempts).toBe(PATCH_OPTIMISTIC_ATTEMPTS);
    expect(statements.slice(-6)).toEqual([
      'START TRANSACTION',
      expect.stringMatching(/FROM cards WHERE id = \$1 AND platform_id = \$2 FOR UPDATE$/),
      expect.stringMatching(/^WITH changed AS \( UPDATE cards .* INSERT INTO card_status_history/),
      expect.stringMatching(/^WITH counter AS \( INSERT INTO outbox_aggregates/),
      expect.stringMatching(/^INSERT INTO audit_events \(/), // the request's audit event, in the same transaction
      'COMMIT',
    ]);
    expect(statements).toHaveLength(PATCH_OPTIMISTIC_ATTEMPTS + 6); // the reads, then the transaction
    const events = await eventsBySeq(card.id);
    expect(events.map((e) => e.data.status)).toEqual(['ACTIVE', 'FROZEN']);
    expect(events[1].data).toEqual(res.body);
    expect((await history(p, card.id)).map((h) => h.toStatus)).toEqual(['PROCESSING', 'ACTIVE', 'FROZEN']);
  });
});
