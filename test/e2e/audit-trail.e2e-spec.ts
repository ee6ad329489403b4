import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { AuditRetention } from '../../src/audit/audit-retention.js';
import { AuditRefusals } from '../../src/audit/audit-refusals.js';
import { AuditSealer } from '../../src/audit/audit-sealer.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { verifyChains } from '../../src/audit/audit-chain.js';
import { parseId } from '../../src/common/ids.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { activeCard, statusChange, THREE_DS } from '../support/cards.js';
import { recordedEvents } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { individual } from '../support/customers.js';
import { newCustomer, usdAccountBody } from '../support/fixtures.js';
import { isolatedDatabase } from '../support/isolated-database.js';
import { basicAuth, expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/** The append-only audit trail (src/audit/): what is recorded, atomicity, the chain, GET /audit-events. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface AuditEventView {
  id: string;
  createdAt: string;
  actor: { type: string; id: string | null };
  action: string;
  resourceIds: string[];
  outcome: { status: number; code: string | null };
  requestId: string | null;
  sourceAddress: string | null;
  userAgent: string | null;
  changedFields: string[];
  count: number;
  lastSeenAt: string | null;
  sequence: number | null;
  previousHash: string | null;
  hash: string | null;
}

interface AuditPage {
  data: AuditEventView[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

async function auditEvents(p: TestPlatform, query = ''): Promise<AuditEventView[]> {
  const res = await p.get(`/audit-events?limit=100${query}`);
  expect(res.status).toBe(200);
  return (res.body as AuditPage).data;
}

const db = () => t.app.get(DataSource);
/** Links every event appended so far (the test app runs no worker: sealing happens only here). */
const seal = (app: TestApp = t) => app.app.get(AuditSealer).settle();
/** Writes the refusal counts of the open window (as the window's end does). */
const flushRefusals = (app: TestApp = t) => app.app.get(AuditRefusals).flush();
const uuidOf = (p: TestPlatform) => parseId('Platform', p.platformId)!;
const tokenIdOf = async (p: TestPlatform) =>
  `Token:${(await db().query<Array<{ id: string }>>('SELECT id FROM api_tokens WHERE client_id = $1', [p.clientId]))[0].id}`;

describe('what a change records', () => {
  it('a freeze: the operation, the token, the card, 200, the request id, source, user agent, the body member names', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    const res = await p
      .patch(`/cards/${card.id}`, statusChange('FROZEN', 'LOST', 'lost at the station'))
      .set('User-Agent', 'audit-test/1.0')
      .set('X-Request-Id', 'audit-freeze-1');
    expect(res.status).toBe(200);
    const [event, ...others] = await auditEvents(p, `&action=updateCardById&resourceId=${card.id}`);
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      actor: { type: 'api_token', id: await tokenIdOf(p) },
      action: 'updateCardById',
      outcome: { status: 200, code: null },
      requestId: 'audit-freeze-1',
      userAgent: 'audit-test/1.0',
      changedFields: ['reason', 'status', 'substatus'],
    });
    expect(event.resourceIds).toContain(card.id);
    expect(event.sourceAddress).toMatch(/127\.0\.0\.1/);
    expect(JSON.stringify(event)).not.toContain('lost at the station'); // names, never values
  });

  it('a create: its operation, 201, the names of the members it set', async () => {
    const p = await TestPlatform.create(t);
    await newCustomer(p);
    const [event] = await auditEvents(p, '&action=createCustomer');
    expect(event.outcome).toEqual({ status: 201, code: null });
    expect(event.changedFields).toEqual(expect.arrayContaining(['customerType', 'fullName']));
  });

  it('a one-statement create (POST /platform/external-accounts) records in the same transaction', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/platform/external-accounts', usdAccountBody());
    expect(res.status).toBe(201);
    const events = await auditEvents(p, '&action=createPlatformExternalAccount');
    expect(events.map((e) => e.outcome)).toEqual([{ status: 201, code: null }]);
  });

  it('a refused change records its outcome and no success; reads are not recorded', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    expectError(await p.patch(`/cards/${card.id}`, statusChange('ACTIVE')), 409, 'INVALID_STATE_TRANSITION');
    expectError(await p.patch(`/cards/${card.id}`, { status: 'FROZEN' }), 400, 'INVALID_INPUT');
    await p.get(`/cards/${card.id}`).expect(200);
    const events = await auditEvents(p, `&resourceId=${card.id}`);
    expect(events.filter((e) => e.action === 'updateCardById').map((e) => e.outcome)).toEqual([
      { status: 400, code: 'INVALID_INPUT' },
      { status: 409, code: 'INVALID_STATE_TRANSITION' },
    ]);
    expect(events.some((e) => e.action === 'getCard' || e.action.startsWith('get'))).toBe(false);
  });
});

describe('refused authentication and permission', () => {
  it('a wrong secret for a real client id is recorded on that token and platform (never the secret)', async () => {
    const p = await TestPlatform.create(t);
    const res = await t.http
      .post(`${V}/customers`)
      .set('Authorization', basicAuth(`${p.clientId}:not-the-secret-XYZ`))
      .send({});
    expectError(res, 401, 'UNAUTHORIZED');
    await flushRefusals();
    const [event] = await auditEvents(p, '&action=createCustomer');
    expect(event).toMatchObject({
      actor: { type: 'api_token', id: await tokenIdOf(p) },
      outcome: { status: 401, code: 'UNAUTHORIZED' },
    });
    expect(JSON.stringify(event)).not.toContain('not-the-secret-XYZ');
  });

  it('a refused read (401) is recorded too; a token lacking the permission is recorded as itself (403)', async () => {
    const p = await TestPlatform.create(t);
    const viewer = await p.token(['VIEW']);
    const denied = await t.http.post(`${V}/tokens`).set('Authorization', viewer.authorization).send({ name: 'x' });
    expectError(denied, 403, 'FORBIDDEN');
    const badRead = await t.http.get(`${V}/cards`).set('Authorization', basicAuth(`${p.clientId}:wrong`));
    expectError(badRead, 401, 'UNAUTHORIZED');
    await flushRefusals();
    const events = await auditEvents(p);
    expect(events.find((e) => e.outcome.status === 403)).toMatchObject({
      actor: { type: 'api_token', id: viewer.id },
      action: 'createToken',
      outcome: { code: 'FORBIDDEN' },
    });
    expect(events.find((e) => e.outcome.status === 401)).toMatchObject({ action: 'listCards' });
  });

  it('unknown credentials land on the unattributed chain, visible to no platform', async () => {
    const p = await TestPlatform.create(t);
    const res = await t.http
      .post(`${V}/customers`)
      .set('Authorization', basicAuth('0123456789abcdef0123456789abcdef:nope'))
      .set('X-Request-Id', `unknown:${p.clientId}`)
      .send({});
    expectError(res, 401, 'UNAUTHORIZED');
    await flushRefusals();
    const [row] = await db().query<Array<{ platform_id: string | null; actor_type: string }>>(
      'SELECT platform_id, actor_type FROM audit_events WHERE request_id = $1',
      [`unknown:${p.clientId}`],
    );
    expect(row).toEqual({ platform_id: null, actor_type: 'anonymous' });
    expect(await auditEvents(p)).toEqual([]);
  });
});

describe('one transaction', () => {
  it('no change without its event: when the event cannot be written, the change rolls back', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    // An event the database refuses (no action): the change's statement (or transaction) fails whole.
    const trail: { successRecord: (req: unknown) => Record<string, unknown> } = t.app.get<unknown>(AuditTrail) as never;
    const original = trail.successRecord;
    trail.successRecord = (req) => ({ ...original.call(trail, req), action: null });
    try {
      expectError(await p.patch(`/cards/${card.id}`, statusChange('FROZEN')), 500, 'INTERNAL_ERROR');
      expectError(await p.patch(`/cards/${card.id}`, { maxSpendPerTransaction: 100 }), 500, 'INTERNAL_ERROR');
    } finally {
      trail.successRecord = original;
    }
    const now = (await p.get(`/cards/${card.id}`).expect(200)).body as { status: string };
    expect(now.status).toBe('ACTIVE');
    expect((await recordedEvents(p, 'CARD.STATUS_CHANGE')).filter((e) => e.data.status === 'FROZEN')).toEqual([]);
    const outcomes = (await auditEvents(p, `&resourceId=${card.id}&action=updateCardById`)).map((e) => e.outcome);
    expect(outcomes).toEqual([
      { status: 500, code: 'INTERNAL_ERROR' },
      { status: 500, code: 'INTERNAL_ERROR' },
    ]);
  });

  it('no event for a change that rolled back: a failing change leaves neither', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    await p.patch(`/cards/${card.id}`, statusChange('CLOSED')).expect(200);
    // Two concurrent changes of a CLOSED card: both refused, nothing but the refusals recorded.
    const results = await Promise.all([0, 1].map(() => p.patch(`/cards/${card.id}`, statusChange('FROZEN'))));
    expect(results.map((r) => r.status)).toEqual([409, 409]);
    const outcomes = (await auditEvents(p, `&resourceId=${card.id}&action=updateCardById`)).map(
      (e) => e.outcome.status,
    );
    expect(outcomes.sort()).toEqual([200, 409, 409]);
  });
});

/**
 * What the app's pool sends during `work`, one entry per round trip (each `pg` client `query` call
 * is one message and its answer). Nothing else may run queries on the app meanwhile.
 */
async function roundTrips(work: () => Promise<unknown>): Promise<string[]> {
  const pool = (db().driver as PostgresDriver).master as pg.Pool & { Client: typeof pg.Client };
  const proto = pool.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const sent: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0] as string | { text?: string };
    sent.push((typeof config === 'string' ? config : (config.text ?? '')).replace(/\s+/g, ' ').trim());
    return original.apply(this, args);
  };
  try {
    await work();
    return sent;
  } finally {
    proto.query = original;
  }
}

describe('no round trip of its own', () => {
  it("a multi-statement change sends its event in its COMMIT's message, with every resource it named", async () => {
    const p = await TestPlatform.create(t);
    await p.get('/config').expect(200); // the token cached
    let customerId = '';
    const sent = await roundTrips(async () => {
      customerId = (await newCustomer(p)).id;
    });
    expect(sent[0]).toBe('START TRANSACTION');
    // The event and COMMIT share one message; neither goes alone.
    expect(sent[sent.length - 1]).toMatch(/^INSERT INTO audit_events \(.*\) VALUES \(.*\); COMMIT$/);
    expect(sent.filter((s) => s.includes('audit_events'))).toHaveLength(1);
    expect(sent).not.toContain('COMMIT');
    const [event] = await auditEvents(p, `&resourceId=${customerId}`);
    expect(event).toMatchObject({ action: 'createCustomer', outcome: { status: 201, code: null } });
    await seal();
    expect((await verifyChains(db(), uuidOf(p))).ok).toBe(true); // its digest is the one computed in the app
  });

  it('values that need quoting are written as sent (an inlined literal is escaped)', async () => {
    const p = await TestPlatform.create(t);
    const agent = "O'Brien \\ back\\slash; COMMIT; --";
    const res = await p.post('/customers', individual()).set('user-agent', agent);
    expect(res.status).toBe(201);
    const [event] = await auditEvents(p, '&action=createCustomer');
    expect(event.userAgent).toBe(agent);
    await seal();
    expect((await verifyChains(db(), uuidOf(p))).ok).toBe(true);
  });

  it('when the event cannot be written, the whole transaction rolls back', async () => {
    const p = await TestPlatform.create(t);
    const trail: { successRecord: (req: unknown) => Record<string, unknown> } = t.app.get<unknown>(AuditTrail) as never;
    const original = trail.successRecord;
    trail.successRecord = (req) => ({ ...original.call(trail, req), action: null });
    try {
      expectError(await p.post('/customers', individual()), 500, 'INTERNAL_ERROR');
    } finally {
      trail.successRecord = original;
    }
    const customers = await p.get('/customers').expect(200);
    expect((customers.body as { data: unknown[] }).data).toEqual([]);
    // The pool's connection is usable again (the aborted transaction was rolled back).
    await newCustomer(p);
  });
});

describe('append-only, hash-chained', () => {
  it('the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    const p = await TestPlatform.create(t);
    await p.post('/tokens', { name: 'x', permissions: ['VIEW'] }).expect(201);
    const q = (sql: string) => db().query(sql, [uuidOf(p)]);
    await expect(q(`UPDATE audit_events SET action = 'x' WHERE platform_id = $1`)).rejects.toThrow(/append-only/);
    await expect(q(`DELETE FROM audit_events WHERE platform_id = $1`)).rejects.toThrow(/append-only/);
    await expect(db().query('TRUNCATE audit_events')).rejects.toThrow(/append-only/);
    expect(await auditEvents(p)).toHaveLength(1);
  });

  it('parallel changes of one platform make one unbroken chain; a tampered row is named', async () => {
    const p = await TestPlatform.create(t);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => p.post('/tokens', { name: `race-${i}`, permissions: ['VIEW'] })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    await Promise.all(Array.from({ length: 6 }, () => p.post('/platform/external-accounts', usdAccountBody())));
    await seal();
    const events = await auditEvents(p);
    expect(events.map((e) => e.sequence!).sort((a, b) => a - b)).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
    expect(await verifyChains(db(), uuidOf(p))).toEqual({ ok: true, chains: 1, events: 18, unsealed: 0 });

    const victim = events.find((e) => e.sequence === 7)!;
    await db().transaction(async (m) => {
      await m.query('SET LOCAL session_replication_role = replica'); // triggers off, in this transaction only
      await m.query(`UPDATE audit_events SET actor_id = 'system' WHERE id = $1`, [parseId('AuditEvent', victim.id)]);
    });
    const verdict = await verifyChains(db(), uuidOf(p));
    expect(verdict).toMatchObject({ ok: false, broken: { seq: 7, id: victim.id, chain: p.platformId } });
    expect(verdict.broken!.problem).toMatch(/altered/);
  });

  it('audit:verify (CLI) names the first broken link and exits 3; audit:export writes JSON lines', async () => {
    const p = await TestPlatform.create(t);
    await p.post('/tokens', { name: 'a', permissions: ['VIEW'] }).expect(201);
    await p.post('/tokens', { name: 'b', permissions: ['VIEW'] }).expect(201);
    await seal();
    const env = { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL!, LOG_LEVEL: 'silent' };
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['dist/src/cli.js', ...args], { env }).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
      );
    const ok = await cli('audit:verify', '--platform', p.platformId);
    expect({ code: ok.code, result: JSON.parse(ok.stdout) as unknown }).toEqual({
      code: 0,
      result: { ok: true, chains: 1, events: 2, unsealed: 0 },
    });
    const events = await auditEvents(p);
    const since = events[events.length - 1].createdAt;
    const exported = await cli('audit:export', '--since', since);
    expect(exported.code).toBe(0);
    const lines = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; platformId: string });
    expect(lines.filter((l) => l.platformId === p.platformId).map((l) => l.id)).toEqual(
      [...events].reverse().map((e) => e.id),
    );
    expect((await cli('audit:export', '--since', 'yesterday')).code).toBe(2);

    await db().transaction(async (m) => {
      await m.query('SET LOCAL session_replication_role = replica');
      await m.query('DELETE FROM audit_events WHERE id = $1', [parseId('AuditEvent', events[events.length - 1].id)]);
    });
    const bad = await cli('audit:verify', '--platform', p.platformId);
    expect(bad.code).toBe(3);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, broken: { seq: 1, problem: 'the event is missing' } });
  }, 180_000); // four CLI processes: slow to start on a loaded machine

  it('retention deletes only what is past AUDIT_RETENTION_DAYS (its own database: it spans every platform)', async () => {
    const own = await isolatedDatabase();
    const clock = new FakeClock();
    const app = await startTestApp({ AUDIT_RETENTION_DAYS: '30' }, { databaseUrl: own.url, clock });
    try {
      const p = await TestPlatform.create(app);
      await p.post('/tokens', { name: 'old', permissions: ['VIEW'] }).expect(201);
      clock.advance(20 * 86_400_000);
      await p.post('/tokens', { name: 'new', permissions: ['VIEW'] }).expect(201);
      clock.advance(15 * 86_400_000);
      await seal(app);
      expect(await app.app.get(AuditRetention).runOnce()).toBe(1);
      const left = await auditEvents(p);
      expect(left.map((e) => e.sequence)).toEqual([2]);
      // The chain now starts at 2 (its prev_hash taken as given) and still verifies.
      expect(await verifyChains(app.app.get(DataSource))).toEqual({ ok: true, chains: 1, events: 1, unsealed: 0 });
    } finally {
      await app.close();
      await own.close();
    }
  }, 180_000); // a database of its own: migrations on a fresh engine are slow on a loaded machine
});

describe('unlinked append, sealed in commit order', () => {
  const rowOf = async (id: string) =>
    (
      await db().query<Array<{ seq: string | null; hash: string | null }>>(
        'SELECT seq, hash FROM audit_events WHERE id = $1',
        [parseId('AuditEvent', id)],
      )
    )[0];

  it('a change appends its event unlinked; the sealer links it; verify reports the unsealed tail', async () => {
    const p = await TestPlatform.create(t);
    await p.post('/tokens', { name: 'x', permissions: ['VIEW'] }).expect(201);
    const [before] = await auditEvents(p);
    expect(before).toMatchObject({ sequence: null, previousHash: null, hash: null, count: 1, lastSeenAt: null });
    expect(await verifyChains(db(), uuidOf(p))).toEqual({ ok: true, chains: 0, events: 0, unsealed: 1 });
    await seal();
    const [after] = await auditEvents(p);
    expect(after).toMatchObject({
      id: before.id,
      sequence: 1,
      previousHash: null,
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    await p.post('/tokens', { name: 'y', permissions: ['VIEW'] }).expect(201);
    await seal();
    const [second] = await auditEvents(p);
    expect(second).toMatchObject({ sequence: 2, previousHash: after.hash });
    expect(await verifyChains(db(), uuidOf(p))).toEqual({ ok: true, chains: 1, events: 2, unsealed: 0 });
  });

  it('the database lets sealing through, and nothing else: a seal that alters the event is refused', async () => {
    const p = await TestPlatform.create(t);
    await p.post('/tokens', { name: 'x', permissions: ['VIEW'] }).expect(201);
    const [event] = await auditEvents(p);
    const id = parseId('AuditEvent', event.id);
    await expect(
      db().query(`UPDATE audit_events SET seq = 1, hash = 'x', action = 'other' WHERE id = $1`, [id]),
    ).rejects.toThrow(/append-only/);
    await expect(db().query(`UPDATE audit_events SET digest = 'x' WHERE id = $1`, [id])).rejects.toThrow(/append-only/);
    await seal();
    await expect(db().query(`UPDATE audit_events SET seq = 9, hash = 'x' WHERE id = $1`, [id])).rejects.toThrow(
      /append-only/,
    );
    expect(await verifyChains(db(), uuidOf(p))).toEqual({ ok: true, chains: 1, events: 1, unsealed: 0 });
  });

  it('an unsealed event altered before sealing is named, before and after it is sealed', async () => {
    const p = await TestPlatform.create(t);
    await p.post('/tokens', { name: 'x', permissions: ['VIEW'] }).expect(201);
    const [event] = await auditEvents(p);
    await db().transaction(async (m) => {
      await m.query('SET LOCAL session_replication_role = replica');
      await m.query(`UPDATE audit_events SET actor_id = 'system' WHERE id = $1`, [parseId('AuditEvent', event.id)]);
    });
    expect(await verifyChains(db(), uuidOf(p))).toMatchObject({
      ok: false,
      broken: { seq: null, id: event.id, problem: 'the unsealed event does not match its digest (altered)' },
    });
    await seal(); // the sealer links the row as it finds it; its digest still tells
    expect(await verifyChains(db(), uuidOf(p))).toMatchObject({
      ok: false,
      broken: { seq: 1, id: event.id, problem: 'the hash does not match the event (altered)' },
    });
  });

  // Two transactions in flight at once: PostgreSQL only (the embedded engine runs one at a time,
  // so an event there is always committed before the next transaction starts).
  (process.env.TEST_DATABASE_ADMIN_URL ? it : it.skip)(
    'an event whose transaction commits late is sealed after those committed before it (never into a gap)',
    async () => {
      const p = await TestPlatform.create(t);
      const held = db().createQueryRunner();
      await held.connect();
      try {
        await held.startTransaction();
        await t.app.get(AuditTrail).recordSystem(held.manager, uuidOf(p), 'test:held', []);
        await p.post('/tokens', { name: 'later', permissions: ['VIEW'] }).expect(201); // commits first
        const [later] = await auditEvents(p); // the held one is not visible yet
        expect(later.action).toBe('createToken');
        await t.app.get(AuditSealer).sealOnce(); // seals the committed one; the held one is invisible
        expect(await rowOf(later.id)).toMatchObject({ seq: '1' });
        await held.commitTransaction();
      } finally {
        await held.release();
      }
      await seal();
      const events = await auditEvents(p);
      // Commit order, though the held event was appended (took its sequence) first.
      expect(events.map((e) => [e.action, e.sequence]).sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
        ['createToken', 1],
        ['test:held', 2],
      ]);
      expect(await verifyChains(db(), uuidOf(p))).toEqual({ ok: true, chains: 1, events: 2, unsealed: 0 });
    },
  );

  it('a worker seals on its own within AUDIT_SEAL_INTERVAL_MS, and publishes the unsealed count and lag', async () => {
    const own = await isolatedDatabase();
    const app = await startTestApp({ ROLE: 'all', AUDIT_SEAL_INTERVAL_MS: '100' }, { databaseUrl: own.url });
    try {
      const p = await TestPlatform.create(app);
      await p.post('/tokens', { name: 'x', permissions: ['VIEW'] }).expect(201);
      const scraped = (await app.app.get(MetricsService).scrape()).body;
      expect(scraped).toMatch(/^audit_unsealed_events \d+$/m);
      expect(scraped).toMatch(/^audit_seal_lag_seconds [\d.e-]+$/m);
      // Awaits the worker's own round (no call to the sealer here).
      for (;;) {
        const [event] = await auditEvents(p);
        if (event.sequence !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await app.app.get(MetricsService).scrape()).body).toMatch(/^audit_unsealed_events 0$/m);
      expect(await verifyChains(app.app.get(DataSource))).toEqual({ ok: true, chains: 1, events: 1, unsealed: 0 });
    } finally {
      await app.close();
      await own.close();
    }
  }, 180_000); // a database of its own: migrations on a fresh engine are slow on a loaded machine
});

describe('refusals counted, failed authentications limited per address', () => {
  let f: TestApp;
  beforeAll(async () => {
    // An instance of its own (same database): its per-address budget is spent by these tests only.
    // A long token-cache TTL: the cached credential must outlast the flood on a busy machine.
    f = await startTestApp({
      AUTH_FAILURES_PER_ADDRESS: '20',
      AUDIT_REFUSAL_TALLIES: '4',
      TOKEN_CACHE_TTL_MS: '60000',
      AUDIT_REFUSAL_WINDOW_MS: '3600000', // windows end only when the test flushes them
    });
  });
  afterAll(() => f.close());

  it('a flood of bad credentials writes a bounded number of rows; past the limit it is 429 before any lookup', async () => {
    const p = await TestPlatform.create(t);
    const onF = p.on(f);
    await onF.get('/config').expect(200); // cached on f before the flood
    const fresh = await p.token(['VIEW']); // valid, never used on f: not cached there
    const bad = basicAuth(`${p.clientId}:wrong-secret`);
    const answers: number[] = [];
    // One at a time until past the limit (so exactly 20 lookups fail), then in bursts.
    for (let i = 0; i < 25; i++)
      answers.push((await f.http.post(`${V}/customers`).set('Authorization', bad).send({})).status);
    for (let round = 0; round < 5; round++) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, () => f.http.post(`${V}/customers`).set('Authorization', bad).send({})),
      );
      answers.push(...batch.map((r) => r.status));
    }
    expect(answers.filter((s) => s === 401)).toHaveLength(20);
    expect(answers.filter((s) => s === 429)).toHaveLength(130);
    const limited = await f.http.post(`${V}/customers`).set('Authorization', bad).send({});
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The platform's own traffic from that address: a credential f already verified still works; an
    // unverified one would need a lookup, refused before it while the address is limited.
    await onF.get('/config').expect(200);
    expectError(await f.http.get(`${V}/config`).set('Authorization', fresh.authorization), 429, 'RATE_LIMITED');

    expect(await flushRefusals(f)).toBeGreaterThan(0);
    const refusals = (await auditEvents(p, '&action=createCustomer')).filter((e) => e.outcome.status !== 201);
    expect(refusals.map((e) => [e.outcome.status, e.count]).sort()).toEqual([
      [401, 20],
      [429, 131],
    ]);
    for (const e of refusals) {
      expect(e.actor).toEqual({ type: 'api_token', id: await tokenIdOf(p) });
      expect(Date.parse(e.lastSeenAt!)).toBeGreaterThanOrEqual(Date.parse(e.createdAt));
    }
    await seal();
    expect(await verifyChains(db(), uuidOf(p))).toMatchObject({ ok: true, unsealed: 0 });
  });

  it('distinct refusals past AUDIT_REFUSAL_TALLIES fold into one overflow row per window', async () => {
    await flushRefusals(f);
    const marker = 'overflow';
    for (let i = 0; i < 8; i++) {
      // Unknown client ids (401, or 429 once the address is limited): each is its own tally.
      const id = `${i}`.repeat(32).slice(0, 32);
      await f.http.get(`${V}/cards`).set('Authorization', 'Bearer nope').set('X-Request-Id', `${marker}-${i}`);
      await f.http
        .get(`${V}/cards`)
        .set('Authorization', basicAuth(`${id}:x`))
        .set('X-Request-Id', `${marker}-b${i}`);
    }
    const rows = await flushRefusals(f);
    expect(rows).toBeLessThanOrEqual(5); // 4 tallies + the overflow
    const [overflow] = await db().query<Array<{ count: number }>>(
      `SELECT count FROM audit_events WHERE action = 'refusals:overflow' ORDER BY pos DESC LIMIT 1`,
    );
    expect(overflow.count).toBeGreaterThan(0);
  });
});

describe('GET /audit-events', () => {
  it('filters by actor, action, resource and time; malformed filters are 400 INVALID_INPUT', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    await p.patch(`/cards/${card.id}`, statusChange('FROZEN')).expect(200);
    const all = await auditEvents(p);
    const tokenId = await tokenIdOf(p);
    expect((await auditEvents(p, `&actorId=${tokenId}`)).length).toBe(all.length);
    expect(await auditEvents(p, '&actorId=system')).toEqual([]);
    expect((await auditEvents(p, '&action=updateCardById')).map((e) => e.action)).toEqual(['updateCardById']);
    expect((await auditEvents(p, `&resourceId=${card.id}`)).length).toBeGreaterThanOrEqual(2); // create, provision, freeze
    const newest = all[0].createdAt;
    expect((await auditEvents(p, `&createdAfter=${encodeURIComponent(newest)}`)).map((e) => e.id)).toContain(all[0].id);
    expect(await auditEvents(p, `&createdBefore=2000-01-01T00:00:00Z`)).toEqual([]);
    for (const bad of ['createdAfter=yesterday', 'createdBefore=2026-13-01', 'actorId=Token:nope', 'action=a%20b']) {
      expectError(await p.get(`/audit-events?${bad}`), 400, 'INVALID_INPUT');
    }
  });

  it('pages newest first with a cursor; another platform sees none of them; VIEW is not enough', async () => {
    const p = await TestPlatform.create(t);
    for (let i = 0; i < 5; i++) await p.post('/tokens', { name: `t${i}`, permissions: ['VIEW'] }).expect(201);
    await seal();
    const first = (await p.get('/audit-events?limit=2').expect(200)).body as AuditPage;
    expect(first).toMatchObject({ hasMore: true, totalCount: 5 });
    const second = (await p.get(`/audit-events?limit=2&cursor=${first.nextCursor}`).expect(200)).body as AuditPage;
    const third = (await p.get(`/audit-events?limit=2&cursor=${second.nextCursor}`).expect(200)).body as AuditPage;
    expect(third.hasMore).toBe(false);
    const sequences = [...first.data, ...second.data, ...third.data].map((e) => e.sequence);
    expect(sequences).toEqual([5, 4, 3, 2, 1]);

    const other = await TestPlatform.create(t);
    expect(await auditEvents(other)).toEqual([]);
    for (const e of first.data) expect(await auditEvents(other, `&resourceId=${e.resourceIds[0]}`)).toEqual([]);
    const viewer = await p.token(['VIEW']);
    expectError(await t.http.get(`${V}/audit-events`).set('Authorization', viewer.authorization), 403, 'FORBIDDEN');
  });
});

/** Secrets and card numbers that must never appear in an audit event. */
const FORBIDDEN = [/whsec_/, /gat_[0-9a-f]{8}/, /\b\d{13,19}\b/, new RegExp(THREE_DS)];
/**
 * A token-like run (a client secret, a sealed value in base64): letters and digits mixed, not a hex
 * hash or id. Long names (operation ids, error codes such as TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL)
 * have no digits.
 */
const opaque = (row: string) =>
  (row.match(/[A-Za-z0-9+/_=-]{40,}/g) ?? []).some(
    (run) => !/^[0-9a-f]+$/.test(run) && /[0-9]/.test(run) && /[A-Za-z]/.test(run),
  );

describe('no secret in any event', () => {
  it('every event written so far in this run (all test files on this database) is free of secrets', async () => {
    const p = await TestPlatform.create(t);
    await p.post('/tokens', { name: 'scan', permissions: ['VIEW'] }).expect(201);
    const rows = await db().query<Array<{ row: string }>>('SELECT row_to_json(e)::text AS row FROM audit_events e');
    expect(rows.length).toBeGreaterThan(0);
    const leaks = rows.filter(
      ({ row }) => FORBIDDEN.some((re) => re.test(row)) || opaque(row) || row.includes(p.clientSecret),
    );
    expect(leaks).toEqual([]);
  });
});
