/** Error codes of the customers area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const CUSTOMERS_ERRORS = {
  CUSTOMER_NOT_FOUND: 404,
  /** The reference's Error410: the customer exists (GET answers) but is deleted. */
  CUSTOMER_DELETED: 410,
  UMA_ADDRESS_EXISTS: 409,
  /** Internal accounts (here) and external accounts (src/external-accounts/) answer it. */
  ACCOUNT_NOT_FOUND: 404,
  INSUFFICIENT_FUNDS: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  /** A customer's `endUserTermsConsent.termsVersion` is not one END_USER_TERMS_VERSIONS offers. */
  END_USER_TERMS_VERSION_NOT_FOUND: 400,
  /** A field PROVIDER_REQUIRED_CUSTOMER_FIELDS requires for one of the customer's currencies is missing. */
  MISSING_MANDATORY_USER_INFO: 400,
} as const;
