import pg from 'pg';
import { individual } from '../support/customers.js';
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
  expect(await stored()).toMatch(/^v1\./);
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
    expect(await stored()).toMatch(/^v1\./);
    expect((await p.patch(path, { customerType: 'INDIVIDUAL', idType: 'ITIN' })).status).toBe(400);
    expect((await p.patch(path, { customerType: 'INDIVIDUAL', idType: 'SSN' })).status).toBe(200);
  } finally {
    await next.close();
  }
});
