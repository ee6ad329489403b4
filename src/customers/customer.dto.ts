import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TimeRangeQuery } from '../common/time-range.js';
import { EnumField, NestedField, StringField } from '../common/validation.js';
import {
  CountryField,
  CountryListField,
  CurrencyListField,
  DateField,
  DateTimeField,
  EnumListField,
  IpAddressField,
  ReadOnlyField,
  Text,
  BoolQuery,
} from './customer-fields.js';
import {
  ANNUAL_INCOME_RANGES,
  BUSINESS_SOURCE_OF_FUNDS,
  BUSINESS_TYPES,
  CUSTOMER_TYPES,
  ENTITY_TYPES,
  IDENTIFICATION_TYPES,
  INDIVIDUAL_SOURCE_OF_FUNDS,
  KYC_STATUSES,
  MONTHLY_TRANSACTION_COUNTS,
  MONTHLY_TRANSACTION_VOLUMES,
  NET_WORTH_RANGES,
  PEP_STATUSES,
  PURPOSE_OF_ACCOUNT,
  SOURCE_OF_WEALTH,
  TERMS_ACCEPTANCE_METHODS,
} from './customer.types.js';
import type { CustomerType, KycStatus } from './customer.types.js';

/**
 * Request bodies of /customers, from the reference's CustomerCreateRequest /
 * IndividualCustomerCreateRequest / BusinessCustomerCreateRequest / CustomerUpdateRequest(OneOf).
 * Lengths the reference leaves open are ours (noted where chosen). The body is discriminated by
 * `customerType`; `customer-body.ts` picks the variant class and validates it field by field.
 */

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
/** `$user@domain`: UMA user part (letters, digits, `._+-`, 1..64) and a dotted domain or `localhost`, with an optional port. */
export const UMA_ADDRESS_PATTERN = /^\$[A-Za-z0-9._+-]{1,64}@([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+|localhost)(:\d{1,5})?$/;
/** US SSN / ITIN `###-##-####` (the reference accepts only these as `identifier`). */
export const US_TAX_ID_PATTERN = /^[0-9]{3}-[0-9]{2}-[0-9]{4}$/;

const KYC_HINT = 'set by KYC review (in sandbox: POST /sandbox/customers/{customerId}/kyc)';

// A mixin base must take `any[]` constructor arguments (TypeScript rule for mixin classes).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Ctor = new (...args: any[]) => object;

export class AddressDto {
  @Text({ max: 255, description: 'Street address line 1', example: '123 Main Street' })
  line1: string;

  @Text({ required: false, max: 255, example: 'Apt 4B' })
  line2?: string;

  @Text({ required: false, max: 100, example: 'San Francisco' })
  city?: string;

  @Text({ required: false, max: 100, description: 'State/Province/Region', example: 'CA' })
  state?: string;

  @Text({ max: 20, example: '94105' })
  postalCode: string;

  @CountryField()
  country: string;
}

export class EndUserTermsConsentRequest {
  @DateTimeField({ description: 'When the customer accepted the End User Terms' })
  acceptedAt: string;

  @IpAddressField({ description: 'IP address of the device used to accept the terms' })
  ipAddress: string;

  @Text({ max: 64, description: 'Version of the accepted terms', example: 'V1' })
  termsVersion: string;

  @EnumField(TERMS_ACCEPTANCE_METHODS)
  acceptanceMethod: string;
}

/** Members shared by both create variants (reference CustomerCreateRequest). */
export class CustomerCreateRequest {
  @EnumField(CUSTOMER_TYPES, { description: 'Discriminator: INDIVIDUAL or BUSINESS' })
  customerType: CustomerType;

  @Text({
    required: false,
    max: 255,
    description:
      'Your identifier for the customer, unique among your active customers (409 CONFLICT otherwise). Generated when omitted.',
    example: '9f84e0c2a72c4fa',
  })
  platformCustomerId?: string;

  @CountryField({ required: false, description: "Customer's region (ISO 3166-1 alpha-2)" })
  region?: string;

  @CurrencyListField({
    required: false,
    description:
      "Currencies the customer will use; each must be one of the platform's supportedCurrencies. Default: all of them.",
  })
  currencies?: string[];

  @Text({ required: false, max: 320, pattern: EMAIL_PATTERN, format: 'email', example: 'john.doe@example.com' })
  email?: string;

  @Text({ required: false, max: 16, pattern: E164_PATTERN, format: 'e164', example: '+14155551234' })
  phoneNumber?: string;

  @Text({
    required: false,
    max: 255,
    pattern: UMA_ADDRESS_PATTERN,
    format: 'uma-address',
    description: 'UMA address; generated when omitted. Unique among your active customers (409 UMA_ADDRESS_EXISTS).',
    example: '$john.doe@uma.domain.com',
  })
  umaAddress?: string;

  @NestedField(() => EndUserTermsConsentRequest, { required: false })
  endUserTermsConsent?: EndUserTermsConsentRequest;
}

/** Members shared by both update variants (reference CustomerUpdateRequest). Omitted: unchanged; null: cleared. */
export class CustomerUpdateRequest {
  @EnumField(CUSTOMER_TYPES, { description: "Discriminator; must be the customer's type" })
  customerType: CustomerType;

  @Text({
    required: false,
    max: 255,
    description: 'Ours (not in the reference): change your identifier; 409 CONFLICT when an active customer has it',
  })
  platformCustomerId?: string;

  @CountryField({ required: false, nullable: true })
  region?: string | null;

  @CurrencyListField({ required: false, description: 'Replaces the list' })
  currencies?: string[];

  @Text({ required: false, nullable: true, max: 320, pattern: EMAIL_PATTERN, format: 'email' })
  email?: string | null;

  @Text({ required: false, nullable: true, max: 16, pattern: E164_PATTERN, format: 'e164' })
  phoneNumber?: string | null;

  @Text({ required: false, max: 255, pattern: UMA_ADDRESS_PATTERN, format: 'uma-address' })
  umaAddress?: string;

  @NestedField(() => EndUserTermsConsentRequest, { required: false })
  endUserTermsConsent?: EndUserTermsConsentRequest;
}

/** IndividualCustomerFields + CustomerEdd; every member optional (the reference requires none). */
function IndividualFields<B extends Ctor>(Base: B, update: boolean) {
  const opt = { required: false, nullable: update };
  class Individual extends Base {
    @ReadOnlyField(KYC_HINT)
    @ApiPropertyOptional({ enum: KYC_STATUSES, readOnly: true })
    kycStatus?: KycStatus;

    @Text({ ...opt, max: 250, example: 'John Michael Doe' })
    fullName?: string | null;

    @DateField({ ...opt, notFuture: true, description: 'Date of birth (YYYY-MM-DD)' })
    birthDate?: string | null;

    @CountryField({ ...opt, description: 'Nationality (ISO 3166-1 alpha-2)' })
    nationality?: string | null;

    @NestedField(() => AddressDto, opt)
    address?: AddressDto | null;

    @EnumField(IDENTIFICATION_TYPES, { ...opt, description: 'Type of `identifier`: SSN or ITIN' })
    idType?: string | null;

    @Text({
      ...opt,
      max: 11,
      pattern: US_TAX_ID_PATTERN,
      format: 'ssn',
      description: 'Write-only SSN or ITIN (###-##-####); never returned. Needs idType SSN or ITIN.',
    })
    identifier?: string | null;

    @EnumField(['US'], {
      ...opt,
      description: 'Country that issued the identification: US (SSN and ITIN are US-issued)',
    })
    countryOfIssuance?: string | null;

    @EnumListField(INDIVIDUAL_SOURCE_OF_FUNDS, opt)
    sourceOfFundsCategories?: string[] | null;

    @Text({ ...opt, max: 500, description: 'Required when sourceOfFundsCategories includes OTHER' })
    sourceOfFundsOtherDescription?: string | null;

    @EnumListField(SOURCE_OF_WEALTH, opt)
    sourceOfWealthCategories?: string[] | null;

    @Text({ ...opt, max: 500, description: 'Required when sourceOfWealthCategories includes OTHER' })
    sourceOfWealthOtherDescription?: string | null;

    @EnumField(PURPOSE_OF_ACCOUNT, opt)
    purposeOfAccount?: string | null;

    @Text({ ...opt, max: 500, description: 'Required when purposeOfAccount is OTHER' })
    purposeOfAccountOtherDescription?: string | null;

    @EnumField(MONTHLY_TRANSACTION_COUNTS, opt)
    expectedMonthlyTransactionCount?: string | null;

    @EnumField(MONTHLY_TRANSACTION_VOLUMES, opt)
    expectedMonthlyTransactionVolume?: string | null;

    @EnumField(ANNUAL_INCOME_RANGES, opt)
    annualIncomeRange?: string | null;

    @EnumField(NET_WORTH_RANGES, opt)
    netWorthRange?: string | null;

    @EnumField(PEP_STATUSES, opt)
    pepStatus?: string | null;
  }
  return Individual;
}

/**
 * BusinessInfo (create: legalName, country, taxId, incorporatedOn required) and BusinessInfoUpdate
 * (every member optional; the four required ones cannot be cleared, the others can with null).
 */
function BusinessInfoFields<B extends Ctor>(Base: B, update: boolean) {
  const must = { required: !update };
  const opt = { required: false, nullable: update };
  class BusinessInfoMembers extends Base {
    @Text({ ...must, max: 250, example: 'Acme Corporation, Inc.' })
    legalName: string;

    @Text({ ...opt, max: 250, example: 'Acme' })
    doingBusinessAs?: string | null;

    @CountryField({ ...must, description: 'Country of incorporation (ISO 3166-1 alpha-2)' })
    country: string;

    @Text({ ...opt, max: 100, example: '5523041' })
    registrationNumber?: string | null;

    @DateField({ ...must, notFuture: true, description: 'Date of incorporation (YYYY-MM-DD)', example: '2018-03-14' })
    incorporatedOn: string;

    @EnumField(ENTITY_TYPES, opt)
    entityType?: string | null;

    @Text({ ...must, max: 100, example: '47-1234567' })
    taxId: string;

    @CountryListField(opt)
    countriesOfOperation?: string[] | null;

    @EnumField(BUSINESS_TYPES, opt)
    businessType?: string | null;

    @EnumField(PURPOSE_OF_ACCOUNT, opt)
    purposeOfAccount?: string | null;

    @Text({ ...opt, max: 1000, example: 'Funds derived from customer payments for software services' })
    sourceOfFunds?: string | null;

    @EnumField(MONTHLY_TRANSACTION_COUNTS, opt)
    expectedMonthlyTransactionCount?: string | null;

    @EnumField(MONTHLY_TRANSACTION_VOLUMES, opt)
    expectedMonthlyTransactionVolume?: string | null;

    @CountryListField(opt)
    expectedRecipientJurisdictions?: string[] | null;

    @StringField({ ...opt, pattern: /^\d{2,6}$/, description: 'NAICS code (2-6 digits)', example: '541511' })
    naicsCode?: string | null;

    @EnumListField(BUSINESS_SOURCE_OF_FUNDS, opt)
    sourceOfFundsCategories?: string[] | null;

    @Text({ ...opt, max: 500, description: 'Required when sourceOfFundsCategories includes OTHER' })
    sourceOfFundsOtherDescription?: string | null;

    @Text({ ...opt, max: 500, description: 'Required when purposeOfAccount is OTHER' })
    purposeOfAccountOtherDescription?: string | null;

    @CountryListField(opt)
    expectedCounterpartyCountries?: string[] | null;

    @Text({ ...opt, max: 250, example: 'Jane' })
    primaryContactFirstName?: string | null;

    @Text({ ...opt, max: 250, example: 'Smith' })
    primaryContactLastName?: string | null;
  }
  return BusinessInfoMembers;
}

class Empty {}

export class BusinessInfo extends BusinessInfoFields(Empty, false) {}
export class BusinessInfoUpdate extends BusinessInfoFields(Empty, true) {}

export class IndividualCustomerCreateRequest extends IndividualFields(CustomerCreateRequest, false) {}
export class IndividualCustomerUpdateRequest extends IndividualFields(CustomerUpdateRequest, true) {}

export class BusinessCustomerCreateRequest extends CustomerCreateRequest {
  @ReadOnlyField(KYC_HINT)
  @ApiPropertyOptional({ enum: KYC_STATUSES, readOnly: true })
  kybStatus?: KycStatus;

  @NestedField(() => AddressDto, { required: false })
  address?: AddressDto;

  @NestedField(() => BusinessInfo)
  businessInfo: BusinessInfo;
}

export class BusinessCustomerUpdateRequest extends CustomerUpdateRequest {
  @ReadOnlyField(KYC_HINT)
  @ApiPropertyOptional({ enum: KYC_STATUSES, readOnly: true })
  kybStatus?: KycStatus;

  @NestedField(() => AddressDto, {
    required: false,
    nullable: true,
    description: 'Replaces the address; null clears it',
  })
  address?: AddressDto | null;

  @NestedField(() => BusinessInfoUpdate, {
    required: false,
    description: 'Members given replace the stored ones; null clears an optional member',
  })
  businessInfo?: BusinessInfoUpdate;
}

export type CustomerCreateBody = IndividualCustomerCreateRequest | BusinessCustomerCreateRequest;
export type CustomerUpdateBody = IndividualCustomerUpdateRequest | BusinessCustomerUpdateRequest;

/** GET /customers filters (reference listCustomers). */
export class ListCustomersQuery extends TimeRangeQuery {
  @StringField({ required: false, maxLength: 255, description: 'Filter by platform-specific customer identifier' })
  platformCustomerId?: string;

  @EnumField(CUSTOMER_TYPES, { required: false })
  customerType?: CustomerType;

  @StringField({ required: false, maxLength: 2, description: 'Filter by region (ISO 3166-1 alpha-2)' })
  region?: string;

  @StringField({ required: false, maxLength: 3, description: 'Customers with this currency in their `currencies`' })
  currency?: string;

  @StringField({ required: false, maxLength: 255, description: 'Filter by UMA address (case-insensitive)' })
  umaAddress?: string;

  @BoolQuery('Include deleted customers (default false)')
  isIncludingDeleted?: boolean;
}

/* ---------- responses (documentation of the rendered shapes) ---------- */

export class AddressView extends AddressDto {}

export class EndUserTermsConsentView extends EndUserTermsConsentRequest {}

/** The reference's ContactVerification (only the channels the customer's region requires). */
export class ContactVerificationView {
  @ApiPropertyOptional({ enum: ['PENDING', 'VERIFIED'] }) email?: 'PENDING' | 'VERIFIED';
  @ApiPropertyOptional({ enum: ['PENDING', 'VERIFIED'] }) phone?: 'PENDING' | 'VERIFIED';
}

/** The reference's ContactVerificationConfirmRequest. */
export class ContactVerificationConfirmRequest {
  @Text({
    max: 32,
    description: 'The one-time code the customer received (always 123456 in sandbox)',
    example: '123456',
  })
  code: string;
}

class CustomerViewBase {
  @ApiProperty({ example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' }) id: string;
  @ApiProperty() platformCustomerId: string;
  @ApiProperty({ enum: CUSTOMER_TYPES }) customerType: CustomerType;
  @ApiPropertyOptional() region?: string;
  @ApiProperty({ type: [String] }) currencies: string[];
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() phoneNumber?: string;
  @ApiProperty() umaAddress: string;
  @ApiPropertyOptional({ type: EndUserTermsConsentView }) endUserTermsConsent?: EndUserTermsConsentView;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty() isDeleted: boolean;
  @ApiPropertyOptional({
    type: ContactVerificationView,
    description: "Only when the customer's region requires contact verification",
  })
  contactVerification?: ContactVerificationView;
}

export class IndividualCustomer extends CustomerViewBase {
  @ApiProperty({ enum: KYC_STATUSES }) kycStatus: KycStatus;
  @ApiPropertyOptional() fullName?: string;
  @ApiPropertyOptional({ format: 'date' }) birthDate?: string;
  @ApiPropertyOptional() nationality?: string;
  @ApiPropertyOptional({ type: AddressView }) address?: AddressView;
  @ApiPropertyOptional({ enum: IDENTIFICATION_TYPES }) idType?: string;
  @ApiPropertyOptional() countryOfIssuance?: string;
  @ApiPropertyOptional({ enum: INDIVIDUAL_SOURCE_OF_FUNDS, isArray: true }) sourceOfFundsCategories?: string[];
  @ApiPropertyOptional() sourceOfFundsOtherDescription?: string;
  @ApiPropertyOptional({ enum: SOURCE_OF_WEALTH, isArray: true }) sourceOfWealthCategories?: string[];
  @ApiPropertyOptional() sourceOfWealthOtherDescription?: string;
  @ApiPropertyOptional({ enum: PURPOSE_OF_ACCOUNT }) purposeOfAccount?: string;
  @ApiPropertyOptional() purposeOfAccountOtherDescription?: string;
  @ApiPropertyOptional({ enum: MONTHLY_TRANSACTION_COUNTS }) expectedMonthlyTransactionCount?: string;
  @ApiPropertyOptional({ enum: MONTHLY_TRANSACTION_VOLUMES }) expectedMonthlyTransactionVolume?: string;
  @ApiPropertyOptional({ enum: ANNUAL_INCOME_RANGES }) annualIncomeRange?: string;
  @ApiPropertyOptional({ enum: NET_WORTH_RANGES }) netWorthRange?: string;
  @ApiPropertyOptional({ enum: PEP_STATUSES }) pepStatus?: string;
}

export class BusinessCustomer extends CustomerViewBase {
  @ApiProperty({ enum: KYC_STATUSES, description: 'KYB status (reference name)' }) kybStatus: KycStatus;
  @ApiProperty({ enum: KYC_STATUSES, description: 'Same value as kybStatus (ours: one name for every customer)' })
  kycStatus: KycStatus;
  @ApiPropertyOptional({ type: AddressView }) address?: AddressView;
  @ApiProperty({ type: BusinessInfo }) businessInfo: BusinessInfo;
}

export type CustomerView = IndividualCustomer | BusinessCustomer;

/** The reference's EndUserTerms (`GET /customers/end-user-terms`). */
export class EndUserTerms {
  @ApiProperty({ description: 'Current version identifier of the Grid End User Terms', example: 'V1' })
  version: string;
  @ApiProperty({ format: 'uri', description: 'Where this version of the End User Terms is hosted' })
  url: string;
}
