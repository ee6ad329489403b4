import { readFileSync } from 'node:fs';
import { OWN_WEBHOOK_TYPES, REFERENCE_WEBHOOK_TYPES } from '../../../src/outbox/webhook-types.js';

/**
 * The outbox's list of reference types (delivered to every platform) is the reference's
 * `WebhookType` list as committed (test/fixtures/reference/webhook-types.json, drift-checked), in
 * its order; the service's own types (opt-in) are none of them.
 */
const committed = JSON.parse(
  readFileSync(new URL('../../fixtures/reference/webhook-types.json', import.meta.url), 'utf8'),
) as { types: { type: string }[] };

it("REFERENCE_WEBHOOK_TYPES is the reference's WebhookType list", () => {
  expect([...REFERENCE_WEBHOOK_TYPES]).toEqual(committed.types.map((t) => t.type));
});

it('no own type is a reference type', () => {
  const reference = new Set<string>(REFERENCE_WEBHOOK_TYPES);
  expect(OWN_WEBHOOK_TYPES.filter((t) => reference.has(t))).toEqual([]);
});
