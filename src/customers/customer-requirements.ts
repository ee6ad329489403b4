import type { CustomerInfoField } from '../config/provider-required-fields.js';
import { isRecord } from '../common/objects.js';
import { ApiError } from '../errors/api-error.js';
import type { CustomerProfile, CustomerType } from './customer.types.js';

/**
 * What the deployment requires of a customer before it is stored: an accepted End User Terms
 * version this deployment offers (END_USER_TERMS_VERSIONS), and the customer information fields
 * the provider requires for each of the customer's currencies (PROVIDER_REQUIRED_CUSTOMER_FIELDS).
 * Pure: the service passes the settings and the customer as it would be stored.
 */

/** 400 END_USER_TERMS_VERSION_NOT_FOUND when `termsVersion` is not one of `versions`. */
export function checkTermsVersion(termsVersion: string | undefined, versions: readonly string[]): void {
  if (termsVersion === undefined || versions.includes(termsVersion)) return;
  throw new ApiError(
    'END_USER_TERMS_VERSION_NOT_FOUND',
    `End User Terms version '${termsVersion}' is not supported: accepted versions are ${versions.join(', ')}`,
    { details: { field: 'endUserTermsConsent.termsVersion', supportedVersions: [...versions] } },
  );
}

/** The stored customer as the requirement check reads it. */
export interface CustomerFacts {
  customerType: CustomerType;
  email: string | null;
  phoneNumber: string | null;
  profile: CustomerProfile;
  /** Whether a write-only identifier (SSN / ITIN) is stored or being stored. */
  hasIdentifier: boolean;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** Whether the customer carries `field`; null when the field does not apply to its type. */
function carries(c: CustomerFacts, field: CustomerInfoField): boolean | null {
  const p = c.profile;
  const business = isRecord(p.businessInfo) ? p.businessInfo : {};
  const address = isRecord(p.address) ? p.address : null;
  const individual = c.customerType === 'INDIVIDUAL';
  switch (field) {
    case 'FULL_NAME':
      return individual ? present(p.fullName) : present(business.legalName);
    case 'BIRTH_DATE':
      return individual ? present(p.birthDate) : null;
    case 'NATIONALITY':
      return individual ? present(p.nationality) : null;
    case 'ID_TYPE':
      return individual ? present(p.idType) : null;
    case 'PHONE_NUMBER':
      return present(c.phoneNumber);
    case 'EMAIL':
      return present(c.email);
    case 'POSTAL_ADDRESS':
      return address !== null;
    case 'COUNTRY_OF_RESIDENCE':
      return address !== null && present(address.country);
    case 'TAX_ID':
      return individual ? c.hasIdentifier : present(business.taxId);
  }
}

/**
 * 400 MISSING_MANDATORY_USER_INFO when a field the provider requires for one of `currencies` is
 * missing; `details` names each missing field and the currencies that require it.
 */
export function checkRequiredFields(
  customer: CustomerFacts,
  currencies: readonly string[],
  required: ReadonlyMap<string, readonly CustomerInfoField[]>,
): void {
  const missing = new Map<CustomerInfoField, string[]>();
  for (const currency of currencies)
    for (const field of required.get(currency) ?? [])
      if (carries(customer, field) === false) missing.set(field, [...(missing.get(field) ?? []), currency]);
  if (missing.size === 0) return;
  const missingFields = [...missing.entries()].map(([field, requiredFor]) => ({ field, requiredFor }));
  throw new ApiError(
    'MISSING_MANDATORY_USER_INFO',
    `The payment provider requires ${[...missing.keys()].join(', ')} of this customer for ${[
      ...new Set([...missing.values()].flat()),
    ].join(', ')}`,
    { details: { missingFields } },
  );
}
