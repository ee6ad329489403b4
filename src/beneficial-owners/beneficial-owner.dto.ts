import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { PageQuery } from '../common/pagination.js';
import { IdField, IntField, NestedField, presence } from '../common/validation.js';
import { CountryField, DateField, Text } from '../customers/customer-fields.js';
import { AddressDto, AddressView, E164_PATTERN, EMAIL_PATTERN } from '../customers/customer.dto.js';
import { IDENTIFICATION_TYPES, KYC_STATUSES } from '../customers/customer.types.js';
import type { KycStatus } from '../customers/customer.types.js';
import { EnumField } from '../common/validation.js';

export const BENEFICIAL_OWNER_ROLES = [
  'UBO',
  'DIRECTOR',
  'COMPANY_OFFICER',
  'CONTROL_PERSON',
  'TRUSTEE',
  'GENERAL_PARTNER',
] as const;

function RolesField(required: boolean): PropertyDecorator {
  const list = [...BENEFICIAL_OWNER_ROLES];
  return applyDecorators(
    ...presence(required, false),
    IsArray({ message: '$property must be an array' }),
    ArrayMinSize(1, { message: '$property must name at least one role' }),
    ArrayMaxSize(list.length, { message: `$property must list at most ${list.length} roles` }),
    IsIn(list, { each: true, context: { enum: list }, message: `$property must contain only: ${list.join(', ')}` }),
    (required ? ApiProperty : ApiPropertyOptional)({ enum: list, isArray: true, example: ['UBO', 'DIRECTOR'] }),
  );
}

function PersonalInfoFields(optional: boolean) {
  const opt = { required: !optional };
  class PersonalInfo {
    @Text({ ...opt, max: 100, example: 'Jane' }) firstName?: string;
    @Text({ required: false, max: 100, example: 'Marie' }) middleName?: string;
    @Text({ ...opt, max: 100, example: 'Smith' }) lastName?: string;
    @DateField({ ...opt, notFuture: true, description: 'Date of birth (YYYY-MM-DD)' }) birthDate?: string;
    @CountryField({ ...opt, description: 'Nationality (ISO 3166-1 alpha-2)' }) nationality?: string;
    @Text({ required: false, max: 255, pattern: EMAIL_PATTERN, format: 'email' }) email?: string;
    @Text({ required: false, max: 16, pattern: E164_PATTERN, format: 'E.164 phone number' }) phoneNumber?: string;
    @NestedField(() => AddressDto, opt) address?: AddressDto;
    @EnumField(IDENTIFICATION_TYPES, opt) idType?: string;
    @Text({
      ...opt,
      max: 64,
      description: 'Identification number: sealed at rest, answered masked',
      example: '123-45-6789',
    })
    identifier?: string;
    @CountryField({ required: false, description: 'Country that issued the identification' })
    countryOfIssuance?: string;
  }
  return PersonalInfo;
}

export class BeneficialOwnerPersonalInfo extends PersonalInfoFields(false) {}
export class BeneficialOwnerPersonalInfoUpdate extends PersonalInfoFields(true) {}

export class BeneficialOwnerCreateRequest {
  @IdField('Customer', { description: 'The BUSINESS customer' })
  customerId: string;

  @RolesField(true)
  roles: string[];

  @IntField({ min: 0, max: 100, description: 'Percentage of ownership in the business (0-100)' })
  ownershipPercentage: number;

  @NestedField(() => BeneficialOwnerPersonalInfo)
  personalInfo: BeneficialOwnerPersonalInfo;
}

export class BeneficialOwnerUpdateRequest {
  @RolesField(false)
  roles?: string[];

  @IntField({ min: 0, max: 100, required: false })
  ownershipPercentage?: number;

  @NestedField(() => BeneficialOwnerPersonalInfoUpdate, { required: false })
  personalInfo?: BeneficialOwnerPersonalInfoUpdate;
}

export class ListBeneficialOwnersQuery extends PageQuery {
  @IdField('Customer', { description: 'The business customer' })
  customerId: string;
}

export class BeneficialOwnerPersonalInfoView {
  @ApiProperty() firstName: string;
  @ApiPropertyOptional() middleName?: string;
  @ApiProperty() lastName: string;
  @ApiProperty({ format: 'date' }) birthDate: string;
  @ApiProperty() nationality: string;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() phoneNumber?: string;
  @ApiProperty({ type: AddressView }) address: AddressView;
  @ApiProperty({ enum: IDENTIFICATION_TYPES }) idType: string;
  @ApiProperty({ description: 'Masked: only the last 4 characters are shown', example: '*******6789' })
  identifier: string;
  @ApiPropertyOptional() countryOfIssuance?: string;
}

export class BeneficialOwner {
  @ApiProperty({ example: 'BeneficialOwner:019542f5-b3e7-1d02-0000-000000000001' }) id: string;
  @ApiProperty() customerId: string;
  @ApiProperty({ enum: BENEFICIAL_OWNER_ROLES, isArray: true }) roles: string[];
  @ApiProperty() ownershipPercentage: number;
  @ApiProperty({ type: BeneficialOwnerPersonalInfoView }) personalInfo: BeneficialOwnerPersonalInfoView;
  @ApiProperty({ enum: KYC_STATUSES }) kycStatus: KycStatus;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
