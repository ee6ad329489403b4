/** Error codes of the verifications (KYC/KYB) area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const VERIFICATIONS_ERRORS = {
  VERIFICATION_NOT_FOUND: 404,
  /** The hosted KYC link is unknown, used or expired. */
  KYC_LINK_INVALID: 404,
} as const;
