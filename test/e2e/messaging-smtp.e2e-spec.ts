import { DataSource } from 'typeorm';
import { individual } from '../support/customers.js';
import { SmtpInbox } from '../support/smtp-inbox.js';
import { expectError, startLoggedTestApp, startTestApp, TestPlatform } from '../support/test-app.js';

/**
 * EMAIL_TRANSPORT=smtp (docs/production.md#email-and-sms): one-time codes leave as email through the
 * operator's relay (nodemailer), here a real SMTP server started by the test (smtp-server) with
 * AUTH required. The code read from the received mail verifies the customer end to end; a relay
 * refusing the message is a 503 with nothing kept; `none` answers 503 SERVICE_UNAVAILABLE with nothing
 * kept; neither the relay's password nor a code reaches a log line.
 */
const eu = (email: string) => individual({ region: 'FR', email, phoneNumber: '+33612345678' });
const codesOf = async (app: { app: { get(t: typeof DataSource): DataSource } }, customerId: string) => {
  const rows: { channel: string }[] = await app.app
    .get(DataSource)
    .query(`SELECT channel FROM contact_verification_codes WHERE customer_id = $1 ORDER BY channel`, [
      customerId.split(':')[1],
    ]);
  return rows.map((r) => r.channel);
};

describe('EMAIL_TRANSPORT=smtp', () => {
  it('a contact-verification code arrives at the relay and verifies; a refusal is 503 with nothing kept; SMS unset is 503 SERVICE_UNAVAILABLE', async () => {
    const inbox = await SmtpInbox.start();
    const live = await startLoggedTestApp({
      SANDBOX: 'false',
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: inbox.url,
      EMAIL_FROM: 'Payments <no-reply@payments.test>',
    });
    try {
      const p = await TestPlatform.create(live);
      const c = (await p.post('/customers', eu('marie@example.fr')).expect(201)).body as { id: string };
      expect((await p.post(`/customers/${c.id}/verify-email`)).status).toBe(204);
      const mail = await inbox.next({ to: 'marie@example.fr' });
      expect(mail).toMatchObject({ from: 'no-reply@payments.test', to: ['marie@example.fr'] });
      expect(mail.headers.from).toBe('Payments <no-reply@payments.test>');
      expect(mail.subject).toBe('Your code to verify your email address');
      const code = /\bis (\d{6})\b/.exec(mail.text)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(inbox.logins).toEqual([{ username: 'relay-user', accepted: true }]);
      const verified = await p.post(`/customers/${c.id}/verify-email/confirm`, { code: code! });
      expect(verified.status).toBe(200);
      expect(verified.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });

      // The relay refuses the recipient: 503, no code kept, so no re-send wait either.
      const other = (await p.post('/customers', eu('jean@example.fr')).expect(201)).body as { id: string };
      inbox.refuse(1);
      expectError(await p.post(`/customers/${other.id}/verify-email`), 503, 'SERVICE_UNAVAILABLE');
      expect(await codesOf(live, other.id)).toEqual([]);
      expect((await p.post(`/customers/${other.id}/verify-email`)).status).toBe(204);
      const retried = await inbox.next({ to: 'jean@example.fr' });
      expect(await codesOf(live, other.id)).toEqual(['EMAIL']);

      // SANDBOX=false without an SMS transport: SMS_TRANSPORT is `none`.
      expectError(await p.post(`/customers/${other.id}/verify-phone`), 503, 'SERVICE_UNAVAILABLE');
      expect(await codesOf(live, other.id)).toEqual(['EMAIL']);

      const logs = live.logs();
      expect(logs).toContain('m***@example.fr');
      for (const secret of [
        'relay p@ss/word',
        encodeURIComponent('relay p@ss/word'),
        code!,
        /is (\d{6})/.exec(retried.text)![1],
      ])
        expect(logs).not.toContain(secret);
    } finally {
      await live.close();
      await inbox.stop();
    }
  });

  it('a relay rejecting the credentials is a 503 with nothing kept', async () => {
    const inbox = await SmtpInbox.start();
    const wrong = inbox.url.replace(encodeURIComponent('relay p@ss/word'), 'not-the-password');
    const live = await startTestApp({
      SANDBOX: 'false',
      EMAIL_TRANSPORT: 'smtp',
      SMTP_URL: wrong,
      EMAIL_FROM: 'no-reply@payments.test',
    });
    try {
      const p = await TestPlatform.create(live);
      const c = (await p.post('/customers', eu('anna@example.fr')).expect(201)).body as { id: string };
      expectError(await p.post(`/customers/${c.id}/verify-email`), 503, 'SERVICE_UNAVAILABLE');
      expect(inbox.logins).toEqual([{ username: 'relay-user', accepted: false }]);
      expect(inbox.pending).toEqual([]);
      expect(await codesOf(live, c.id)).toEqual([]);
    } finally {
      await live.close();
      await inbox.stop();
    }
  });

  it('EMAIL_TRANSPORT=none: 503 SERVICE_UNAVAILABLE, nothing kept', async () => {
    const live = await startTestApp({ SANDBOX: 'false', EMAIL_TRANSPORT: 'none' });
    try {
      const p = await TestPlatform.create(live);
      const c = (await p.post('/customers', eu('lea@example.fr')).expect(201)).body as { id: string };
      expectError(await p.post(`/customers/${c.id}/verify-email`), 503, 'SERVICE_UNAVAILABLE');
      expect(await codesOf(live, c.id)).toEqual([]);
    } finally {
      await live.close();
    }
  });

  it('EMAIL_TRANSPORT=smtp without SMTP_URL and EMAIL_FROM refuses to start, naming them', async () => {
    await expect(startTestApp({ SANDBOX: 'false', EMAIL_TRANSPORT: 'smtp' })).rejects.toThrow(
      /SMTP_URL: required with EMAIL_TRANSPORT=smtp[\s\S]*EMAIL_FROM: required with EMAIL_TRANSPORT=smtp/,
    );
  });
});
