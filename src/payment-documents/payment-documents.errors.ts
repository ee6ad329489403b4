/**
 * Error codes of payment documents (a quote's supporting documents) and their HTTP status; merged
 * into the one catalogue (src/error-catalogue.ts).
 */
export const PAYMENT_DOCUMENTS_ERRORS = {
  /** The reference's code: no such payment document (another platform's is not found either). */
  PAYMENT_DOCUMENT_NOT_FOUND: 404,
  /** The spec: a document attaches to one quote only; upload the file again to use it on another quote. */
  PAYMENT_DOCUMENT_ALREADY_USED: 409,
  /** The spec: the quote's `purposeOfPayment` needs supporting documents; `details.missingRequirements` names them. */
  DOCUMENTS_REQUIRED: 400,
} as const;
