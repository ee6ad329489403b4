import pg from 'pg';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/** Issue 10 item 1: no secret rests in plain text, not even in a stored idempotent replay. */
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

  const again = await p.post('/tokens', body).set('Idempotency-Key', 'secret-at-rest');
  expect(again.status).toBe(201);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.body).toEqual(first.body);
});
