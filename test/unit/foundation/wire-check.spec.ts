import { deviations, wireChecker } from '../../support/wire-check.js';

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

it('every deviation quotes the spec, or is pending on a named part of an issue (codes and hooks: error codes and webhook types only; anything else with its reason)', () => {
  for (const d of deviations()) {
    expect(typeof d.id).toBe('string');
    if (d.pending) {
      expect(d.pending).toMatch(/^issue \d+: \w+$/);
      // Another helper's part (codes, hooks): only an error code or a webhook type; anything else
      // pending says why in `reason`.
      if (/: (codes|hooks)$/.test(d.pending))
        expect(d.webhookType !== undefined || /\/properties\/code\/enum$/.test(d.pointer ?? '')).toBe(true);
      else expect((d.reason ?? '').length).toBeGreaterThan(40);
    } else expect((d.spec ?? '').length).toBeGreaterThan(20);
  }
});
