import { DataSource } from 'typeorm';
import { individual } from '../support/customers.js';
import { TwilioStandIn } from '../support/twilio-stand-in.js';
import { expectError, startLoggedTestApp, startTestApp, TestPlatform } from '../support/test-app.js';

/**
 * SMS_TRANSPORT=twilio (docs/production.md#email-and-sms): one-time codes leave as SMS through
 * Twilio's official SDK, pointed (TWILIO_API_BASE_URL) at a local stand-in speaking Twilio's
 * Messages API (test/support/twilio-stand-in.ts). The code read from the received message works
 * end to end (phone verification, an SCA login); Twilio refusing (4xx) or failing (5xx) is a 503 with
 * nothing kept; the auth token and the codes never reach a log line.
 */
const PHONE = '+33612345678';
const FR_ADDRESS = { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' };
const eu = () =>
  individual({ region: 'FR', address: FR_ADDRESS, nationality: 'FR', email: 'marie@example.fr', phoneNumber: PHONE });
const q = (customerId: string) => `?customerId=${encodeURIComponent(customerId)}`;
const uuid = (id: string) => id.split(':')[1];
const codeIn = (body: string) => /\bis (\d{6})\b/.exec(body)?.[1];

describe('SMS_TRANSPORT=twilio', () => {
  it('phone verification and an SCA login code arrive through Twilio and work; a refusal or outage is 503 with nothing kept', async () => {
    const twilio = await TwilioStandIn.start();
    const live = await startLoggedTestApp({
      SANDBOX: 'false',
      SMS_TRANSPORT: 'twilio',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: '+15005550006',
      TWILIO_API_BASE_URL: twilio.url,
    });
    try {
      const p = await TestPlatform.create(live);
      const db = live.app.get(DataSource);
      const c = (await p.post('/customers', eu()).expect(201)).body as { id: string };

      expect((await p.post(`/customers/${c.id}/verify-phone`)).status).toBe(204);
      const sms = await twilio.next({ to: PHONE });
      expect(sms).toMatchObject({ accountSid: twilio.accountSid, from: '+15005550006', messagingServiceSid: null });
      expect(sms.body).toMatch(/^Your code to verify your phone number is \d{6}\./);
      expect(twilio.requests).toEqual([`POST /2010-04-01/Accounts/${twilio.accountSid}/Messages.json`]);
      const phone = await p.post(`/customers/${c.id}/verify-phone/confirm`, { code: codeIn(sms.body)! });
      expect(phone.status).toBe(200);
      expect(phone.body.contactVerification).toEqual({ email: 'PENDING', phone: 'VERIFIED' });

      // SCA login by SMS_OTP: the code from Twilio completes it.
      const start = await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' });
      expect(start.status).toBe(200);
      const login = await twilio.next({ to: PHONE });
      expect(login.body).toMatch(/^Your code to sign in is \d{6}\./);
      const complete = await p.post(`/sca/login/complete${q(c.id)}`, {
        factor: 'SMS_OTP',
        challengeId: start.body.challengeId,
        code: codeIn(login.body),
        endUserIpAddress: '203.0.113.42',
      });
      expect(complete.status).toBe(200);

      // Twilio refuses (400 21211), then fails (503): 503 each time, no challenge kept.
      const challenges = async () => {
        const rows: { n: number }[] = await db.query(
          `SELECT count(*)::int AS n FROM sca_challenges WHERE customer_id = $1`,
          [uuid(c.id)],
        );
        return rows[0].n;
      };
      const before = await challenges();
      twilio.refuse(1);
      expectError(await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' }), 503, 'SERVICE_UNAVAILABLE');
      twilio.fail(1);
      const outage = expectError(
        await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' }),
        503,
        'SERVICE_UNAVAILABLE',
      );
      expect(JSON.stringify(outage)).not.toContain('127.0.0.1');
      expect(await challenges()).toBe(before);
      expect(twilio.pending).toEqual([]);

      // SANDBOX=false without an email transport: EMAIL_TRANSPORT is `none`.
      expectError(await p.post(`/customers/${c.id}/verify-email`), 503, 'SERVICE_UNAVAILABLE');
      const codes = await db.query(`SELECT channel FROM contact_verification_codes WHERE customer_id = $1`, [
        uuid(c.id),
      ]);
      expect(codes).toEqual([]); // the phone's was spent when it verified; no email code was kept

      const logs = live.logs();
      expect(logs).toContain('21211');
      for (const secret of [twilio.authToken, codeIn(sms.body)!, codeIn(login.body)!])
        expect(logs).not.toContain(secret);
    } finally {
      await live.close();
      await twilio.stop();
    }
  });

  it('through a Messaging Service: MessagingServiceSid instead of From; wrong credentials are a 503', async () => {
    const twilio = await TwilioStandIn.start();
    const service = `MG${'ab'.repeat(16)}`;
    const env = {
      SANDBOX: 'false',
      SMS_TRANSPORT: 'twilio',
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_MESSAGING_SERVICE_SID: service,
      TWILIO_API_BASE_URL: twilio.url,
    };
    const live = await startTestApp({ ...env, TWILIO_AUTH_TOKEN: twilio.authToken });
    const wrong = await startTestApp({ ...env, TWILIO_AUTH_TOKEN: 'not-the-token' });
    try {
      const p = await TestPlatform.create(live);
      const c = (await p.post('/customers', eu()).expect(201)).body as { id: string };
      expectError(await p.on(wrong).post(`/customers/${c.id}/verify-phone`), 503, 'SERVICE_UNAVAILABLE');
      expect((await p.post(`/customers/${c.id}/verify-phone`)).status).toBe(204);
      const sms = await twilio.next({ to: PHONE });
      expect(sms).toMatchObject({ from: null, messagingServiceSid: service });
    } finally {
      await live.close();
      await wrong.close();
      await twilio.stop();
    }
  });

  it('SMS_TRANSPORT=none: 503 SERVICE_UNAVAILABLE with nothing kept; twilio without credentials refuses to start', async () => {
    const live = await startTestApp({ SANDBOX: 'false', SMS_TRANSPORT: 'none' });
    try {
      const p = await TestPlatform.create(live);
      const c = (await p.post('/customers', eu()).expect(201)).body as { id: string };
      expectError(await p.post(`/customers/${c.id}/verify-phone`), 503, 'SERVICE_UNAVAILABLE');
      expectError(await p.post(`/sca/login/start${q(c.id)}`, { factor: 'SMS_OTP' }), 503, 'SERVICE_UNAVAILABLE');
      const rows = await live.app.get(DataSource).query(
        `SELECT (SELECT count(*)::int FROM contact_verification_codes WHERE customer_id = $1) AS codes,
                  (SELECT count(*)::int FROM sca_challenges WHERE customer_id = $1) AS challenges`,
        [uuid(c.id)],
      );
      expect(rows[0]).toEqual({ codes: 0, challenges: 0 });
    } finally {
      await live.close();
    }
    await expect(startTestApp({ SANDBOX: 'false', SMS_TRANSPORT: 'twilio' })).rejects.toThrow(
      /TWILIO_ACCOUNT_SID: required[\s\S]*TWILIO_AUTH_TOKEN: required[\s\S]*TWILIO_FROM: required with SMS_TRANSPORT=twilio unless/,
    );
  });
});
