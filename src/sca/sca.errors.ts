/**
 * Error codes of the SCA area and their HTTP status; merged into the one catalogue
 * (src/error-catalogue.ts). A customer outside the SCA regions gets the core 409 `CONFLICT` on
 * every SCA endpoint (the reference). `SCA_SESSION_REQUIRED` and `PASSKEY_ALREADY_ENROLLED` are the
 * spec's; the reference's 400 "invalid or expired proof" is told apart by the `SCA_*` 400 codes.
 */
export const SCA_ERRORS = {
  /** The customer's SCA login session is missing or expired: re-authenticate, then retry. */
  SCA_SESSION_REQUIRED: 409,
  /** The customer already has a passkey: one per customer, delete it before enrolling another. */
  PASSKEY_ALREADY_ENROLLED: 409,
  /** The proof (code, passkey assertion, enrollment credential) does not satisfy the challenge. */
  SCA_PROOF_INVALID: 400,
  /** The challenge expired (its `expiresAt` passed on the platform's clock): start a new one. */
  SCA_CHALLENGE_EXPIRED: 400,
  /** The challenge was already satisfied (single use): a replayed proof. */
  SCA_CHALLENGE_USED: 400,
  /** Five wrong answers locked the challenge: start a new one. */
  SCA_CHALLENGE_LOCKED: 400,
  /** No pending challenge of this customer for this operation (unknown, foreign or for something else). */
  SCA_CHALLENGE_NOT_FOUND: 400,
  /** The factor is not enrolled for the customer (or, for SMS_OTP, the customer has no phone number). */
  SCA_FACTOR_NOT_ENROLLED: 400,
  /** A factor reset cannot complete yet (liveness not passed) or any more (terminal). */
  SCA_RESET_NOT_READY: 400,
  /** The customer's login is locked or suspended after failed attempts (`details.lockedUntil`). */
  ACCOUNT_LOCKED: 423,
} as const;
