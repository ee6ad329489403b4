import { object, oneOf, required, text, type Fields, type GroupRule } from './dsl.js';
import {
  bankBeneficiary,
  business,
  exampleIndividual,
  individual,
  type BusinessMember,
  type IndividualMember,
  type ShapeOptions,
} from './beneficiaries.js';
import { phone, PHONE_INTL, PLATFORM_ACCOUNT_ID, PROVIDER } from './field-rules.js';
import { isPresent } from './validate.js';
import type { AccountInfo, BeneficiaryVerificationStatus, IdentityKind, VariantDefinition } from './types.js';

/**
 * Builders for bank variants: `bank()` composes the common base part (accountType literal,
 * optional platformAccountId), the currency-specific members and the required `beneficiary`
 * (INDIVIDUAL | BUSINESS) into one VariantDefinition, as the spec describes.
 */

interface BankOptions {
  /** Example country (ISO 3166-1) for the generated example beneficiary. */
  country: string;
  fields: Fields;
  groups?: GroupRule[];
  individual?: ShapeOptions<IndividualMember>;
  business?: ShapeOptions<BusinessMember>;
  rails: readonly string[] | ((info: AccountInfo) => string[]);
  identity: Record<string, IdentityKind>;
  example: AccountInfo;
  /** Defaults to the 3-letter prefix of the account type (USD_ACCOUNT -> USD). */
  currencies?: readonly string[] | 'ANY_ISO4217';
  exampleCurrency?: string;
  /** Default UNSUPPORTED; see `initialBeneficiaryVerificationStatus`. */
  verification?: BeneficiaryVerificationStatus;
}

export function bank(accountType: string, o: BankOptions): VariantDefinition {
  const currencies = o.currencies ?? [accountType.slice(0, 3)];
  const rails = o.rails;
  return {
    accountType,
    family: 'bank',
    currencies,
    rule: object(
      {
        accountType: required(oneOf([accountType])),
        ...o.fields,
        platformAccountId: PLATFORM_ACCOUNT_ID,
        beneficiary: bankBeneficiary(individual(o.individual), business(o.business)),
      },
      o.groups,
    ),
    identity: o.identity,
    paymentRails: typeof rails === 'function' ? rails : () => [...rails],
    verification: o.verification ?? 'UNSUPPORTED',
    example: { accountType, ...o.example, beneficiary: exampleIndividual(o.country) },
    exampleCurrency: o.exampleCurrency ?? (currencies === 'ANY_ISO4217' ? 'USD' : currencies[0]),
  };
}

/** Rails of the "bank transfer or mobile money" corridors, from the members supplied. */
export function bankOrMobile(...bankMembers: string[]) {
  return (info: AccountInfo): string[] => [
    ...(bankMembers.some((k) => isPresent(info[k])) ? ['BANK_TRANSFER'] : []),
    ...(isPresent(info.phoneNumber) ? ['MOBILE_MONEY'] : []),
  ];
}

export const BT = ['BANK_TRANSFER'];
export const MM = ['MOBILE_MONEY'];
export const SEPA = ['SEPA', 'SEPA_INSTANT'];
export const BY_REG_AND_TAX: ShapeOptions<BusinessMember> = { require: ['registrationNumber', 'taxId'] };

/** Mobile-money corridors: phone + provider, business beneficiaries need registration + tax id. */
interface MobileMoneyOptions {
  country: string;
  /** Country-pinned phone pattern from the reference, with a matching example number. */
  phone?: { pattern: string; example: string };
  /** XAF / XOF: the reference's `region` enum (first value used by the example). */
  regions?: readonly string[];
}

export function mobileMoney(accountType: string, o: MobileMoneyOptions): VariantDefinition {
  const regions = o.regions;
  return bank(accountType, {
    country: o.country,
    fields: {
      phoneNumber: required(o.phone ? phone(o.phone.pattern) : PHONE_INTL),
      provider: required(PROVIDER),
      ...(regions
        ? { region: required(text({ enum: regions, minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$' })) }
        : {}),
    },
    business: BY_REG_AND_TAX,
    rails: MM,
    identity: { provider: 'text', phoneNumber: 'phone' },
    example: {
      phoneNumber: o.phone?.example ?? '+1234567890',
      provider: 'Example Provider',
      ...(regions ? { region: regions[0] } : {}),
    },
  });
}

/** Bank account + SWIFT/BIC corridors (HKD, IDR, MYR, SGD, THB, VND). */
export const SWIFT_BANK_IDENTITY: Record<string, IdentityKind> = { swiftCode: 'bic', accountNumber: 'alnum' };
