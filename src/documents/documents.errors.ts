/** Error codes of the documents area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const DOCUMENTS_ERRORS = {
  DOCUMENT_NOT_FOUND: 404,
  /** The spec: a document of this type exists for the holder; replace it with PUT. */
  DOCUMENT_ALREADY_EXISTS: 409,
  /** A document a verification was submitted with cannot be deleted (or replaced until it is rejected). */
  DOCUMENT_ALREADY_SUBMITTED: 409,
  /** No document store is configured (`DOCUMENT_STORE=none`, docs/production.md): uploads and downloads. */
  DOCUMENT_STORE_NOT_CONFIGURED: 503,
} as const;
