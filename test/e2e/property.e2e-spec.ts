import fc from 'fast-check';
import { startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

let t: TestApp;
let p: TestPlatform;
beforeAll(async () => {
  t = await startTestApp();
  p = await TestPlatform.create(t);
});
afterAll(() => t.close());

/** Random JSON, wrong types, huge strings and deep nesting never produce a 5xx or a shapeless error. */
const hostile = fc.oneof(
  fc.jsonValue(),
  fc.record({ name: fc.jsonValue(), permissions: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({ name: fc.string({ maxLength: 5000 }), permissions: fc.array(fc.string(), { maxLength: 5 }) }),
  fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.dictionary(fc.string({ maxLength: 3 }), tie('node'), { maxKeys: 2 }),
    ),
  })).node,
  fc.constant(JSON.parse('{"name":' + '['.repeat(200) + ']'.repeat(200) + '}') as unknown),
);

it('POST /tokens never answers 5xx and always answers the error shape', async () => {
  await fc.assert(
    fc.asyncProperty(hostile, async (body) => {
      const res = await p.post('/tokens').set('Content-Type', 'application/json').send(JSON.stringify(body));
      expect(res.status).toBeLessThan(500);
      if (res.status >= 400) {
        expect(typeof res.body.code).toBe('string');
        expect(typeof res.body.reason).toBe('string');
        if (res.body.code === 'INVALID_INPUT') expect(Array.isArray(res.body.details.errors)).toBe(true);
      }
    }),
    { numRuns: 150 },
  );
});
