/** Error codes of the external-accounts area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const EXTERNAL_ACCOUNTS_ERRORS = {
  DUPLICATE_EXTERNAL_ACCOUNT: 409,
  /** The account is a trusted beneficiary: untrust it (untrust, then confirm) before deleting it. */
  BENEFICIARY_TRUSTED: 409,
} as const;
