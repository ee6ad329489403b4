import { DataSource } from 'typeorm';
import { individual } from '../support/customers.js';
import { MessageHook } from '../support/message-hook.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * Contact verification (docs/customers.md#contact-verification): `contactVerification` on
 * customers whose region requires it (the EEA and GB by default), verify-email / verify-phone (204)
 * then their /confirm (200, the customer), 409 where the region requires none or the channel is
 * already VERIFIED, the sandbox's 123456, wrong codes, re-sends and expiry on the platform's
 * clock, and outside the sandbox a random code through MESSAGE_HOOK_URL, stored as a digest.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const eu = (overrides: Record<string, unknown> = {}) =>
  individual({ region: 'FR', email: 'marie@example.fr', phoneNumber: '+33612345678', ...overrides });
const create = async (p: TestPlatform, body: object) => {
  const res = await p.post('/customers', body);
  expect(res.status).toBe(201);
  return res.body as { id: string; contactVerification?: unknown };
};
const advance = async (p: TestPlatform, seconds: number) =>
  expect((await p.post('/sandbox/clock/advance', { seconds })).status).toBe(200);

describe('which customers', () => {
  it('a US customer shows no contactVerification and every route answers 409', async () => {
    const p = await TestPlatform.create(t);
    const us = await create(p, individual());
    expect(us.contactVerification).toBeUndefined();
    for (const route of ['verify-email', 'verify-phone'])
      expectError(await p.post(`/customers/${us.id}/${route}`), 409, 'CONFLICT');
    for (const route of ['verify-email/confirm', 'verify-phone/confirm'])
      expectError(await p.post(`/customers/${us.id}/${route}`, { code: '123456' }), 409, 'CONFLICT');
  });

  it("an EU customer starts PENDING on both channels; unknown, another platform's or deleted customers: 404 / 410", async () => {
    const p = await TestPlatform.create(t);
    const c = await create(p, eu());
    expect(c.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    expect((await p.get(`/customers/${c.id}`)).body.contactVerification).toEqual({
      email: 'PENDING',
      phone: 'PENDING',
    });
    const other = await TestPlatform.create(t);
    expectError(await other.post(`/customers/${c.id}/verify-email`), 404, 'CUSTOMER_NOT_FOUND');
    expect((await p.delete(`/customers/${c.id}`)).status).toBe(200);
    expectError(await p.post(`/customers/${c.id}/verify-email`), 410, 'CUSTOMER_DELETED');
  });
});

describe('sandbox', () => {
  it('204 then confirm with 123456: the channel VERIFIED; a wrong code is 400 on `code`; verified twice is 409', async () => {
    const p = await TestPlatform.create(t);
    const c = await create(p, eu());
    expectError(await p.post(`/customers/${c.id}/verify-email/confirm`, { code: '123456' }), 400, 'INVALID_INPUT');
    const sent = await p.post(`/customers/${c.id}/verify-email`);
    expect(sent.status).toBe(204);
    expect(sent.text).toBe('');
    const wrong = expectError(
      await p.post(`/customers/${c.id}/verify-email/confirm`, { code: '000000' }),
      400,
      'INVALID_INPUT',
    );
    expect(wrong.details).toEqual({ errors: [expect.objectContaining({ field: 'code' })] });
    expectError(await p.post(`/customers/${c.id}/verify-email/confirm`, {}), 400, 'INVALID_INPUT');
    const ok = await p.post(`/customers/${c.id}/verify-email/confirm`, { code: '123456' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: c.id, contactVerification: { email: 'VERIFIED', phone: 'PENDING' } });
    expectError(await p.post(`/customers/${c.id}/verify-email`), 409, 'CONFLICT');
    expectError(await p.post(`/customers/${c.id}/verify-email/confirm`, { code: '123456' }), 409, 'CONFLICT');

    expect((await p.post(`/customers/${c.id}/verify-phone`)).status).toBe(204);
    const phone = await p.post(`/customers/${c.id}/verify-phone/confirm`, { code: '123456' });
    expect(phone.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });
    expect((await p.get(`/customers/${c.id}`)).body.contactVerification).toEqual({
      email: 'VERIFIED',
      phone: 'VERIFIED',
    });

    // A new email address is unverified again; the phone stays VERIFIED.
    const changed = await p.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', email: 'marie@new.example.fr' });
    expect(changed.body.contactVerification).toEqual({ email: 'PENDING', phone: 'VERIFIED' });
  });

  it('the hosted KYC link waits for every required channel (409 CONFLICT), then is issued', async () => {
    const p = await TestPlatform.create(t);
    const c = await create(p, eu());
    const early = expectError(await p.post(`/customers/${c.id}/kyc-link`, {}), 409, 'CONFLICT');
    expect(early.details).toEqual({ contactVerification: { email: 'PENDING', phone: 'PENDING' } });
    for (const channel of ['email', 'phone']) {
      expect((await p.post(`/customers/${c.id}/verify-${channel}`)).status).toBe(204);
      expect((await p.post(`/customers/${c.id}/verify-${channel}/confirm`, { code: '123456' })).status).toBe(200);
    }
    expect((await p.post(`/customers/${c.id}/kyc-link`, {})).status).toBe(201);
    // A customer whose region requires nothing gets its link at once.
    const us = await create(p, individual());
    expect((await p.post(`/customers/${us.id}/kyc-link`, {})).status).toBe(201);
  });

  it('a customer without an email address: 400 MISSING_MANDATORY_USER_INFO', async () => {
    const p = await TestPlatform.create(t);
    const c = await create(p, eu({ email: undefined }));
    const res = expectError(await p.post(`/customers/${c.id}/verify-email`), 400, 'MISSING_MANDATORY_USER_INFO');
    expect(res.details).toEqual({ missingFields: [{ field: 'EMAIL' }] });
  });

  it('re-sends: one per 30 seconds and five per hour of the platform clock (429 RATE_LIMITED with Retry-After)', async () => {
    const p = await TestPlatform.create(t);
    const c = await create(p, eu());
    expect((await p.post(`/customers/${c.id}/verify-phone`)).status).toBe(204);
    const soon = await p.post(`/customers/${c.id}/verify-phone`);
    expectError(soon, 429, 'RATE_LIMITED');
    expect(Number(soon.headers['retry-after'])).toBe(30);
    for (let i = 2; i <= 5; i++) {
      await advance(p, 30);
      expect((await p.post(`/customers/${c.id}/verify-phone`)).status).toBe(204);
    }
    await advance(p, 30);
    const sixth = expectError(await p.post(`/customers/${c.id}/verify-phone`), 429, 'RATE_LIMITED');
    expect(sixth.reason).toContain('per hour');
    await advance(p, 60 * 60);
    expect((await p.post(`/customers/${c.id}/verify-phone`)).status).toBe(204);
    // Another channel has its own limits.
    expect((await p.post(`/customers/${c.id}/verify-email`)).status).toBe(204);
  });

  it('five wrong codes lock the code (even the right one is refused) until a new one is sent', async () => {
    const p = await TestPlatform.create(t);
    const c = await create(p, eu());
    expect((await p.post(`/customers/${c.id}/verify-phone`)).status).toBe(204);
    for (let i = 0; i < 5; i++)
      expectError(await p.post(`/customers/${c.id}/verify-phone/confirm`, { code: `99999${i}` }), 400, 'INVALID_INPUT');
    const locked = expectError(
      await p.post(`/customers/${c.id}/verify-phone/confirm`, { code: '123456' }),
      400,
      'INVALID_INPUT',
    );
    expect(locked.reason).toContain('Too many wrong codes');
    await advance(p, 30);
    expect((await p.post(`/customers/${c.id}/verify-phone`)).status).toBe(204);
    expect(
      (await p.post(`/customers/${c.id}/verify-phone/confirm`, { code: '123456' })).body.contactVerification,
    ).toEqual({
      email: 'PENDING',
      phone: 'VERIFIED',
    });
  });

  it('a code expires after 10 minutes of the platform clock', async () => {
    const p = await TestPlatform.create(t);
    const c = await create(p, eu());
    expect((await p.post(`/customers/${c.id}/verify-email`)).status).toBe(204);
    await advance(p, 601);
    const expired = expectError(
      await p.post(`/customers/${c.id}/verify-email/confirm`, { code: '123456' }),
      400,
      'INVALID_INPUT',
    );
    expect(expired.reason).toContain('expired');
  });

  it('concurrent confirmations of one code: exactly one verifies, the rest are 409', async () => {
    const p = await TestPlatform.create(t);
    const c = await create(p, eu());
    expect((await p.post(`/customers/${c.id}/verify-email`)).status).toBe(204);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => p.post(`/customers/${c.id}/verify-email/confirm`, { code: '123456' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
  });
});

describe('outside the sandbox', () => {
  it('a random code goes out by email and SMS through MESSAGE_HOOK_URL, stored only as a digest; a refused hand-off is 503 with nothing kept', async () => {
    const hook = await MessageHook.start();
    const live = await startTestApp({ SANDBOX: 'false', MESSAGE_HOOK_URL: hook.url });
    try {
      const p = (await TestPlatform.create(t)).on(live);
      const c = await create(p, eu());
      const uuid = c.id.split(':')[1];
      expect((await p.post(`/customers/${c.id}/verify-email`)).status).toBe(204);
      const mail = await hook.next({ channel: 'EMAIL', to: 'marie@example.fr' });
      expect(mail).toEqual({
        channel: 'EMAIL',
        to: 'marie@example.fr',
        purpose: 'EMAIL_VERIFICATION',
        code: expect.stringMatching(/^\d{6}$/),
      });
      const [stored] = await live.app
        .get(DataSource)
        .query(`SELECT code_digest FROM contact_verification_codes WHERE customer_id = $1`, [uuid]);
      expect(stored.code_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(stored.code_digest).not.toContain(mail.code);
      if (mail.code !== '123456')
        expectError(await p.post(`/customers/${c.id}/verify-email/confirm`, { code: '123456' }), 400, 'INVALID_INPUT');
      const verified = await p.post(`/customers/${c.id}/verify-email/confirm`, { code: mail.code });
      expect(verified.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });

      hook.refuse(1);
      expectError(await p.post(`/customers/${c.id}/verify-phone`), 503, 'SERVICE_UNAVAILABLE');
      const none = await live.app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM contact_verification_codes WHERE customer_id = $1`, [uuid]);
      expect(none[0].n).toBe(0);
      // Nothing was kept, so no re-send wait either.
      expect((await p.post(`/customers/${c.id}/verify-phone`)).status).toBe(204);
      const sms = await hook.next({ channel: 'SMS', to: '+33612345678' });
      expect(sms.purpose).toBe('PHONE_VERIFICATION');
      const phone = await p.post(`/customers/${c.id}/verify-phone/confirm`, { code: sms.code });
      expect(phone.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });
    } finally {
      await live.close();
      await hook.stop();
    }
  });
});
