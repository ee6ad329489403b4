/** Error codes of the documents area and their HTTP status; merged into the one catalogue (src/error-catalogue.ts). */
export const DOCUMENTS_ERRORS = {
  /** The spec: a document of this type exists for the holder; replace it with PUT. */
  DOCUMENT_ALREADY_EXISTS: 409,
} as const;
