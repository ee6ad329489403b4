/** Enumerations of the reference's customer schemas (grid-openapi-2026-08-21.yaml). */

export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/** KycStatus (individuals) and KybStatus (businesses) share these values. */
export const KYC_STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export const IDENTIFICATION_TYPES = ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'] as const;
export const INDIVIDUAL_SOURCE_OF_FUNDS = [
  'SALARY',
  'SELF_EMPLOYMENT_INCOME',
  'INVESTMENT_INCOME',
  'PENSION',
  'RENTAL_INCOME',
  'GIFT',
  'INHERITANCE',
  'LOAN',
  'SAVINGS',
  'SALE_OF_ASSETS',
  'OTHER',
] as const;
export const SOURCE_OF_WEALTH = [
  'SALARY',
  'BUSINESS_INCOME',
  'INVESTMENTS',
  'INHERITANCE',
  'PROPERTY_SALE',
  'GIFT',
  'RETIREMENT',
  'SAVINGS',
  'OTHER',
] as const;
export const PURPOSE_OF_ACCOUNT = [
  'CONTRACTOR_PAYOUTS',
  'CREATOR_PAYOUTS',
  'EMPLOYEE_PAYOUTS',
  'MARKETPLACE_SELLER_PAYOUTS',
  'SUPPLIER_PAYMENTS',
  'CROSS_BORDER_B2B',
  'AR_AUTOMATION',
  'AP_AUTOMATION',
  'EMBEDDED_PAYMENTS',
  'PLATFORM_FEE_COLLECTION',
  'P2P_TRANSFERS',
  'CHARITABLE_DONATIONS',
  'OTHER',
] as const;
export const MONTHLY_TRANSACTION_COUNTS = [
  'COUNT_UNDER_10',
  'COUNT_10_TO_100',
  'COUNT_100_TO_500',
  'COUNT_500_TO_1000',
  'COUNT_OVER_1000',
] as const;
export const MONTHLY_TRANSACTION_VOLUMES = [
  'VOLUME_UNDER_10K',
  'VOLUME_10K_TO_100K',
  'VOLUME_100K_TO_1M',
  'VOLUME_1M_TO_10M',
  'VOLUME_OVER_10M',
] as const;
export const ANNUAL_INCOME_RANGES = [
  'UNDER_50K',
  'RANGE_50K_100K',
  'RANGE_100K_250K',
  'RANGE_250K_1M',
  'OVER_1M',
] as const;
export const NET_WORTH_RANGES = [
  'UNDER_100K',
  'RANGE_100K_500K',
  'RANGE_500K_1M',
  'RANGE_1M_5M',
  'RANGE_5M_25M',
  'OVER_25M',
] as const;
export const PEP_STATUSES = ['NONE', 'DOMESTIC', 'FOREIGN', 'HIO', 'FAMILY_OR_ASSOCIATE'] as const;
export const ENTITY_TYPES = [
  'SOLE_PROPRIETORSHIP',
  'PARTNERSHIP',
  'LLC',
  'CORPORATION',
  'S_CORPORATION',
  'NON_PROFIT',
  'PUBLICLY_LISTED_COMPANY',
  'TRUST',
  'PRIVATE_FOUNDATION',
  'CHARITY',
  'OTHER',
] as const;
export const BUSINESS_TYPES = [
  'AGRICULTURE_FORESTRY_FISHING_AND_HUNTING',
  'MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION',
  'UTILITIES',
  'CONSTRUCTION',
  'MANUFACTURING',
  'WHOLESALE_TRADE',
  'RETAIL_TRADE',
  'TRANSPORTATION_AND_WAREHOUSING',
  'INFORMATION',
  'FINANCE_AND_INSURANCE',
  'REAL_ESTATE_AND_RENTAL_AND_LEASING',
  'PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES',
  'MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES',
  'ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES',
  'EDUCATIONAL_SERVICES',
  'HEALTH_CARE_AND_SOCIAL_ASSISTANCE',
  'ARTS_ENTERTAINMENT_AND_RECREATION',
  'ACCOMMODATION_AND_FOOD_SERVICES',
  'OTHER_SERVICES',
  'PUBLIC_ADMINISTRATION',
] as const;
export const BUSINESS_SOURCE_OF_FUNDS = [
  'OPERATING_REVENUE',
  'INVESTMENT_INCOME',
  'LOANS',
  'VENTURE_CAPITAL',
  'PERSONAL_SAVINGS',
  'DONATIONS',
  'OTHER',
] as const;
export const TERMS_ACCEPTANCE_METHODS = ['CHECKBOX', 'CLICK_TO_ACCEPT'] as const;

export const INTERNAL_ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;
export type InternalAccountType = (typeof INTERNAL_ACCOUNT_TYPES)[number];
export const INTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'CLOSED', 'FROZEN', 'FAILED'] as const;
export type InternalAccountStatus = (typeof INTERNAL_ACCOUNT_STATUSES)[number];

export interface Address {
  line1: string;
  line2?: string;
  city?: string;
  state?: string;
  postalCode: string;
  country: string;
}

export interface EndUserTermsConsent {
  acceptedAt: string;
  ipAddress: string;
  termsVersion: string;
  acceptanceMethod: string;
}

/**
 * The variant-specific members of a customer, stored as one jsonb document: for INDIVIDUAL the
 * IndividualCustomerFields (fullName, birthDate, nationality, address, idType, countryOfIssuance,
 * and the enhanced-due-diligence members); for BUSINESS `address` and `businessInfo`. Absent
 * members are simply not present. The write-only `identifier` is never stored here.
 */
export type CustomerProfile = Record<string, unknown>;

/** The reference's ContactVerificationStatus. */
export type ContactVerificationStatus = 'PENDING' | 'VERIFIED';

/**
 * The reference's ContactVerification: the channels the customer's region requires, each PENDING
 * or VERIFIED; stored null (and not rendered) when the region requires none.
 */
export interface ContactVerification {
  email?: ContactVerificationStatus;
  phone?: ContactVerificationStatus;
}
