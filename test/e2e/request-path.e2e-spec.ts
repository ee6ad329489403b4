import { TokenCache } from '../../src/auth/token-cache.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';
import { StatementCounter } from '../support/statement-counter.js';
import { usdAccountBody } from '../support/fixtures.js';
import { activeCard, statusChange } from '../support/cards.js';
import { terminateConnections } from '../support/isolated-database.js';

/** The hot paths' statement counts (issue 12): a count that creeps back fails here. */
let t: TestApp;
let counter: StatementCounter;
beforeAll(async () => {
  t = await startTestApp({ TOKEN_CACHE_TTL_MS: '60000' }); // statement counts assume the token stays cached
  counter = new StatementCounter(t.app);
});
afterAll(() => t.close());

const usd = () => usdAccountBody();

const isTokenLookup = (sql: string) => sql.includes('FROM api_tokens WHERE client_id');

/** The audit event a multi-statement change appends before its transaction commits (src/audit/audit-trail.ts). */
const AUDIT = expect.stringMatching(/^INSERT INTO audit_events \(/);
/** The audit event riding in a one-statement change, as its last CTE (TransactionService.change). */
const RIDER =
  /, audit_event AS \(INSERT INTO audit_events \(.*\) SELECT .* WHERE EXISTS \(SELECT 1 FROM (changed|effect)\)\) SELECT /;

describe('statements per request', () => {
  it('an authenticated by-id GET runs 1 once the token is cached (2 on the first request)', async () => {
    const p = await TestPlatform.create(t);
    const token = await p.token(['VIEW']);
    const get = () => t.http.get(`${V}/tokens/${token.id}`).set('Authorization', token.authorization).expect(200);
    const first = await counter.during(get);
    expect(first).toHaveLength(2);
    expect(isTokenLookup(first[0])).toBe(true);
    const second = await counter.during(get);
    expect(second).toHaveLength(1);
    expect(second[0]).toMatch(/FROM "?api_tokens"?/);
    expect(second.some(isTokenLookup)).toBe(false);
  });

  it('GET /config runs 1 (token cached)', async () => {
    const p = await TestPlatform.create(t);
    await p.get('/config').expect(200);
    const statements = await counter.during(() => p.get('/config').expect(200));
    expect(statements).toHaveLength(1);
  });

  it('POST /platform/external-accounts runs 1 (token cached), its audit event in the same statement', async () => {
    const p = await TestPlatform.create(t);
    await p.get('/config').expect(200);
    const statements = await counter.during(() => p.post('/platform/external-accounts', usd()).expect(201));
    expect(statements).toEqual([expect.stringMatching(/^WITH effect AS \( INSERT INTO external_accounts/)]);
    expect(statements[0]).toMatch(RIDER);
  });

  it('an Idempotency-Key adds no statement: the INSERT writes the record; the replay runs 1', async () => {
    const p = await TestPlatform.create(t);
    await p.get('/config').expect(200);
    const body = usd();
    const post = (status: number) =>
      p.post('/platform/external-accounts', body).set('Idempotency-Key', 'k-1').expect(status);
    const statements = await counter.during(() => post(201));
    expect(statements).toEqual([expect.stringMatching(/^WITH idempotency_prior AS .*INSERT INTO idempotency_keys/)]);
    expect(statements[0]).toMatch(RIDER);
    // The replay changes nothing: the same one statement, whose audit CTE writes nothing.
    const replay = await counter.during(() => post(201));
    expect(replay).toEqual([expect.stringMatching(/^WITH idempotency_prior AS/)]);
  });

  it('on a transactional route the key adds its lookup and its record to the transaction', async () => {
    const p = await TestPlatform.create(t);
    await p.get('/config').expect(200);
    const body = { name: 'counted', permissions: ['VIEW'] };
    const post = (status: number) => p.post('/tokens', body).set('Idempotency-Key', 'k-2').expect(status);
    const statements = await counter.during(() => post(201));
    expect(statements).toEqual([
      'START TRANSACTION',
      expect.stringMatching(/pg_try_advisory_xact_lock/),
      expect.stringMatching(/^INSERT INTO "api_tokens"/),
      expect.stringMatching(/^INSERT INTO idempotency_keys/),
      AUDIT,
      'COMMIT',
    ]);
    const replay = await counter.during(() => post(201));
    expect(replay).toEqual(['START TRANSACTION', expect.stringMatching(/pg_try_advisory_xact_lock/), AUDIT, 'COMMIT']);
  });

  it('PATCH /cards/{id} runs 2 (token cached): the read, then one statement for the card, its history, its event and its audit event', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    await p.get('/config').expect(200);
    const freeze = await counter.during(() => p.patch(`/cards/${card.id}`, statusChange('FROZEN')).expect(200));
    expect(freeze).toEqual([
      expect.stringMatching(/^SELECT .* xmin::text AS "rowVersion" FROM cards WHERE id = \$1 AND platform_id = \$2$/),
      expect.stringMatching(
        /^WITH changed AS \( UPDATE cards .* AND xmin = \$19::xid RETURNING id\), history AS \(INSERT INTO card_status_history .* outbox_event AS \( INSERT INTO outbox_events .*\) SELECT id FROM changed$/,
      ),
    ]);
    expect(freeze[1]).toMatch(RIDER);
    // A change without a status: the same two, without history and event.
    const limit = await counter.during(() => p.patch(`/cards/${card.id}`, { maxSpendPerDay: 500 }).expect(200));
    expect(limit).toEqual([
      expect.stringMatching(/ FROM cards WHERE id = \$1 AND platform_id = \$2$/),
      expect.stringMatching(/^WITH changed AS \( UPDATE cards .* AND xmin = \$19::xid RETURNING id\),/),
    ]);
    expect(limit[1]).toMatch(RIDER);
  });

  it('a wrong secret never hits the cache', async () => {
    const p = await TestPlatform.create(t);
    await p.get('/config').expect(200); // cached now
    const wrong = `Basic ${Buffer.from(`${p.clientId}:${p.clientSecret.slice(0, -1)}x`).toString('base64')}`;
    const res = await t.http.get(`${V}/config`).set('Authorization', wrong);
    expect(res.status).toBe(401);
    await p.get('/config').expect(200);
  });
});

describe('revocation across replicas', () => {
  let b: TestApp;
  beforeAll(async () => {
    // A long TTL on B: only the invalidation can make B refuse within this test.
    b = await startTestApp({ TOKEN_CACHE_TTL_MS: '60000' });
  });
  afterAll(() => b.close());

  it('a token revoked through instance A is refused by instance B, which had it cached', async () => {
    const p = await TestPlatform.create(t);
    const token = await p.token(['VIEW']);
    const tokenUuid = token.id.slice('Token:'.length);
    const onB = () => b.http.get(`${V}/config`).set('Authorization', token.authorization);
    expect((await onB()).status).toBe(200);
    const cached = await counter.during(async () => expect((await onB()).status).toBe(200));
    expect(cached).toEqual([]); // counter watches A: B answered from its own cache, A saw nothing

    // B evicts when the revocation reaches it (NOTIFY at A's commit on PostgreSQL, the in-process
    // bus on the embedded engine): awaited as an event, not a sleep.
    const evicted = new Promise<void>((resolve) => {
      const onEvicted = (id: string) => {
        if (id !== tokenUuid) return;
        b.app.get(TokenCache).events.off('evicted', onEvicted);
        resolve();
      };
      b.app.get(TokenCache).events.on('evicted', onEvicted);
    });
    await p.delete(`/tokens/${token.id}`).expect(204); // through A
    await evicted;
    const res = await onB();
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

// The notification connection exists only on PostgreSQL (the embedded engine uses the in-process bus).
(process.env.TEST_DATABASE_ADMIN_URL ? describe : describe.skip)('when the notification connection drops', () => {
  it('the cache is emptied and the listener reconnects (so a missed revocation cannot linger)', async () => {
    const p = await TestPlatform.create(t);
    await p.get('/config').expect(200);
    const cached = await counter.during(() => p.get('/config').expect(200));
    expect(cached.some(isTokenLookup)).toBe(false);

    const cache = t.app.get(TokenCache);
    const reconnected = new Promise<void>((resolve) => cache.events.once('connected', () => resolve()));
    expect(await terminateConnections(process.env.TEST_DATABASE_URL!, cache.listenerName)).toEqual([true]);
    await reconnected;
    const after = await counter.during(() => p.get('/config').expect(200));
    expect(after.some(isTokenLookup)).toBe(true); // looked up again: the cache was emptied
  });
});
