import type { BeneficialOwnerEntity } from '../beneficial-owners/beneficial-owner.entity.js';
import { formatId } from '../common/ids.js';
import type { CustomerEntity } from '../customers/customer.entity.js';
import type { DocumentEntity } from '../documents/document.entity.js';
import type { DocumentRejectionCode } from '../documents/document.types.js';
import {
  IDENTITY,
  LEGAL_PRESENCE,
  OWNERSHIP_STRUCTURE,
  PROOF_OF_ADDRESS,
  REJECTION_ERROR_TYPES,
  type VerificationError,
} from './verification.types.js';

type Requirement = typeof IDENTITY;

const INDIVIDUAL_FIELDS = ['fullName', 'birthDate', 'address.line1', 'address.postalCode', 'address.country'];
const BUSINESS_FIELDS = [
  'businessInfo.legalName',
  'businessInfo.taxId',
  'address.line1',
  'address.postalCode',
  'address.country',
];

function valueAt(profile: Record<string, unknown>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined),
      profile,
    );
}

function missingFields(customer: CustomerEntity, fields: string[]): VerificationError[] {
  const id = formatId('Customer', customer.id);
  return fields
    .filter((f) => {
      const v = valueAt(customer.profile, f);
      return typeof v !== 'string' || v.trim() === '';
    })
    .map((f) => ({
      resourceId: id,
      type: 'MISSING_FIELD',
      field: `customer.${f}`,
      reason: `customer.${f} is required`,
    }));
}

/**
 * A document requirement of one holder: met by a document of an accepted type that review did
 * not reject; a rejected one is reported with its rejection code (upload a new file with PUT).
 */
function documentRequirement(
  resourceId: string,
  held: DocumentEntity[],
  requirement: Requirement,
): VerificationError[] {
  const candidates = held.filter((d) => requirement.accepted.includes(d.documentType));
  if (candidates.some((d) => d.reviewStatus !== 'REJECTED')) return [];
  if (candidates.length === 0)
    return [
      { resourceId, type: requirement.type, acceptedDocumentTypes: requirement.accepted, reason: requirement.reason },
    ];
  return candidates.map((d) => {
    const code = d.rejectionCode as DocumentRejectionCode;
    return {
      resourceId: formatId('Document', d.id),
      type: REJECTION_ERROR_TYPES[code] ?? 'DOCUMENT_VERIFICATION_FAILED',
      acceptedDocumentTypes: requirement.accepted,
      rejectionCode: code,
      reason: `Document rejected: ${code}; replace it with PUT /documents/{documentId}`,
    };
  });
}

/**
 * What a customer still lacks before KYC/KYB can proceed (the reference's Verification `errors`):
 * an individual's identifying fields and an identity document; a business's identifying fields,
 * legal presence, ownership structure and proof of address documents, at least one beneficial
 * owner, a control person, and an identity document for each beneficial owner.
 */
export function verificationErrors(
  customer: CustomerEntity,
  owners: BeneficialOwnerEntity[],
  documents: DocumentEntity[],
): VerificationError[] {
  const customerId = formatId('Customer', customer.id);
  const heldBy = (holderId: string) => documents.filter((d) => d.holderId === holderId);
  if (customer.customerType === 'INDIVIDUAL')
    return [
      ...missingFields(customer, INDIVIDUAL_FIELDS),
      ...documentRequirement(customerId, heldBy(customer.id), IDENTITY),
    ];
  const errors = [
    ...missingFields(customer, BUSINESS_FIELDS),
    ...documentRequirement(customerId, heldBy(customer.id), LEGAL_PRESENCE),
    ...documentRequirement(customerId, heldBy(customer.id), OWNERSHIP_STRUCTURE),
    ...documentRequirement(customerId, heldBy(customer.id), PROOF_OF_ADDRESS),
  ];
  if (owners.length === 0)
    errors.push({
      resourceId: customerId,
      type: 'MISSING_BENEFICIAL_OWNER',
      reason: 'Add every beneficial owner (25% or more) with POST /beneficial-owners',
    });
  if (!owners.some((o) => o.roles.includes('CONTROL_PERSON')))
    errors.push({
      resourceId: customerId,
      type: 'MISSING_CONTROL_PERSON',
      reason: 'One beneficial owner must have the CONTROL_PERSON role',
    });
  for (const owner of owners)
    errors.push(...documentRequirement(formatId('BeneficialOwner', owner.id), heldBy(owner.id), IDENTITY));
  return errors;
}
