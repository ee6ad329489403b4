/**
 * Error codes of the SCA area and their HTTP status; merged into the one catalogue
 * (src/error-catalogue.ts). A customer outside the SCA regions gets the core 409 `CONFLICT` on
 * every SCA endpoint (the reference). `SCA_SESSION_REQUIRED` and `PASSKEY_ALREADY_ENROLLED` are the
 * spec's; the reference's 400 "invalid or expired proof" is `INVALID_INPUT`, told apart by
 * `details.challenge` (sca-challenges.service.ts, `challengeRefused`).
 */
export const SCA_ERRORS = {
  /** The customer's SCA login session is missing or expired: re-authenticate, then retry. */
  SCA_SESSION_REQUIRED: 409,
  /** The customer already has a passkey: one per customer, delete it before enrolling another. */
  PASSKEY_ALREADY_ENROLLED: 409,
  /** The customer's login is locked or suspended after failed attempts (`details.lockedUntil`). */
  ACCOUNT_LOCKED: 423,
} as const;
