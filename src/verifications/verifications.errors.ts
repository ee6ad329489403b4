/** Error codes of the verifications (KYC/KYB) area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const VERIFICATIONS_ERRORS = {
  VERIFICATION_NOT_FOUND: 404,
  /** The hosted KYC link is unknown, used or expired. */
  KYC_LINK_INVALID: 404,
  /** No KYC provider is configured (`KYC_PROVIDER=none`, docs/production.md): submitting a verification or making a hosted link. */
  KYC_PROVIDER_NOT_CONFIGURED: 503,
} as const;
