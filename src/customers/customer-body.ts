import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import type { FieldError } from '../errors/field-error.js';
import { toFieldErrors } from '../errors/validation-errors.js';
import {
  BusinessCustomerCreateRequest,
  BusinessCustomerUpdateRequest,
  CustomerCreateRequest,
  CustomerUpdateRequest,
  IndividualCustomerCreateRequest,
  IndividualCustomerUpdateRequest,
} from './customer.dto.js';
import type { CustomerCreateBody, CustomerUpdateBody } from './customer.dto.js';
import type { CustomerProfile, CustomerType } from './customer.types.js';

/**
 * Validation of the discriminated customer bodies. The global pipe cannot pick a class by a body
 * member, so the controllers take the raw body and the service calls these: the `customerType`
 * variant's class is validated field by field (unknown members are FieldErrors, all errors in one
 * list). With no valid `customerType`, the shared members are still checked and members that no
 * variant knows are reported, so one response lists everything that is wrong.
 */

type Class<T> = new () => T;

const OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
} as const;

export interface Parsed<T> {
  value?: T;
  errors: FieldError[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function propertiesOf(cls: Class<object>): Set<string> {
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(cls, '', true, false)
      .map((m) => m.propertyName),
  );
}

function parseVariant<T extends object>(
  body: unknown,
  base: Class<object>,
  variants: Record<CustomerType, Class<T>>,
): Parsed<T> {
  if (!isRecord(body)) return { errors: [{ field: 'body', message: 'the request body must be a JSON object' }] };
  const tag = body.customerType;
  const cls = typeof tag === 'string' && Object.hasOwn(variants, tag) ? variants[tag as CustomerType] : undefined;
  if (cls) {
    const value = plainToInstance(cls, body);
    return { value, errors: toFieldErrors(validateSync(value, OPTIONS)) };
  }
  const shared = plainToInstance(base, body);
  const errors = toFieldErrors(validateSync(shared, { ...OPTIONS, forbidNonWhitelisted: false }));
  const known = new Set(Object.values(variants).flatMap((v) => [...propertiesOf(v)]));
  for (const key of Object.keys(body)) if (!known.has(key)) errors.push({ field: key, message: 'unknown field' });
  return { errors };
}

export function parseCustomerCreate(body: unknown): Parsed<CustomerCreateBody> {
  return parseVariant<CustomerCreateBody>(body, CustomerCreateRequest, {
    INDIVIDUAL: IndividualCustomerCreateRequest,
    BUSINESS: BusinessCustomerCreateRequest,
  });
}

export function parseCustomerUpdate(body: unknown): Parsed<CustomerUpdateBody> {
  return parseVariant<CustomerUpdateBody>(body, CustomerUpdateRequest, {
    INDIVIDUAL: IndividualCustomerUpdateRequest,
    BUSINESS: BusinessCustomerUpdateRequest,
  });
}

/** Members of the top level that are not stored in the profile document. */
const TOP_LEVEL = new Set([
  'customerType',
  'platformCustomerId',
  'region',
  'currencies',
  'email',
  'phoneNumber',
  'umaAddress',
  'endUserTermsConsent',
  'identifier',
  'kycStatus',
  'kybStatus',
]);

/** Plain JSON copy of a validated DTO, without members left undefined. */
export function plain(value: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

/** The profile members of a validated body (variant fields only), as plain JSON. */
export function profileOf(body: object): CustomerProfile {
  return Object.fromEntries(Object.entries(plain(body)).filter(([key]) => !TOP_LEVEL.has(key)));
}

/**
 * Applies a PATCH to a profile: a member given replaces the stored one, `null` removes it,
 * an omitted member stays. `businessInfo` is merged member by member the same way.
 */
export function mergeProfile(current: CustomerProfile, patch: Record<string, unknown>): CustomerProfile {
  const out: CustomerProfile = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (TOP_LEVEL.has(key) || value === undefined) continue;
    if (value === null) delete out[key];
    else if (key === 'businessInfo' && isRecord(value)) out[key] = mergeProfile(asRecord(current[key]), value);
    else out[key] = value;
  }
  return out;
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/**
 * Rules that span members, checked on the customer as it will be stored (after a PATCH is
 * applied), so a PATCH cannot leave it inconsistent: an `OTHER` choice needs its description;
 * an `identifier` needs `idType` SSN or ITIN (the only identifications the reference accepts).
 */
export function crossFieldErrors(
  type: CustomerType,
  profile: CustomerProfile,
  identifier: string | null,
): FieldError[] {
  const errors: FieldError[] = [];
  const otherNeedsText = (
    scope: Record<string, unknown>,
    path: string,
    list: string,
    single: string | null,
    describe: string,
  ) => {
    const selected = single ? scope[single] === 'OTHER' : Array.isArray(scope[list]) && scope[list].includes('OTHER');
    if (selected && (typeof scope[describe] !== 'string' || scope[describe] === ''))
      errors.push({
        field: `${path}${describe}`,
        message: `${describe} is required when ${single ?? list} ${single ? 'is' : 'includes'} OTHER`,
      });
  };
  if (type === 'INDIVIDUAL') {
    otherNeedsText(profile, '', 'sourceOfFundsCategories', null, 'sourceOfFundsOtherDescription');
    otherNeedsText(profile, '', 'sourceOfWealthCategories', null, 'sourceOfWealthOtherDescription');
    otherNeedsText(profile, '', '', 'purposeOfAccount', 'purposeOfAccountOtherDescription');
    if (identifier !== null) {
      const idType = profile.idType;
      if (idType !== 'SSN' && idType !== 'ITIN')
        errors.push({
          field: 'idType',
          constraint: { enum: ['SSN', 'ITIN'] },
          message: 'identifier needs idType SSN or ITIN (the only identifications accepted)',
        });
      else if (idType === 'ITIN' && !identifier.startsWith('9'))
        errors.push({ field: 'identifier', message: 'an ITIN starts with 9' });
    }
  } else {
    const info = asRecord(profile.businessInfo);
    otherNeedsText(info, 'businessInfo.', 'sourceOfFundsCategories', null, 'sourceOfFundsOtherDescription');
    otherNeedsText(info, 'businessInfo.', '', 'purposeOfAccount', 'purposeOfAccountOtherDescription');
  }
  return errors;
}
