import { AREA_ERRORS, ERROR_STATUS } from '../../../src/error-catalogue.js';
import { ApiError, CORE_ERRORS, errorCatalogue } from '../../../src/errors/api-error.js';

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

  it('importing src/error-catalogue.ts installs it: an area’s code gets its status', () => {
    expect(errorCatalogue()).toBe(ERROR_STATUS);
    expect(new ApiError('CARD_NOT_MUTABLE', 'closed').status).toBe(409);
    expect(new ApiError('CUSTOMER_DELETED', 'gone').status).toBe(410);
    // @ts-expect-error -- a code no table declares does not compile
    expect(() => new ApiError('NOT_A_DECLARED_CODE', 'x')).toThrow('not in the installed catalogue');
  });
});
