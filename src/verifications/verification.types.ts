import type { DocumentRejectionCode } from '../documents/document.types.js';

export const VERIFICATION_STATUSES = [
  'RESOLVE_ERRORS',
  'PENDING_MANUAL_REVIEW',
  'IN_PROGRESS',
  'APPROVED',
  'REJECTED',
  'READY_FOR_VERIFICATION',
] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** The outcomes the sandbox (standing in for the KYC provider) can decide. */
export const SANDBOX_OUTCOMES = ['APPROVED', 'REJECTED', 'PENDING_MANUAL_REVIEW'] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** The reference's VerificationError (plus `rejectionCode` on a rejected document). */
export interface VerificationError {
  resourceId: string;
  type: string;
  field?: string;
  acceptedDocumentTypes?: string[];
  rejectionCode?: DocumentRejectionCode;
  reason: string;
}

/** Document requirements: the error type naming the category, and the types that satisfy it. */
export const IDENTITY = {
  type: 'MISSING_IDENTITY_DOCUMENT',
  accepted: ['PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID'],
  reason: 'An identity document is required',
};
export const LEGAL_PRESENCE = {
  type: 'MISSING_LEGAL_PRESENCE_DOCUMENT',
  accepted: [
    'CERTIFICATE_OF_INCORPORATION',
    'ARTICLES_OF_INCORPORATION',
    'ARTICLES_OF_ASSOCIATION',
    'STATE_REGISTRY_EXCERPT',
  ],
  reason: 'A company formation or existence document is required',
};
export const OWNERSHIP_STRUCTURE = {
  type: 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
  accepted: ['SHAREHOLDER_REGISTER', 'TRUST_AGREEMENT', 'PARTNERSHIP_AGREEMENT'],
  reason: 'A proof of ownership structure is required',
};
export const PROOF_OF_ADDRESS = {
  type: 'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
  accepted: [
    'PROOF_OF_ADDRESS',
    'UTILITY_BILL',
    'RENT_OR_LEASE_AGREEMENT',
    'ELECTRICITY_BILL',
    'BANK_STATEMENT',
    'TAX_RETURN',
  ],
  reason: 'A proof of address document is required',
};

/** A rejected document's verification error type, by the spec's rejection code. */
export const REJECTION_ERROR_TYPES: Record<DocumentRejectionCode, string> = {
  LOW_QUALITY: 'POOR_QUALITY_DOCUMENT',
  DATA_MISMATCH: 'INVALID_DOCUMENT',
  EXPIRED: 'EXPIRED_DOCUMENT',
  SUSPECTED_FRAUD: 'SUSPECTED_FRAUD_DOCUMENT',
  UNSUITABLE_DOCUMENT: 'WRONG_DOCUMENT_TYPE',
  INCOMPLETE: 'INCOMPLETE_DOCUMENT',
};
