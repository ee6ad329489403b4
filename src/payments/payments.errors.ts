/**
 * Error codes of the quotes (payments) area and their HTTP status; merged into the one catalogue
 * (src/error-catalogue.ts).
 */
export const PAYMENTS_ERRORS = {
  QUOTE_NOT_FOUND: 404,
  /** The spec's code for an expired quote: request a new one. */
  QUOTE_EXPIRED: 400,
  /** No rate for this currency pair from the rate provider. */
  QUOTE_RATE_UNAVAILABLE: 400,
  /** Above the platform's per-currency single-transaction maximum (supportedCurrencies[].maxAmount). */
  TRANSACTION_SIZE_LIMIT_EXCEEDED: 400,
  /** The destination external account is not ACTIVE (verified) yet. */
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: 400,
  /** Source and destination are the same account. */
  SELF_PAYMENT: 400,
  /** The amount cannot be priced (it does not cover the fees, or a total leaves the safe range). */
  INVALID_AMOUNT: 400,
  /** A currency that does not fit (a same-currency transfer across currencies, a sandbox send in another currency). */
  INVALID_CURRENCY: 400,
  /** The transaction is past the point where it can be cancelled. */
  TRANSACTION_NOT_CANCELLABLE: 409,
} as const;
