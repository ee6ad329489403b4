/**
 * Error codes of the quotes area and their HTTP status; merged into the one catalogue
 * (src/errors/api-error.ts). QUOTE_NOT_FOUND and QUOTE_EXPIRED are declared with the agents' codes.
 */
export const QUOTES_ERRORS = {
    /** The spec's 400 code: no rate for this currency pair in the rate table. */
    QUOTE_RATE_UNAVAILABLE: 400,
};
//# sourceMappingURL=quotes.errors.js.map