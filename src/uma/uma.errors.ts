/**
 * Error codes of the UMA area (lookups, the well-known endpoints, invitations) and their HTTP
 * status; merged into the one catalogue (src/error-catalogue.ts). The 400s are the spec's; the
 * 404/412/424 codes are the reference's (Error404, Error412, Error424) for a counterparty's answers.
 */
export const UMA_ERRORS = {
  INVALID_UMA_ADDRESS: 400,
  LOOKUP_REQUEST_FAILED: 400,
  PARSE_LNURLP_RESPONSE_ERROR: 400,
  INVALID_PUBKEY_FORMAT: 400,
  CERT_CHAIN_INVALID: 400,
  CERT_CHAIN_EXPIRED: 400,
  INVALID_NONCE: 400,
  INVALID_TIMESTAMP: 400,
  MISSING_REQUIRED_UMA_PARAMETERS: 400,
  SENDER_NOT_ACCEPTED: 400,
  INVALID_RECEIVER: 400,
  /** The receiver's pay-request response does not hold (signature, currency, amount, compliance). */
  INVALID_PAYREQ_RESPONSE: 400,
  /** The receiver's pay-request response is not a pay-request response. */
  PARSE_PAYREQ_RESPONSE_ERROR: 400,
  /** The pay-request exchange failed (the receiver unreachable, or refusing otherwise); retryable. */
  QUOTE_REQUEST_FAILED: 400,
  INVITATION_ALREADY_CLAIMED: 400,
  INVITATION_CANCELLED: 400,
  INVITATIONS_NOT_CONFIGURED: 400,
  /** A signed UMA message (an lnurlp request) whose signature does not verify (spec: a 401 code). */
  INVALID_SIGNATURE: 401,
  UMA_NOT_FOUND: 404,
  INVITATION_NOT_FOUND: 404,
  UNSUPPORTED_UMA_VERSION: 412,
  LNURLP_REQUEST_FAILED: 424,
  COUNTERPARTY_PUBKEY_FETCH_ERROR: 424,
  /**
   * `POST /quotes` (and `/agents/me/quotes`) to an UMA address whose Idempotency-Key was used for
   * another request: the quote sends a pay request (the spec's DUPLICATE_PAY_REQUEST).
   */
  DUPLICATE_PAY_REQUEST: 409,
  /**
   * The receiving participant answered the pay request with its switch error (5xx
   * `SERVICE_SWITCH_ERROR`, or the reference's `GRID_SWITCH_ERROR`): retryable (docs/uma.md).
   */
  SERVICE_SWITCH_ERROR: 500,
} as const;
