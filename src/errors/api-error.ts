/** Codes any area may answer with (HTTP-level and generic ones). */
export const CORE_ERRORS = {
  INVALID_INPUT: 400,
  INVALID_REQUEST_FORMAT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /**
   * The reference's Error404 code for a transaction, shared by the areas that have transactions:
   * agents (approve/reject of an unknown action, the spec) and cards (a card transaction that is
   * not this card's).
   */
  TRANSACTION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

type CoreErrors = typeof CORE_ERRORS;

/**
 * The one catalogue's type: every code the API answers with, and its HTTP status. Here it holds
 * the core codes; each area declares its own in its folder (`<area>/<area>.errors.ts`) and
 * src/error-catalogue.ts, beside app.module.ts, adds them by declaration merging, so this floor
 * names no area and `new ApiError(code, ...)` still accepts only declared codes.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- extended by src/error-catalogue.ts
export interface ErrorCatalogue extends CoreErrors {}

export type ErrorCode = keyof ErrorCatalogue;

let catalogue: Readonly<Record<string, number>> = CORE_ERRORS;

/**
 * Installs the whole catalogue (core and areas' codes with their statuses): src/error-catalogue.ts
 * does it when imported (app.module.ts imports it), before any request is answered.
 */
export function registerErrorCatalogue(table: Readonly<Record<ErrorCode, number>>): void {
  catalogue = table;
}

/** The catalogue in use: every code and its HTTP status (for the OpenAPI document's error schemas). */
export function errorCatalogue(): Readonly<Record<ErrorCode, number>> {
  return catalogue;
}

export interface ApiErrorOptions {
  details?: Record<string, unknown>;
  /** Whether an SDK retry can help (sent as `x-should-retry`); default: only for 429/5xx. */
  retryable?: boolean;
  retryAfterSeconds?: number;
  headers?: Record<string, string>;
}

/**
 * The one domain exception. Services throw `new ApiError('CUSTOMER_DELETED', 'Customer ... has
 * been deleted')`; the global filter renders `{code, reason, details}` with the status from the
 * catalogue.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly reason: string,
    readonly options: ApiErrorOptions = {},
  ) {
    super(`${code}: ${reason}`);
    const status = catalogue[code];
    if (status === undefined) {
      throw new Error(`error code ${code} is not in the installed catalogue (import src/error-catalogue.ts)`);
    }
    this.status = status;
  }

  get details(): Record<string, unknown> | undefined {
    return this.options.details;
  }

  get retryable(): boolean {
    return this.options.retryable ?? (this.status === 429 || this.status >= 500);
  }
}
