import pg from 'pg';
import { generateWebhookKeyPair } from '../../src/outbox/signing/grid-signature.js';
import { newWebhookSecret } from '../../src/outbox/signing/standard-webhooks.js';
import { deriveKeyId } from '../../src/secrets/envelope.js';
import { individual } from '../support/customers.js';
import { sealAsV1 } from '../support/legacy-seal.js';
import { verifyWebhook } from '../support/signatures.js';
import { startTestApp, TEST_WEBHOOK_KEY, TestApp, TestPlatform } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 10 item 1: no secret rests in plain text, not even in a stored idempotent replay.
 * Issue 21: every sealed value names the key that sealed it (`v2.<kid>.`), and values sealed
 * before key ids (`v1.`) keep opening.
 */
const KEY = Buffer.from(TEST_WEBHOOK_KEY, 'base64');
const SEALED_NOW = new RegExp(`^v2\\.${deriveKeyId(KEY)}\\.`);
let t: TestApp;
let db: pg.Client;
beforeAll(async () => {
  t = await startTestApp();
  db = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await t.close();
});

it('POST /tokens with an Idempotency-Key stores its replay encrypted, and the replay still returns the secret', async () => {
  const p = await TestPlatform.create(t);
  const body = { name: 'kept', permissions: ['VIEW'] };
  const first = await p.post('/tokens', body).set('Idempotency-Key', 'secret-at-rest');
  expect(first.status).toBe(201);
  const secret = (first.body as { clientSecret: string }).clientSecret;
  expect(secret).toEqual(expect.any(String));

  const { rows } = await db.query<{ response_body: unknown; text: string }>(
    'SELECT response_body, response_body::text AS text FROM idempotency_keys WHERE platform_id = $1 AND key = $2',
    [p.platformId.replace(/^Platform:/, ''), 'secret-at-rest'],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0].text).not.toContain(secret);
  expect(rows[0].text).not.toContain(Buffer.from(secret).toString('base64'));
  expect(rows[0].text).not.toContain((first.body as { clientId: string }).clientId);
  expect((rows[0].response_body as { sealed: string }).sealed).toMatch(SEALED_NOW);

  const again = await p.post('/tokens', body).set('Idempotency-Key', 'secret-at-rest');
  expect(again.status).toBe(201);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toEqual(first.body);
});

it("a customer's SSN / ITIN is stored sealed, and a plain one left by an earlier version is sealed at startup", async () => {
  const p = await TestPlatform.create(t);
  const ssn = '123-45-6789';
  const body = individual({ idType: 'SSN', identifier: ssn, countryOfIssuance: 'US' });
  const created = await p.post('/customers', body);
  expect(created.status).toBe(201);
  const id = (created.body as { id: string }).id.replace(/^Customer:/, '');
  const stored = async () =>
    (await db.query<{ identifier: string }>('SELECT identifier FROM customers WHERE id = $1', [id])).rows[0].identifier;
  expect(await stored()).not.toContain('6789');
  expect(await stored()).toMatch(SEALED_NOW);
  // The sealed number still takes part in the rules across fields: ITIN needs a number starting with 9.
  const path = `/customers/${(created.body as { id: string }).id}`;
  const refused = await p.patch(path, { customerType: 'INDIVIDUAL', idType: 'ITIN' });
  expect(refused.status).toBe(400);
  expect(JSON.stringify(refused.body)).toContain('identifier');
  expect(JSON.stringify(refused.body)).not.toContain('6789');

  // A row written in plain text (as an earlier version did) is sealed when an application starts.
  await db.query('UPDATE customers SET identifier = $2 WHERE id = $1', [id, ssn]);
  const next = await startTestApp();
  try {
    expect(await stored()).toMatch(SEALED_NOW);
    expect((await p.patch(path, { customerType: 'INDIVIDUAL', idType: 'ITIN' })).status).toBe(400);
    expect((await p.patch(path, { customerType: 'INDIVIDUAL', idType: 'SSN' })).status).toBe(200);
  } finally {
    await next.close();
  }
});

describe('values sealed before key ids (v1, no key id) keep opening', () => {
  it("a customer's identifier: still checked by the rules across fields, and left as it is", async () => {
    const p = await TestPlatform.create(t);
    const created = await p.post('/customers', individual({ idType: 'SSN', identifier: '123-45-6789' }));
    expect(created.status).toBe(201);
    const path = `/customers/${(created.body as { id: string }).id}`;
    const id = (created.body as { id: string }).id.replace(/^Customer:/, '');
    const planted = sealAsV1('123-45-6789', KEY);
    await db.query('UPDATE customers SET identifier = $2 WHERE id = $1', [id, planted]);

    const refused = await p.patch(path, { customerType: 'INDIVIDUAL', idType: 'ITIN' });
    expect(refused.status).toBe(400); // opened: an ITIN starts with 9, this number does not
    expect(JSON.stringify(refused.body)).toContain('identifier');
    expect((await p.patch(path, { customerType: 'INDIVIDUAL', idType: 'SSN' })).status).toBe(200);
    const { rows } = await db.query<{ identifier: string }>('SELECT identifier FROM customers WHERE id = $1', [id]);
    expect(rows[0].identifier).toBe(planted);
  });

  it('a stored idempotent replay', async () => {
    const p = await TestPlatform.create(t);
    const body = { name: 'old replay', permissions: ['VIEW'] };
    const first = await p.post('/tokens', body).set('Idempotency-Key', 'sealed-v1');
    expect(first.status).toBe(201);
    const earlier = { ...(first.body as object), name: 'stored by an earlier version' };
    await db.query('UPDATE idempotency_keys SET response_body = $3::jsonb WHERE platform_id = $1 AND key = $2', [
      p.platformId.replace(/^Platform:/, ''),
      'sealed-v1',
      JSON.stringify({ sealed: sealAsV1(JSON.stringify(earlier), KEY) }),
    ]);

    const again = await p.post('/tokens', body).set('Idempotency-Key', 'sealed-v1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(earlier);
  });

  it('a webhook private key and whsec_ secret: shown, and signing deliveries both ways', async () => {
    const r = await WebhookReceiver.start();
    try {
      const p = await TestPlatform.create(t);
      expect((await p.patch('/config', { webhookEndpoint: r.url })).status).toBe(200);
      const { publicKeyPem, privateKeyPem } = generateWebhookKeyPair();
      const secret = newWebhookSecret();
      await db.query(
        'UPDATE webhook_signing_keys SET public_key = $2, private_key_enc = $3, secret_enc = $4 WHERE platform_id = $1',
        [p.platformId.replace(/^Platform:/, ''), publicKeyPem, sealAsV1(privateKeyPem, KEY), sealAsV1(secret, KEY)],
      );

      const config = (await p.get('/config')).body as { webhookPublicKey: string; webhookSecret: string };
      expect(config).toMatchObject({ webhookPublicKey: publicKeyPem, webhookSecret: secret });
      r.respondWith({ status: 200, body: '{}' });
      expect((await p.post('/sandbox/webhooks/test')).status).toBe(200);
      expect(verifyWebhook(await r.nth(1), config)).toEqual({ gridSignature: true, standardWebhooks: true });

      // A rotation seals the new secret under today's envelope; the old one keeps signing beside it.
      const rotated = (await p.post('/config/webhook-secret/rotate')).body as { webhookSecret: string };
      const { rows } = await db.query<{ secret_enc: string; previous_secret_enc: string }>(
        'SELECT secret_enc, previous_secret_enc FROM webhook_signing_keys WHERE platform_id = $1',
        [p.platformId.replace(/^Platform:/, '')],
      );
      expect(rows[0].secret_enc).toMatch(SEALED_NOW);
      expect(rows[0].previous_secret_enc).toMatch(/^v1\./);
      expect((await p.post('/sandbox/webhooks/test')).status).toBe(200);
      const both = await r.nth(2);
      expect(verifyWebhook(both, { ...config, webhookSecret: secret }).standardWebhooks).toBe(true);
      expect(verifyWebhook(both, { ...config, webhookSecret: rotated.webhookSecret }).standardWebhooks).toBe(true);
    } finally {
      await r.stop();
    }
  });
});
