import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { AuditRetention } from '../../src/audit/audit-retention.js';
import { AuditSealer } from '../../src/audit/audit-sealer.js';
import { parseId } from '../../src/common/ids.js';
import { ProvisioningOnRealTime1767228000000 } from '../../src/database/migrations/1767228000000-ProvisioningOnRealTime.js';
import { IDEMPOTENCY_TTL_MS } from '../../src/idempotency/idempotency.service.js';
import { platformTimeSql } from '../../src/sandbox-clock/platform-time-sql.js';
import { issuedCard, runProvisioning } from '../support/cards.js';
import { individual } from '../support/customers.js';
import { kycApprovedCustomer, newCustomer } from '../support/fixtures.js';
import { FakeClock } from '../support/fake-clock.js';
import { isolatedDatabase } from '../support/isolated-database.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * Every schedule falls due on the clock it was set from (issue 27; src/common/schedules.ts,
 * docs/test-clocks.md). The base ("real") clock is injected and moves only when a test moves it;
 * the platforms' clocks move only through POST /sandbox/clock/advance. The business-time ones
 * also in sandbox-clock.e2e-spec.ts: quote expiry, device-code expiry, approvals of an expired quote.
 */
const clock = new FakeClock(new Date('2031-05-10T10:00:00.000Z'));
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

async function advance(p: TestPlatform, seconds: number): Promise<void> {
  const res = await p.post('/sandbox/clock/advance', { seconds });
  if (res.status !== 200) throw new Error(`advance: ${res.status} ${JSON.stringify(res.body)}`);
}

const statusOf = async (p: TestPlatform, cardId: string) =>
  ((await p.get(`/cards/${cardId}`)).body as { status: string }).status;

describe('card provisioning (real time)', () => {
  it('a card issued on an advanced clock is ACTIVE a second of real time later, as on any platform', async () => {
    const advanced = await TestPlatform.create(t);
    const plain = await TestPlatform.create(t);
    await advance(advanced, 3600);
    const a = (await issuedCard(advanced)).card;
    const b = (await issuedCard(plain)).card;
    expect([a.status, b.status]).toEqual(['PROCESSING', 'PROCESSING']);
    expect(await runProvisioning(t, advanced)).toBe(0);
    clock.advance(999);
    expect([await runProvisioning(t, advanced), await runProvisioning(t, plain)]).toEqual([0, 0]);
    clock.advance(1);
    expect([await runProvisioning(t, advanced), await runProvisioning(t, plain)]).toEqual([1, 1]);
    expect([await statusOf(advanced, a.id), await statusOf(plain, b.id)]).toEqual(['ACTIVE', 'ACTIVE']);
    // The card's own times are the platform's: an hour ahead of real time.
    const card = (await advanced.get(`/cards/${a.id}`)).body as { createdAt: string };
    expect(new Date(card.createdAt).getTime() - clock.now().getTime()).toBeGreaterThanOrEqual(HOUR_MS - 1000);
  });

  it('a card issued before an advance and still PROCESSING completes on schedule too', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await issuedCard(p);
    await advance(p, 3600);
    expect(await runProvisioning(t, p)).toBe(0);
    clock.advance(1000);
    expect(await runProvisioning(t, p)).toBe(1);
    expect(await statusOf(p, card.id)).toBe('ACTIVE');
  });

  it('a card scheduled on the platform clock before this fix is made due by the migration', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await issuedCard(p);
    await advance(p, 86_400);
    const db = t.app.get(DataSource);
    // What the old code wrote: the platform's time plus a second, a day ahead of real time.
    const cardUuid = parseId('Card', card.id)!;
    await db.query(`UPDATE cards SET provisioning_due_at = $2 WHERE id = $1`, [
      cardUuid,
      new Date(clock.now().getTime() + DAY_MS + 1000),
    ]);
    clock.advance(1000);
    expect(await runProvisioning(t, p)).toBe(0);
    const runner = db.createQueryRunner();
    try {
      await new ProvisioningOnRealTime1767228000000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await runProvisioning(t, p)).toBe(1);
    expect(await statusOf(p, card.id)).toBe('ACTIVE');
  });
});

describe('a worker claiming business-time rows (platformTimeSql)', () => {
  it("reads each row's platform time from real time: the offset of its own clock, none without one or with SANDBOX=false", async () => {
    const advanced = await TestPlatform.create(t);
    const plain = await TestPlatform.create(t);
    await advance(advanced, 3600);
    const db = t.app.get(DataSource);
    const timeOf = async (sandbox: boolean, platformId: string) => {
      const [row] = await db.query<Array<{ at: Date }>>(
        `SELECT ${platformTimeSql(sandbox, 'p.id', '$1')} AS at FROM platforms p WHERE p.id = $2`,
        [clock.now(), parseId('Platform', platformId)],
      );
      return new Date(row.at).getTime() - clock.now().getTime();
    };
    expect(await timeOf(true, advanced.platformId)).toBe(HOUR_MS);
    expect(await timeOf(true, plain.platformId)).toBe(0);
    expect(await timeOf(false, advanced.platformId)).toBe(0);
  });
});

describe('idempotency keys (business time)', () => {
  it("a key expires 24 hours after first use on the platform's clock", async () => {
    const p = await TestPlatform.create(t);
    await advance(p, 7 * 86_400);
    const body = { name: 'clocked', permissions: ['VIEW'] };
    const first = await p.post('/tokens', body).set('Idempotency-Key', 'clock-key');
    expect(first.status).toBe(201);
    await advance(p, IDEMPOTENCY_TTL_MS / 1000 - 1);
    const replay = await p.post('/tokens', body).set('Idempotency-Key', 'clock-key');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    await advance(p, 2);
    const fresh = await p.post('/tokens', body).set('Idempotency-Key', 'clock-key');
    expect(fresh.status).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.body.id).not.toBe(first.body.id);
  });
});

describe('console sessions (real time)', () => {
  const SESSION = '/console/api/session';
  it("advancing the platform's clock past the idle and maximum windows does not end a session; real time does", async () => {
    const p = await TestPlatform.create(t);
    const res = await t.http.post(SESSION).send({ clientId: p.clientId, clientSecret: p.clientSecret });
    expect(res.status).toBe(200);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0].split(';')[0];
    await advance(p, 2 * 86_400);
    expect((await t.http.get(SESSION).set('Cookie', cookie)).status).toBe(200);
    expect((await t.http.get(`${V}/tokens`).set('Cookie', cookie)).status).toBe(200);
    clock.advance(DAY_MS); // past the 30-minute idle window and the 12-hour lifetime
    expect((await t.http.get(SESSION).set('Cookie', cookie)).status).toBe(401);
  });
});

describe('audit trail and its retention (real time)', () => {
  it("records are stamped with real time and retained AUDIT_RETENTION_DAYS of it, whatever the platform's clock", async () => {
    const own = await isolatedDatabase();
    const base = new FakeClock(new Date('2031-05-10T10:00:00.000Z'));
    const app = await startTestApp({ AUDIT_RETENTION_DAYS: '30' }, { databaseUrl: own.url, clock: base });
    try {
      const p = await TestPlatform.create(app);
      const ahead = await p.post('/sandbox/clock/advance', { seconds: 400 * 86_400 });
      expect(ahead.status).toBe(200);
      await p.post('/tokens', { name: 'audited', permissions: ['VIEW'] }).expect(201);
      const events = (await p.get('/audit-events?limit=100').expect(200)).body as {
        data: Array<{ action: string; createdAt: string }>;
      };
      expect(events.data.map((e) => e.createdAt)).toContain(base.now().toISOString());
      expect(events.data.every((e) => e.createdAt === base.now().toISOString())).toBe(true);
      await app.app.get(AuditSealer).settle(); // retention deletes sealed records only
      base.advance(29 * DAY_MS);
      expect(await app.app.get(AuditRetention).runOnce()).toBe(0);
      base.advance(DAY_MS + 1);
      expect(await app.app.get(AuditRetention).runOnce()).toBeGreaterThanOrEqual(events.data.length);
      expect(((await p.get('/audit-events?limit=100').expect(200)).body as { data: unknown[] }).data).toEqual([]);
    } finally {
      await app.close();
      await own.close();
    }
  });
});

/**
 * The business-time expiries of the other areas (SCA challenges and sessions, card-reveal URLs: in
 * sca.e2e-spec.ts; the slow rail: payments.e2e-spec.ts). Each falls due when the platform's clock
 * passes it, with no real time passing; a public page, or another platform's request, meets it on
 * the clock of the platform that set it.
 */
describe('business-time expiries of the other areas', () => {
  const platformTime = async (p: TestPlatform) =>
    new Date(((await p.get('/sandbox/clock')).body as { time: string }).time);

  it('a hosted KYC link expires when its platform clock passes its hour, though its page is public', async () => {
    const p = await TestPlatform.create(t);
    const link = async () => {
      const c = await newCustomer(p);
      const res = await p.post(`/customers/${c.id}/kyc-link`, {});
      expect(res.status).toBe(201);
      return new URL((res.body as { kycUrl: string }).kycUrl).pathname;
    };
    const early = await link();
    expect((await t.http.get(early)).status).toBe(200);
    await advance(p, 3601);
    expectError(await t.http.get(early), 404, 'NOT_FOUND');
    expectError(await t.http.post(`${early}/approve`), 404, 'NOT_FOUND');
    // made on the advanced clock: open for its hour of the platform's time, not of real time
    const late = await link();
    expect((await t.http.get(late)).status).toBe(200);
    clock.advance(HOUR_MS);
    expectError(await t.http.get(late), 404, 'NOT_FOUND');
  });

  it("a UMA invitation expires on its inviting platform's clock, whichever platform claims it", async () => {
    const p = await TestPlatform.create(t);
    const claimer = await TestPlatform.create(t);
    const port = (t.app.getHttpServer() as { address(): AddressInfo }).address().port;
    const inviter = await newCustomer(
      p,
      individual({ umaAddress: `$clock${randomBytes(4).toString('hex')}@localhost:${port}` }),
    );
    const invite = async () => {
      const expiresAt = new Date((await platformTime(p)).getTime() + HOUR_MS).toISOString();
      const res = await p.post('/invitations', { inviterUma: inviter.umaAddress, expiresAt });
      expect(res.status).toBe(201);
      return (res.body as { code: string }).code;
    };
    const code = await invite();
    const fresh = await invite();
    await advance(p, 3601);
    expect((await p.get(`/invitations/${code}`)).body).toMatchObject({ status: 'EXPIRED' });
    expectError(
      await claimer.post(`/invitations/${code}/claim`, { inviteeUma: '$friend@example.com' }),
      400,
      'INVITATION_CANCELLED',
    );
    // one made on the advanced clock is open to a platform whose clock never moved
    const later = await invite();
    expect(fresh).not.toBe(later);
    const claimed = await claimer.post(`/invitations/${later}/claim`, { inviteeUma: '$friend@example.com' });
    expect(claimed.status).toBe(200);
  });

  it('an SCA login lockout ends when the platform clock passes it', async () => {
    const p = await TestPlatform.create(t);
    const c = await kycApprovedCustomer(
      p,
      individual({
        address: { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' },
        nationality: 'FR',
        phoneNumber: '+33612345678',
      }),
    );
    const q = `?customerId=${encodeURIComponent(c.id)}`;
    for (let i = 0; i < 5; i++) await p.post(`/sca/record-event${q}`, { eventType: 'FAILED_LOGIN_ATTEMPT' });
    const login = async () => {
      const start = await p.post(`/sca/login/start${q}`, { factor: 'SMS_OTP' });
      return p.post(`/sca/login/complete${q}`, {
        factor: 'SMS_OTP',
        challengeId: start.body.challengeId,
        code: '123456',
        endUserIpAddress: '203.0.113.42',
      });
    };
    expectError(await login(), 423, 'ACCOUNT_LOCKED');
    await advance(p, 15 * 60 - 10);
    expectError(await login(), 423, 'ACCOUNT_LOCKED');
    await advance(p, 11);
    expect((await login()).status).toBe(200);
  });

  it('an SCA factor reset expires when the platform clock passes its 30 minutes', async () => {
    const p = await TestPlatform.create(t);
    const c = await kycApprovedCustomer(
      p,
      individual({
        address: { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' },
        nationality: 'FR',
        phoneNumber: '+33612345678',
      }),
    );
    const q = `?customerId=${encodeURIComponent(c.id)}`;
    const start = await p.post(`/sca/factors/reset${q}`, { factor: 'SMS_OTP' });
    expect(start.status).toBe(201);
    const id = start.body.resetId as string;
    expect((await p.get(`/sca/factors/reset/${id}${q}`)).body.status).toBe('LIVENESS_PASSED');
    await advance(p, 30 * 60 + 1);
    expect((await p.get(`/sca/factors/reset/${id}${q}`)).body.status).toBe('EXPIRED');
    expectError(await p.post(`/sca/factors/reset/${id}/complete${q}`), 400, 'INVALID_INPUT');
  });
});
