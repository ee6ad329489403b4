/** Error codes of the quotes area and their HTTP status; merged into the one catalogue (src/errors/api-error.ts). */
export const QUOTES_ERRORS = {
  QUOTE_NOT_FOUND: 404,
  /** The spec's 400 code: the quote can no longer be executed; request a new one. */
  QUOTE_EXPIRED: 400,
  /** The spec's 400 code: no rate for this currency pair in the rate table. */
  QUOTE_RATE_UNAVAILABLE: 400,
} as const;
