/**
 * Error codes of the embedded-wallets area and their HTTP status; merged into the one catalogue
 * (src/error-catalogue.ts). The five 401s are the spec's (Authentication, item 4) for the signed
 * retry (`Service-Wallet-Signature` / `Grid-Wallet-Signature` and `Request-Id`); the credential
 * codes and the 409s are the spec's too (docs/embedded-wallets.md says which route answers each).
 */
export const EMBEDDED_WALLETS_ERRORS = {
  /** The signed retry's signature header is required but absent (a `Request-Id` came without it). */
  WALLET_SIGNATURE_MISSING: 401,
  /** The signature header cannot be parsed (not base64url JSON of {publicKey, scheme, signature}). */
  WALLET_SIGNATURE_MALFORMED: 401,
  /** The retried body is not the body the challenge's `payloadToSign` bound. */
  WALLET_SIGNATURE_BODY_MISMATCH: 401,
  /**
   * The signature fails the cryptographic check, is made by a key that is not a live session key of
   * the account (or not the key the challenge names), or the `Request-Id` names no unexpired,
   * unused challenge of this account and route.
   */
  WALLET_SIGNATURE_INVALID: 401,
  /** A signature came without the `Request-Id` of the challenge it answers. */
  REQUEST_ID_MISSING: 401,
  /** The internal account is not an embedded wallet, or the platform has not configured embedded wallets. */
  WALLET_NOT_PROVISIONED: 409,
  /** The account already has a live EMAIL_OTP credential (one per account). */
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: 400,
  /** The account already has a live SMS_OTP credential (one per account). */
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: 400,
  /** This WebAuthn credential id is already registered on the account. */
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: 400,
  /** The email is already tied to another EMAIL_OTP credential of the platform. */
  EMAIL_OTP_EMAIL_ALREADY_EXISTS: 409,
  /** The phone number is already tied to another SMS_OTP credential of the platform. */
  SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS: 409,
  /** The tied EMAIL_OTP credential set changed after the signed-retry challenge was issued. */
  EMAIL_OTP_CREDENTIAL_SET_CHANGED: 409,
  /** The tied SMS_OTP credential set changed while the request was in flight. */
  SMS_OTP_CREDENTIAL_SET_CHANGED: 409,
  /** No live authentication credential of the platform has this id. */
  AUTH_METHOD_NOT_FOUND: 404,
  /** No active session of the platform has this id (never issued, revoked or expired). */
  SESSION_NOT_FOUND: 404,
} as const;
