import fc from 'fast-check';
import { business, individual } from '../support/customers.js';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

let t: TestApp;
let p: TestPlatform;
let existingId: string;
beforeAll(async () => {
  t = await startTestApp();
  p = await TestPlatform.create(t);
  existingId = (await p.post('/customers', individual())).body.id as string;
});
afterAll(() => t.close());

const KEYS = [
  'customerType',
  'platformCustomerId',
  'region',
  'currencies',
  'email',
  'phoneNumber',
  'umaAddress',
  'endUserTermsConsent',
  'fullName',
  'birthDate',
  'nationality',
  'address',
  'idType',
  'identifier',
  'countryOfIssuance',
  'sourceOfFundsCategories',
  'purposeOfAccount',
  'businessInfo',
  'kycStatus',
  'kybStatus',
];

const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.string({ maxLength: 3000 }),
  fc.constantFrom('', ' ', 'INDIVIDUAL', 'BUSINESS', 'US', 'OTHER', '2023-02-30', '$a@b.c', '__proto__', 'constructor'),
  fc.array(fc.constantFrom('USD', 'usd', 'OTHER', 'SALARY', 'US', 1, null), { maxLength: 5 }),
  fc.double(),
);

/** A valid body with some members replaced by hostile values, or removed. */
const mutated = fc
  .tuple(
    fc.boolean(),
    fc.dictionary(fc.constantFrom(...KEYS, 'surprise'), anyValue, { maxKeys: 4 }),
    fc.subarray(KEYS, { maxLength: 4 }),
    fc.dictionary(
      fc.constantFrom('legalName', 'country', 'taxId', 'incorporatedOn', 'naicsCode', 'line1', 'x'),
      anyValue,
      {
        maxKeys: 3,
      },
    ),
  )
  .map(([isBusiness, replace, drop, nested]) => {
    const body: Record<string, unknown> = isBusiness ? business() : individual();
    for (const key of drop) delete body[key];
    Object.assign(body, replace);
    const target = (isBusiness ? body.businessInfo : body.address) as Record<string, unknown> | undefined;
    if (target && typeof target === 'object' && !Array.isArray(target)) Object.assign(target, nested);
    return body;
  });

const hostile = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom(...KEYS), anyValue, { maxKeys: 8 }),
  mutated,
  fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.dictionary(fc.constantFrom(...KEYS, 'a'), tie('node'), { maxKeys: 3 }),
    ),
  })).node,
  fc.constant(
    JSON.parse('{"customerType":"INDIVIDUAL","address":' + '['.repeat(200) + ']'.repeat(200) + '}') as unknown,
  ),
);

interface Answer {
  status: number;
  body: { id?: unknown; customerType?: unknown; code?: unknown; reason?: unknown; details?: { errors?: unknown } };
}

function expectWellFormed(res: Answer, success: number): void {
  expect(res.status).toBeLessThan(500);
  if (res.status === success) {
    expect(res.body.id).toMatch(/^Customer:/);
    expect(['INDIVIDUAL', 'BUSINESS']).toContain(res.body.customerType);
    return;
  }
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(typeof res.body.code).toBe('string');
  expect(typeof res.body.reason).toBe('string');
  if (res.status === 409) expect(['CONFLICT', 'UMA_ADDRESS_EXISTS']).toContain(res.body.code);
  if (res.body.code === 'INVALID_INPUT') {
    const errors = res.body.details?.errors as Array<{ field: unknown; message: unknown }>;
    expect(Array.isArray(errors)).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) {
      expect(typeof e.field).toBe('string');
      expect(typeof e.message).toBe('string');
    }
  }
}

it('POST /customers never answers 5xx and always answers the error shape', async () => {
  await fc.assert(
    fc.asyncProperty(hostile, async (body) => {
      const res = await p.post('/customers').set('Content-Type', 'application/json').send(JSON.stringify(body));
      expectWellFormed(res, 201);
    }),
    { numRuns: 250 },
  );
});

it('PATCH /customers/{id} never answers 5xx and always answers the error shape', async () => {
  await fc.assert(
    fc.asyncProperty(hostile, async (body) => {
      const res = await t.http
        .patch(`/2025-10-13/customers/${existingId}`)
        .set('Authorization', p.authorization)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expectWellFormed(res, 200);
    }),
    { numRuns: 150 },
  );
});
