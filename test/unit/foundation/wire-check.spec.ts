import { deviations, newWireChecker, wireChecker } from '../../support/wire-check.js';

/**
 * test/support/wire-check.ts validates every answer of the e2e suite's test apps and every webhook
 * their receivers get against the reference's schemas (docs/api-conventions.md, "Checked against
 * the reference"). This proves the checker itself: it finds the operation of a route, passes a
 * conforming body and names the path and rule of a non-conforming one.
 */
const check = wireChecker();

it('finds the reference operation of a method and path, the most specific template first', () => {
  expect(check.operation('GET', '/cards/Card:1')?.operationId).toBe('getCardById');
  expect(check.operation('GET', '/customers/external-accounts')?.operationId).toBe('listCustomerExternalAccounts');
  expect(check.operation('GET', '/no/such/route')).toBeUndefined();
});

it('passes a conforming error body and names the path and rule of a non-conforming one', () => {
  const op = check.operation('GET', '/cards/Card:1')!;
  expect(check.checkResponse(op, 404, { code: 'NOT_FOUND', reason: 'no such card' }, 'GET /cards/x')).toBeUndefined();
  const v = check.checkResponse(op, 404, { code: 'CARD_GONE', reason: 'no such card' }, 'GET /cards/x');
  expect(v).toMatchObject({ where: 'getCardById 404', path: '/code' });
  expect(v!.rule).toMatch(/^enum /);
  const missing = check.checkResponse(op, 404, { code: 'NOT_FOUND' }, 'GET /cards/x');
  expect(missing!.rule).toMatch(/^required .*reason/);
});

it('selects a discriminated branch by its tag: an unknown tag fails on the tag', () => {
  const v = check.checkWebhook({ id: 'Webhook:1', type: 'NOT_A_TYPE', timestamp: '2026-01-01T00:00:00Z' }, 'w');
  expect(v).toMatchObject({ path: '/type' });
  expect(check.checkWebhook({ id: 'Webhook:1', type: 'TEST', timestamp: 'yesterday' }, 'w')).toMatchObject({
    path: '/timestamp',
  });
});

it('every deviation quotes the spec word for word, and nothing is exempt without it', () => {
  for (const d of deviations()) {
    expect(typeof d.id).toBe('string');
    expect((d.spec ?? '').length).toBeGreaterThan(20);
    expect(d.schema ?? '').not.toBe('');
  }
});

it("checks the service's own webhook types against its served document's webhooks", () => {
  const own = newWireChecker();
  own.registerServedDocument({
    components: {
      schemas: {
        Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        ThingWebhook: {
          allOf: [
            { type: 'object', required: ['id', 'type', 'timestamp'] },
            {
              type: 'object',
              properties: {
                type: { type: 'string', enum: ['THING.DONE'] },
                data: { $ref: '#/components/schemas/Thing' },
              },
            },
          ],
        },
      },
    },
    webhooks: {
      thing: {
        post: {
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingWebhook' } } } },
        },
      },
    },
  });
  const body = { id: 'Webhook:1', type: 'THING.DONE', timestamp: '2026-01-01T00:00:00Z', data: { id: 'Thing:1' } };
  expect(own.checkWebhook(body, 'w')).toBeUndefined();
  expect(own.checkWebhook({ ...body, data: { id: 7 } }, 'w')).toMatchObject({ path: '/data/id' });
  // Another checker (no served document): an own type is not a reference type.
  expect(check.checkWebhook(body, 'w')).toMatchObject({ path: '/type' });
});
