import { AREA_ERRORS, CORE_ERRORS, ERROR_STATUS } from '../../../src/errors/api-error.js';

describe('error catalogue', () => {
  it('each code is declared once, by the core or by one area', () => {
    const declared = [CORE_ERRORS, ...AREA_ERRORS].flatMap((table) => Object.keys(table));
    expect(new Set(declared).size).toBe(declared.length);
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...declared].sort());
  });

  it('every status is an HTTP error status', () => {
    for (const status of Object.values(ERROR_STATUS)) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
  });
});
