import { IDEMPOTENCY_TTL_MS } from '../../src/idempotency/idempotency.service.js';
import { FakeClock } from '../support/fake-clock.js';
import { usdAccountBody } from '../support/fixtures.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

// The 24-hour expiry of an Idempotency-Key, driven by the injected clock (no waiting).
const clock = new FakeClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

describe('Idempotency-Key expiry', () => {
  it('replays for 24 hours, then the key may be used again for a new request', async () => {
    const p = await TestPlatform.create(t);
    const body = { name: 'expiring', permissions: ['VIEW'] };
    const first = await p.post('/tokens', body).set('Idempotency-Key', 'day-key');
    expect(first.status).toBe(201);

    clock.advance(IDEMPOTENCY_TTL_MS); // exactly 24 hours later: still honoured
    const replay = await p.post('/tokens', body).set('Idempotency-Key', 'day-key');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);

    clock.advance(1); // past 24 hours: the old record no longer applies
    const fresh = await p.post('/tokens', body).set('Idempotency-Key', 'day-key');
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.body.id).not.toBe(first.body.id);

    // The new request's record is the one replayed from now on.
    const again = await p.post('/tokens', body).set('Idempotency-Key', 'day-key');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(fresh.body.id);
  });

  it('an expired key accepts a different body (it is not a conflict any more)', async () => {
    const p = await TestPlatform.create(t);
    await p.post('/tokens', { name: 'a', permissions: ['VIEW'] }).set('Idempotency-Key', 'k');
    clock.advance(IDEMPOTENCY_TTL_MS + 1);
    const res = await p.post('/tokens', { name: 'b', permissions: ['VIEW'] }).set('Idempotency-Key', 'k');
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('b');
  });

  it('the same on a one-statement route (POST /platform/external-accounts writes its record in its INSERT)', async () => {
    const p = await TestPlatform.create(t);
    const body = usdAccountBody();
    const post = (b: object) => p.post('/platform/external-accounts', b).set('Idempotency-Key', 'ea-day');
    const first = await post(body);
    expect(first.status).toBe(201);
    clock.advance(IDEMPOTENCY_TTL_MS);
    const replay = await post(body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);

    clock.advance(1);
    const other = usdAccountBody({ accountNumber: '98765432109' });
    const fresh = await post(other); // another body: no conflict once expired
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.body.id).not.toBe(first.body.id);
    const again = await post(other);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(fresh.body.id);
  });
});
