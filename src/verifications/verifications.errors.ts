/** Error codes of the verifications (KYC/KYB) area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const VERIFICATIONS_ERRORS = {
  VERIFICATION_NOT_FOUND: 404,
} as const;
