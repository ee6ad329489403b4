import fc from 'fast-check';
import { nestedDeeperThan } from '../../../src/http-pipeline.js';

const depthOf = (value: unknown): number =>
  value !== null && typeof value === 'object'
    ? 1 + Math.max(0, ...Object.values(value as Record<string, unknown>).map(depthOf))
    : 0;

/** The raw-byte scan agrees with the parsed value's depth, whatever the strings contain. */
it('nestedDeeperThan(JSON text, limit) is depth(value) > limit', () => {
  const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', 'é', '\u0000') });
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'large', maxDepth: 12 },
      text,
      fc.integer(),
      fc.array(tie('v'), { maxLength: 3 }),
      fc.dictionary(text, tie('v'), { maxKeys: 3 }),
    ),
  })).v;
  fc.assert(
    fc.property(value, fc.integer({ min: 0, max: 12 }), (v, limit) => {
      expect(nestedDeeperThan(Buffer.from(JSON.stringify(v)), limit)).toBe(depthOf(v) > limit);
    }),
    { numRuns: 2000 },
  );
});
