import { isRecord, mergePatch } from '../../../src/common/objects.js';

describe('mergePatch (the one PATCH-merge)', () => {
  const current = { a: 1, b: 'keep', c: [1, 2], nested: { x: 1, y: 2 } };

  it('keeps omitted members, replaces given ones, removes nulled ones', () => {
    expect(mergePatch(current, { a: 2, b: undefined, c: null })).toEqual({ a: 2, b: 'keep', nested: { x: 1, y: 2 } });
  });

  it('stores null instead of removing with keepNulls', () => {
    expect(mergePatch(current, { b: null }, { keepNulls: true })).toEqual({ ...current, b: null });
  });

  it('merges nested members member by member, replaces others whole', () => {
    expect(mergePatch(current, { nested: { y: 3 } }, { nested: ['nested'] })).toEqual({
      ...current,
      nested: { x: 1, y: 3 },
    });
    expect(mergePatch(current, { nested: { y: 3 } })).toEqual({ ...current, nested: { y: 3 } });
    expect(mergePatch(current, { c: [3] })).toEqual({ ...current, c: [3] });
  });

  it('ignores skipped members and never mutates its input', () => {
    const before = structuredClone(current);
    expect(mergePatch(current, { a: 5, top: 1 }, { skip: new Set(['top']) })).toEqual({ ...current, a: 5 });
    expect(current).toEqual(before);
  });

  it('isRecord accepts only JSON objects', () => {
    expect([{}, { a: 1 }].map(isRecord)).toEqual([true, true]);
    expect([null, undefined, [], 'x', 1, true].map(isRecord)).toEqual([false, false, false, false, false, false]);
  });
});
