/** Error codes of the beneficial owners area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const BENEFICIAL_OWNERS_ERRORS = {
  BENEFICIAL_OWNER_NOT_FOUND: 404,
  /** A beneficial owner belongs to a BUSINESS customer. */
  CUSTOMER_NOT_BUSINESS: 400,
} as const;
