/** The reference's DocumentType. */
export const DOCUMENT_TYPES = [
  'PASSPORT',
  'DRIVERS_LICENSE',
  'NATIONAL_ID',
  'PROOF_OF_ADDRESS',
  'BANK_STATEMENT',
  'TAX_RETURN',
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'ARTICLES_OF_ASSOCIATION',
  'STATE_REGISTRY_EXCERPT',
  'GOOD_STANDING_CERTIFICATE',
  'INFORMATION_STATEMENT',
  'INCUMBENCY_CERTIFICATE',
  'BUSINESS_LICENSE',
  'SHAREHOLDER_REGISTER',
  'POWER_OF_ATTORNEY',
  'UTILITY_BILL',
  'ELECTRICITY_BILL',
  'RENT_OR_LEASE_AGREEMENT',
  'DIRECTOR_REGISTRY',
  'TRUST_AGREEMENT',
  'STATE_COMPANY_REGISTRY',
  'PARTNERSHIP_CONTROL_AGREEMENT',
  'PARTNERSHIP_AGREEMENT',
  'SELFIE',
  'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_SIDES = ['FRONT', 'BACK'] as const;

export type DocumentPurpose = 'VERIFICATION' | 'PAYMENT';
export type HolderType = 'Customer' | 'BeneficialOwner';
export type DocumentReviewStatus = 'PENDING' | 'ACCEPTED' | 'REJECTED';

/** The spec's document rejection codes. */
export const DOCUMENT_REJECTION_CODES = [
  'LOW_QUALITY',
  'DATA_MISMATCH',
  'EXPIRED',
  'SUSPECTED_FRAUD',
  'UNSUITABLE_DOCUMENT',
  'INCOMPLETE',
] as const;
export type DocumentRejectionCode = (typeof DOCUMENT_REJECTION_CODES)[number];

/**
 * Sandbox review: a document uploaded with `documentNumber` `REJECT_<code>` (e.g.
 * `REJECT_LOW_QUALITY`) is rejected with that code; any other document passes review.
 */
export const SANDBOX_REJECT_PREFIX = 'REJECT_';

export function sandboxRejection(documentNumber: string | null | undefined): DocumentRejectionCode | null {
  if (!documentNumber?.startsWith(SANDBOX_REJECT_PREFIX)) return null;
  const code = documentNumber.slice(SANDBOX_REJECT_PREFIX.length);
  return (DOCUMENT_REJECTION_CODES as readonly string[]).includes(code) ? (code as DocumentRejectionCode) : null;
}

/** The accepted formats, as file-type names them from the bytes. */
export const ACCEPTED_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;

/** 10 MB: the reference's maximum file size. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
