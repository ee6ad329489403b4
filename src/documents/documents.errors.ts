/** Error codes of the documents area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const DOCUMENTS_ERRORS = {
  DOCUMENT_NOT_FOUND: 404,
  /** The spec: a document of this type exists for the holder; replace it with PUT. */
  DOCUMENT_ALREADY_EXISTS: 409,
  /** A document a verification was submitted with cannot be deleted (or replaced until it is rejected). */
  DOCUMENT_ALREADY_SUBMITTED: 409,
  BENEFICIAL_OWNER_NOT_FOUND: 404,
  VERIFICATION_NOT_FOUND: 404,
  /** A beneficial owner belongs to a BUSINESS customer. */
  CUSTOMER_NOT_BUSINESS: 400,
  /** The hosted KYC link is unknown, used or expired. */
  KYC_LINK_INVALID: 404,
  BULK_IMPORT_JOB_NOT_FOUND: 404,
} as const;
