/** Error codes of the external-accounts area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const EXTERNAL_ACCOUNTS_ERRORS = {
  DUPLICATE_EXTERNAL_ACCOUNT: 409,
  /** The account is a trusted beneficiary: untrust it (untrust, then confirm) before deleting it. */
  BENEFICIARY_TRUSTED: 409,
  /** A new US bank account's micro-entry return window is still open: retry once it closes. */
  BANK_ACCOUNT_VALIDATION_PENDING: 409,
  /** The US bank account's micro-entry was returned: it failed validation for good. */
  INVALID_BANK_ACCOUNT: 400,
} as const;
