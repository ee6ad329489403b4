var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TimeRangeQuery } from '../common/time-range.js';
import { EnumField, NestedField, StringField } from '../common/validation.js';
import { CountryField, CountryListField, CurrencyListField, DateField, DateTimeField, EnumListField, IpAddressField, ReadOnlyField, Text, BoolQuery, } from './customer-fields.js';
import { ANNUAL_INCOME_RANGES, BUSINESS_SOURCE_OF_FUNDS, BUSINESS_TYPES, CUSTOMER_TYPES, ENTITY_TYPES, IDENTIFICATION_TYPES, INDIVIDUAL_SOURCE_OF_FUNDS, KYC_STATUSES, MONTHLY_TRANSACTION_COUNTS, MONTHLY_TRANSACTION_VOLUMES, NET_WORTH_RANGES, PEP_STATUSES, PURPOSE_OF_ACCOUNT, SOURCE_OF_WEALTH, TERMS_ACCEPTANCE_METHODS, } from './customer.types.js';
/**
 * Request bodies of /customers, from the reference's CustomerCreateRequest /
 * IndividualCustomerCreateRequest / BusinessCustomerCreateRequest / CustomerUpdateRequest(OneOf).
 * Lengths the reference leaves open are ours (noted where chosen). The body is discriminated by
 * `customerType`; `customer-body.ts` picks the variant class and validates it field by field.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
/** `$user@domain`: UMA user part (letters, digits, `._+-`, 1..64) and a dotted domain. */
export const UMA_ADDRESS_PATTERN = /^\$[A-Za-z0-9._+-]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
/** US SSN / ITIN `###-##-####` (the reference accepts only these as `identifier`). */
export const US_TAX_ID_PATTERN = /^[0-9]{3}-[0-9]{2}-[0-9]{4}$/;
const KYC_HINT = 'set by KYC review (in sandbox: POST /sandbox/customers/{customerId}/kyc)';
export class AddressDto {
    line1;
    line2;
    city;
    state;
    postalCode;
    country;
}
__decorate([
    Text({ max: 255, description: 'Street address line 1', example: '123 Main Street' }),
    __metadata("design:type", String)
], AddressDto.prototype, "line1", void 0);
__decorate([
    Text({ required: false, max: 255, example: 'Apt 4B' }),
    __metadata("design:type", String)
], AddressDto.prototype, "line2", void 0);
__decorate([
    Text({ required: false, max: 100, example: 'San Francisco' }),
    __metadata("design:type", String)
], AddressDto.prototype, "city", void 0);
__decorate([
    Text({ required: false, max: 100, description: 'State/Province/Region', example: 'CA' }),
    __metadata("design:type", String)
], AddressDto.prototype, "state", void 0);
__decorate([
    Text({ max: 20, example: '94105' }),
    __metadata("design:type", String)
], AddressDto.prototype, "postalCode", void 0);
__decorate([
    CountryField(),
    __metadata("design:type", String)
], AddressDto.prototype, "country", void 0);
export class EndUserTermsConsentRequest {
    acceptedAt;
    ipAddress;
    termsVersion;
    acceptanceMethod;
}
__decorate([
    DateTimeField({ description: 'When the customer accepted the End User Terms' }),
    __metadata("design:type", String)
], EndUserTermsConsentRequest.prototype, "acceptedAt", void 0);
__decorate([
    IpAddressField({ description: 'IP address of the device used to accept the terms' }),
    __metadata("design:type", String)
], EndUserTermsConsentRequest.prototype, "ipAddress", void 0);
__decorate([
    Text({ max: 64, description: 'Version of the accepted terms', example: 'V1' }),
    __metadata("design:type", String)
], EndUserTermsConsentRequest.prototype, "termsVersion", void 0);
__decorate([
    EnumField(TERMS_ACCEPTANCE_METHODS),
    __metadata("design:type", String)
], EndUserTermsConsentRequest.prototype, "acceptanceMethod", void 0);
/** Members shared by both create variants (reference CustomerCreateRequest). */
export class CustomerCreateRequest {
    customerType;
    platformCustomerId;
    region;
    currencies;
    email;
    phoneNumber;
    umaAddress;
    endUserTermsConsent;
}
__decorate([
    EnumField(CUSTOMER_TYPES, { description: 'Discriminator: INDIVIDUAL or BUSINESS' }),
    __metadata("design:type", String)
], CustomerCreateRequest.prototype, "customerType", void 0);
__decorate([
    Text({
        required: false,
        max: 255,
        description: 'Your identifier for the customer, unique among your active customers (409 CONFLICT otherwise). Generated when omitted.',
        example: '9f84e0c2a72c4fa',
    }),
    __metadata("design:type", String)
], CustomerCreateRequest.prototype, "platformCustomerId", void 0);
__decorate([
    CountryField({ required: false, description: "Customer's region (ISO 3166-1 alpha-2)" }),
    __metadata("design:type", String)
], CustomerCreateRequest.prototype, "region", void 0);
__decorate([
    CurrencyListField({
        required: false,
        description: "Currencies the customer will use; each must be one of the platform's supportedCurrencies. Default: all of them.",
    }),
    __metadata("design:type", Array)
], CustomerCreateRequest.prototype, "currencies", void 0);
__decorate([
    Text({ required: false, max: 320, pattern: EMAIL_PATTERN, format: 'email', example: 'john.doe@example.com' }),
    __metadata("design:type", String)
], CustomerCreateRequest.prototype, "email", void 0);
__decorate([
    Text({ required: false, max: 16, pattern: E164_PATTERN, format: 'e164', example: '+14155551234' }),
    __metadata("design:type", String)
], CustomerCreateRequest.prototype, "phoneNumber", void 0);
__decorate([
    Text({
        required: false,
        max: 255,
        pattern: UMA_ADDRESS_PATTERN,
        format: 'uma-address',
        description: 'UMA address; generated when omitted. Unique among your active customers (409 UMA_ADDRESS_EXISTS).',
        example: '$john.doe@uma.domain.com',
    }),
    __metadata("design:type", String)
], CustomerCreateRequest.prototype, "umaAddress", void 0);
__decorate([
    NestedField(() => EndUserTermsConsentRequest, { required: false }),
    __metadata("design:type", EndUserTermsConsentRequest)
], CustomerCreateRequest.prototype, "endUserTermsConsent", void 0);
/** Members shared by both update variants (reference CustomerUpdateRequest). Omitted: unchanged; null: cleared. */
export class CustomerUpdateRequest {
    customerType;
    platformCustomerId;
    region;
    currencies;
    email;
    phoneNumber;
    umaAddress;
    endUserTermsConsent;
}
__decorate([
    EnumField(CUSTOMER_TYPES, { description: "Discriminator; must be the customer's type" }),
    __metadata("design:type", String)
], CustomerUpdateRequest.prototype, "customerType", void 0);
__decorate([
    Text({
        required: false,
        max: 255,
        description: 'Ours (not in the reference): change your identifier; 409 CONFLICT when an active customer has it',
    }),
    __metadata("design:type", String)
], CustomerUpdateRequest.prototype, "platformCustomerId", void 0);
__decorate([
    CountryField({ required: false, nullable: true }),
    __metadata("design:type", Object)
], CustomerUpdateRequest.prototype, "region", void 0);
__decorate([
    CurrencyListField({ required: false, description: 'Replaces the list' }),
    __metadata("design:type", Array)
], CustomerUpdateRequest.prototype, "currencies", void 0);
__decorate([
    Text({ required: false, nullable: true, max: 320, pattern: EMAIL_PATTERN, format: 'email' }),
    __metadata("design:type", Object)
], CustomerUpdateRequest.prototype, "email", void 0);
__decorate([
    Text({ required: false, nullable: true, max: 16, pattern: E164_PATTERN, format: 'e164' }),
    __metadata("design:type", Object)
], CustomerUpdateRequest.prototype, "phoneNumber", void 0);
__decorate([
    Text({ required: false, max: 255, pattern: UMA_ADDRESS_PATTERN, format: 'uma-address' }),
    __metadata("design:type", String)
], CustomerUpdateRequest.prototype, "umaAddress", void 0);
__decorate([
    NestedField(() => EndUserTermsConsentRequest, { required: false }),
    __metadata("design:type", EndUserTermsConsentRequest)
], CustomerUpdateRequest.prototype, "endUserTermsConsent", void 0);
/** IndividualCustomerFields + CustomerEdd; every member optional (the reference requires none). */
function IndividualFields(Base, update) {
    const opt = { required: false, nullable: update };
    class Individual extends Base {
        kycStatus;
        fullName;
        birthDate;
        nationality;
        address;
        idType;
        identifier;
        countryOfIssuance;
        sourceOfFundsCategories;
        sourceOfFundsOtherDescription;
        sourceOfWealthCategories;
        sourceOfWealthOtherDescription;
        purposeOfAccount;
        purposeOfAccountOtherDescription;
        expectedMonthlyTransactionCount;
        expectedMonthlyTransactionVolume;
        annualIncomeRange;
        netWorthRange;
        pepStatus;
    }
    __decorate([
        ReadOnlyField(KYC_HINT),
        ApiPropertyOptional({ enum: KYC_STATUSES, readOnly: true }),
        __metadata("design:type", String)
    ], Individual.prototype, "kycStatus", void 0);
    __decorate([
        Text({ ...opt, max: 250, example: 'John Michael Doe' }),
        __metadata("design:type", Object)
    ], Individual.prototype, "fullName", void 0);
    __decorate([
        DateField({ ...opt, notFuture: true, description: 'Date of birth (YYYY-MM-DD)' }),
        __metadata("design:type", Object)
    ], Individual.prototype, "birthDate", void 0);
    __decorate([
        CountryField({ ...opt, description: 'Nationality (ISO 3166-1 alpha-2)' }),
        __metadata("design:type", Object)
    ], Individual.prototype, "nationality", void 0);
    __decorate([
        NestedField(() => AddressDto, opt),
        __metadata("design:type", Object)
    ], Individual.prototype, "address", void 0);
    __decorate([
        EnumField(IDENTIFICATION_TYPES, { ...opt, description: 'Type of `identifier`: SSN or ITIN' }),
        __metadata("design:type", Object)
    ], Individual.prototype, "idType", void 0);
    __decorate([
        Text({
            ...opt,
            max: 11,
            pattern: US_TAX_ID_PATTERN,
            format: 'ssn',
            description: 'Write-only SSN or ITIN (###-##-####); never returned. Needs idType SSN or ITIN.',
        }),
        __metadata("design:type", Object)
    ], Individual.prototype, "identifier", void 0);
    __decorate([
        EnumField(['US'], {
            ...opt,
            description: 'Country that issued the identification: US (SSN and ITIN are US-issued)',
        }),
        __metadata("design:type", Object)
    ], Individual.prototype, "countryOfIssuance", void 0);
    __decorate([
        EnumListField(INDIVIDUAL_SOURCE_OF_FUNDS, opt),
        __metadata("design:type", Object)
    ], Individual.prototype, "sourceOfFundsCategories", void 0);
    __decorate([
        Text({ ...opt, max: 500, description: 'Required when sourceOfFundsCategories includes OTHER' }),
        __metadata("design:type", Object)
    ], Individual.prototype, "sourceOfFundsOtherDescription", void 0);
    __decorate([
        EnumListField(SOURCE_OF_WEALTH, opt),
        __metadata("design:type", Object)
    ], Individual.prototype, "sourceOfWealthCategories", void 0);
    __decorate([
        Text({ ...opt, max: 500, description: 'Required when sourceOfWealthCategories includes OTHER' }),
        __metadata("design:type", Object)
    ], Individual.prototype, "sourceOfWealthOtherDescription", void 0);
    __decorate([
        EnumField(PURPOSE_OF_ACCOUNT, opt),
        __metadata("design:type", Object)
    ], Individual.prototype, "purposeOfAccount", void 0);
    __decorate([
        Text({ ...opt, max: 500, description: 'Required when purposeOfAccount is OTHER' }),
        __metadata("design:type", Object)
    ], Individual.prototype, "purposeOfAccountOtherDescription", void 0);
    __decorate([
        EnumField(MONTHLY_TRANSACTION_COUNTS, opt),
        __metadata("design:type", Object)
    ], Individual.prototype, "expectedMonthlyTransactionCount", void 0);
    __decorate([
        EnumField(MONTHLY_TRANSACTION_VOLUMES, opt),
        __metadata("design:type", Object)
    ], Individual.prototype, "expectedMonthlyTransactionVolume", void 0);
    __decorate([
        EnumField(ANNUAL_INCOME_RANGES, opt),
        __metadata("design:type", Object)
    ], Individual.prototype, "annualIncomeRange", void 0);
    __decorate([
        EnumField(NET_WORTH_RANGES, opt),
        __metadata("design:type", Object)
    ], Individual.prototype, "netWorthRange", void 0);
    __decorate([
        EnumField(PEP_STATUSES, opt),
        __metadata("design:type", Object)
    ], Individual.prototype, "pepStatus", void 0);
    return Individual;
}
/**
 * BusinessInfo (create: legalName, country, taxId, incorporatedOn required) and BusinessInfoUpdate
 * (every member optional; the four required ones cannot be cleared, the others can with null).
 */
function BusinessInfoFields(Base, update) {
    const must = { required: !update };
    const opt = { required: false, nullable: update };
    class BusinessInfoMembers extends Base {
        legalName;
        doingBusinessAs;
        country;
        registrationNumber;
        incorporatedOn;
        entityType;
        taxId;
        countriesOfOperation;
        businessType;
        purposeOfAccount;
        sourceOfFunds;
        expectedMonthlyTransactionCount;
        expectedMonthlyTransactionVolume;
        expectedRecipientJurisdictions;
        naicsCode;
        sourceOfFundsCategories;
        sourceOfFundsOtherDescription;
        purposeOfAccountOtherDescription;
        expectedCounterpartyCountries;
        primaryContactFirstName;
        primaryContactLastName;
    }
    __decorate([
        Text({ ...must, max: 250, example: 'Acme Corporation, Inc.' }),
        __metadata("design:type", String)
    ], BusinessInfoMembers.prototype, "legalName", void 0);
    __decorate([
        Text({ ...opt, max: 250, example: 'Acme' }),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "doingBusinessAs", void 0);
    __decorate([
        CountryField({ ...must, description: 'Country of incorporation (ISO 3166-1 alpha-2)' }),
        __metadata("design:type", String)
    ], BusinessInfoMembers.prototype, "country", void 0);
    __decorate([
        Text({ ...opt, max: 100, example: '5523041' }),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "registrationNumber", void 0);
    __decorate([
        DateField({ ...must, notFuture: true, description: 'Date of incorporation (YYYY-MM-DD)', example: '2018-03-14' }),
        __metadata("design:type", String)
    ], BusinessInfoMembers.prototype, "incorporatedOn", void 0);
    __decorate([
        EnumField(ENTITY_TYPES, opt),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "entityType", void 0);
    __decorate([
        Text({ ...must, max: 100, example: '47-1234567' }),
        __metadata("design:type", String)
    ], BusinessInfoMembers.prototype, "taxId", void 0);
    __decorate([
        CountryListField(opt),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "countriesOfOperation", void 0);
    __decorate([
        EnumField(BUSINESS_TYPES, opt),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "businessType", void 0);
    __decorate([
        EnumField(PURPOSE_OF_ACCOUNT, opt),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "purposeOfAccount", void 0);
    __decorate([
        Text({ ...opt, max: 1000, example: 'Funds derived from customer payments for software services' }),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "sourceOfFunds", void 0);
    __decorate([
        EnumField(MONTHLY_TRANSACTION_COUNTS, opt),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "expectedMonthlyTransactionCount", void 0);
    __decorate([
        EnumField(MONTHLY_TRANSACTION_VOLUMES, opt),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "expectedMonthlyTransactionVolume", void 0);
    __decorate([
        CountryListField(opt),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "expectedRecipientJurisdictions", void 0);
    __decorate([
        StringField({ ...opt, pattern: /^\d{2,6}$/, description: 'NAICS code (2-6 digits)', example: '541511' }),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "naicsCode", void 0);
    __decorate([
        EnumListField(BUSINESS_SOURCE_OF_FUNDS, opt),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "sourceOfFundsCategories", void 0);
    __decorate([
        Text({ ...opt, max: 500, description: 'Required when sourceOfFundsCategories includes OTHER' }),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "sourceOfFundsOtherDescription", void 0);
    __decorate([
        Text({ ...opt, max: 500, description: 'Required when purposeOfAccount is OTHER' }),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "purposeOfAccountOtherDescription", void 0);
    __decorate([
        CountryListField(opt),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "expectedCounterpartyCountries", void 0);
    __decorate([
        Text({ ...opt, max: 250, example: 'Jane' }),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "primaryContactFirstName", void 0);
    __decorate([
        Text({ ...opt, max: 250, example: 'Smith' }),
        __metadata("design:type", Object)
    ], BusinessInfoMembers.prototype, "primaryContactLastName", void 0);
    return BusinessInfoMembers;
}
class Empty {
}
export class BusinessInfo extends BusinessInfoFields(Empty, false) {
}
export class BusinessInfoUpdate extends BusinessInfoFields(Empty, true) {
}
export class IndividualCustomerCreateRequest extends IndividualFields(CustomerCreateRequest, false) {
}
export class IndividualCustomerUpdateRequest extends IndividualFields(CustomerUpdateRequest, true) {
}
export class BusinessCustomerCreateRequest extends CustomerCreateRequest {
    kybStatus;
    address;
    businessInfo;
}
__decorate([
    ReadOnlyField(KYC_HINT),
    ApiPropertyOptional({ enum: KYC_STATUSES, readOnly: true }),
    __metadata("design:type", String)
], BusinessCustomerCreateRequest.prototype, "kybStatus", void 0);
__decorate([
    NestedField(() => AddressDto, { required: false }),
    __metadata("design:type", AddressDto)
], BusinessCustomerCreateRequest.prototype, "address", void 0);
__decorate([
    NestedField(() => BusinessInfo),
    __metadata("design:type", BusinessInfo)
], BusinessCustomerCreateRequest.prototype, "businessInfo", void 0);
export class BusinessCustomerUpdateRequest extends CustomerUpdateRequest {
    kybStatus;
    address;
    businessInfo;
}
__decorate([
    ReadOnlyField(KYC_HINT),
    ApiPropertyOptional({ enum: KYC_STATUSES, readOnly: true }),
    __metadata("design:type", String)
], BusinessCustomerUpdateRequest.prototype, "kybStatus", void 0);
__decorate([
    NestedField(() => AddressDto, {
        required: false,
        nullable: true,
        description: 'Replaces the address; null clears it',
    }),
    __metadata("design:type", Object)
], BusinessCustomerUpdateRequest.prototype, "address", void 0);
__decorate([
    NestedField(() => BusinessInfoUpdate, {
        required: false,
        description: 'Members given replace the stored ones; null clears an optional member',
    }),
    __metadata("design:type", BusinessInfoUpdate)
], BusinessCustomerUpdateRequest.prototype, "businessInfo", void 0);
/** GET /customers filters (reference listCustomers). */
export class ListCustomersQuery extends TimeRangeQuery {
    platformCustomerId;
    customerType;
    region;
    currency;
    umaAddress;
    isIncludingDeleted;
}
__decorate([
    StringField({ required: false, maxLength: 255, description: 'Filter by platform-specific customer identifier' }),
    __metadata("design:type", String)
], ListCustomersQuery.prototype, "platformCustomerId", void 0);
__decorate([
    EnumField(CUSTOMER_TYPES, { required: false }),
    __metadata("design:type", String)
], ListCustomersQuery.prototype, "customerType", void 0);
__decorate([
    StringField({ required: false, maxLength: 2, description: 'Filter by region (ISO 3166-1 alpha-2)' }),
    __metadata("design:type", String)
], ListCustomersQuery.prototype, "region", void 0);
__decorate([
    StringField({ required: false, maxLength: 3, description: 'Customers with this currency in their `currencies`' }),
    __metadata("design:type", String)
], ListCustomersQuery.prototype, "currency", void 0);
__decorate([
    StringField({ required: false, maxLength: 255, description: 'Filter by UMA address (case-insensitive)' }),
    __metadata("design:type", String)
], ListCustomersQuery.prototype, "umaAddress", void 0);
__decorate([
    BoolQuery('Include deleted customers (default false)'),
    __metadata("design:type", Boolean)
], ListCustomersQuery.prototype, "isIncludingDeleted", void 0);
/* ---------- responses (documentation of the rendered shapes) ---------- */
export class AddressView extends AddressDto {
}
export class EndUserTermsConsentView extends EndUserTermsConsentRequest {
}
class CustomerViewBase {
    id;
    platformCustomerId;
    customerType;
    region;
    currencies;
    email;
    phoneNumber;
    umaAddress;
    endUserTermsConsent;
    createdAt;
    updatedAt;
    isDeleted;
}
__decorate([
    ApiProperty({ example: 'Customer:019542f5-b3e7-1d02-0000-000000000001' }),
    __metadata("design:type", String)
], CustomerViewBase.prototype, "id", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], CustomerViewBase.prototype, "platformCustomerId", void 0);
__decorate([
    ApiProperty({ enum: CUSTOMER_TYPES }),
    __metadata("design:type", String)
], CustomerViewBase.prototype, "customerType", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], CustomerViewBase.prototype, "region", void 0);
__decorate([
    ApiProperty({ type: [String] }),
    __metadata("design:type", Array)
], CustomerViewBase.prototype, "currencies", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], CustomerViewBase.prototype, "email", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], CustomerViewBase.prototype, "phoneNumber", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], CustomerViewBase.prototype, "umaAddress", void 0);
__decorate([
    ApiPropertyOptional({ type: EndUserTermsConsentView }),
    __metadata("design:type", EndUserTermsConsentView)
], CustomerViewBase.prototype, "endUserTermsConsent", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], CustomerViewBase.prototype, "createdAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], CustomerViewBase.prototype, "updatedAt", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Boolean)
], CustomerViewBase.prototype, "isDeleted", void 0);
export class IndividualCustomer extends CustomerViewBase {
    kycStatus;
    fullName;
    birthDate;
    nationality;
    address;
    idType;
    countryOfIssuance;
    sourceOfFundsCategories;
    sourceOfFundsOtherDescription;
    sourceOfWealthCategories;
    sourceOfWealthOtherDescription;
    purposeOfAccount;
    purposeOfAccountOtherDescription;
    expectedMonthlyTransactionCount;
    expectedMonthlyTransactionVolume;
    annualIncomeRange;
    netWorthRange;
    pepStatus;
}
__decorate([
    ApiProperty({ enum: KYC_STATUSES }),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "kycStatus", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "fullName", void 0);
__decorate([
    ApiPropertyOptional({ format: 'date' }),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "birthDate", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "nationality", void 0);
__decorate([
    ApiPropertyOptional({ type: AddressView }),
    __metadata("design:type", AddressView)
], IndividualCustomer.prototype, "address", void 0);
__decorate([
    ApiPropertyOptional({ enum: IDENTIFICATION_TYPES }),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "idType", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "countryOfIssuance", void 0);
__decorate([
    ApiPropertyOptional({ enum: INDIVIDUAL_SOURCE_OF_FUNDS, isArray: true }),
    __metadata("design:type", Array)
], IndividualCustomer.prototype, "sourceOfFundsCategories", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "sourceOfFundsOtherDescription", void 0);
__decorate([
    ApiPropertyOptional({ enum: SOURCE_OF_WEALTH, isArray: true }),
    __metadata("design:type", Array)
], IndividualCustomer.prototype, "sourceOfWealthCategories", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "sourceOfWealthOtherDescription", void 0);
__decorate([
    ApiPropertyOptional({ enum: PURPOSE_OF_ACCOUNT }),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "purposeOfAccount", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "purposeOfAccountOtherDescription", void 0);
__decorate([
    ApiPropertyOptional({ enum: MONTHLY_TRANSACTION_COUNTS }),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "expectedMonthlyTransactionCount", void 0);
__decorate([
    ApiPropertyOptional({ enum: MONTHLY_TRANSACTION_VOLUMES }),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "expectedMonthlyTransactionVolume", void 0);
__decorate([
    ApiPropertyOptional({ enum: ANNUAL_INCOME_RANGES }),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "annualIncomeRange", void 0);
__decorate([
    ApiPropertyOptional({ enum: NET_WORTH_RANGES }),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "netWorthRange", void 0);
__decorate([
    ApiPropertyOptional({ enum: PEP_STATUSES }),
    __metadata("design:type", String)
], IndividualCustomer.prototype, "pepStatus", void 0);
export class BusinessCustomer extends CustomerViewBase {
    kybStatus;
    kycStatus;
    address;
    businessInfo;
}
__decorate([
    ApiProperty({ enum: KYC_STATUSES, description: 'KYB status (reference name)' }),
    __metadata("design:type", String)
], BusinessCustomer.prototype, "kybStatus", void 0);
__decorate([
    ApiProperty({ enum: KYC_STATUSES, description: 'Same value as kybStatus (ours: one name for every customer)' }),
    __metadata("design:type", String)
], BusinessCustomer.prototype, "kycStatus", void 0);
__decorate([
    ApiPropertyOptional({ type: AddressView }),
    __metadata("design:type", AddressView)
], BusinessCustomer.prototype, "address", void 0);
__decorate([
    ApiProperty({ type: BusinessInfo }),
    __metadata("design:type", BusinessInfo)
], BusinessCustomer.prototype, "businessInfo", void 0);
//# sourceMappingURL=customer.dto.js.map