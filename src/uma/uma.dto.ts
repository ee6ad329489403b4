import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DateTimeQuery, PageQuery } from '../common/pagination.js';
import { IntField, MAX_SAFE_MINOR_UNITS, StringField } from '../common/validation.js';

export class ReceiverLookupQuery {
  @StringField({
    required: false,
    maxLength: 300,
    description: 'UMA address of the sender (optional if customerId is provided)',
  })
  senderUmaAddress?: string;

  @StringField({
    required: false,
    maxLength: 100,
    description: 'System ID of the sender (optional if senderUmaAddress is provided)',
  })
  customerId?: string;
}

export class CurrencyDto {
  @ApiProperty({ example: 'USD' }) code: string;
  @ApiProperty({ example: 'United States Dollar' }) name: string;
  @ApiProperty({ example: '$' }) symbol: string;
  @ApiProperty({ example: 2 }) decimals: number;
}

export class CurrencyPreferenceDto {
  @ApiProperty({ type: CurrencyDto }) currency: CurrencyDto;
  @ApiProperty({ example: 0.92 }) estimatedExchangeRate: number;
  @ApiProperty({ example: 1 }) min: number;
  @ApiProperty({ example: 100000000 }) max: number;
}

export class CounterpartyFieldDefinitionDto {
  @ApiProperty({ example: 'FULL_NAME' }) name: string;
  @ApiProperty() mandatory: boolean;
}

export class ReceiverUmaLookupResponse {
  @ApiProperty({ example: '$receiver@uma.domain' }) receiverUmaAddress: string;
  @ApiProperty({ example: 'Lookup:019542f5-b3e7-1d02-0000-000000000009' }) lookupId: string;
  @ApiProperty({ type: [CurrencyPreferenceDto] }) supportedCurrencies: CurrencyPreferenceDto[];
  @ApiProperty({ type: [CounterpartyFieldDefinitionDto] }) requiredPayerDataFields: CounterpartyFieldDefinitionDto[];
}

export class ReceiverExternalAccountLookupResponse {
  @ApiProperty({ example: 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965' }) accountId: string;
  @ApiProperty({ example: 'Lookup:019542f5-b3e7-1d02-0000-000000000009' }) lookupId: string;
  @ApiProperty({ type: [CurrencyPreferenceDto] }) supportedCurrencies: CurrencyPreferenceDto[];
  @ApiProperty({ type: [CounterpartyFieldDefinitionDto] }) requiredPayerDataFields: CounterpartyFieldDefinitionDto[];
}

export class UmaInvitationCreateRequest {
  @StringField({
    maxLength: 300,
    description: 'The UMA address of the customer creating the invitation',
    example: '$inviter@uma.domain',
  })
  inviterUma: string;

  @StringField({
    required: false,
    minLength: 1,
    maxLength: 100,
    description: 'First name to show as part of the invite',
  })
  firstName?: string;

  @IntField({
    required: false,
    min: 1,
    max: MAX_SAFE_MINOR_UNITS,
    description: "Amount to send on claim, smallest unit of the inviter's currency",
  })
  amountToSend?: number;

  @DateTimeQuery('When the invitation expires (if at all); in the future')
  expiresAt?: string;
}

export class UmaInvitationClaimRequest {
  @StringField({
    maxLength: 300,
    description: 'The UMA address of the customer claiming the invitation',
    example: '$invitee@uma.domain',
  })
  inviteeUma: string;
}

export class CurrencyAmountDto {
  @ApiProperty({ example: 12550 }) amount: number;
  @ApiProperty({ type: CurrencyDto }) currency: CurrencyDto;
}

export class UmaInvitation {
  @ApiProperty({ example: '019542f5' }) code: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) claimedAt?: string;
  @ApiProperty({ example: 'https://uma.me/i/019542f5' }) url: string;
  @ApiPropertyOptional({ format: 'date-time' }) expiresAt?: string;
  @ApiProperty({ example: '$inviter@uma.domain' }) inviterUma: string;
  @ApiPropertyOptional({ example: '$invitee@uma.domain' }) inviteeUma?: string;
  @ApiProperty({ enum: ['PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED'] }) status: string;
  @ApiPropertyOptional() firstName?: string;
  @ApiPropertyOptional({ type: CurrencyAmountDto }) amountToSend?: CurrencyAmountDto;
}

export class UmaProvidersQuery extends PageQuery {
  @StringField({ required: false, pattern: /^[A-Z]{2}$/, description: 'ISO 3166-1 alpha-2 country' })
  countryCode?: string;

  @StringField({ required: false, pattern: /^[A-Z]{3,5}$/, description: 'Supported currency' })
  currencyCode?: string;

  @StringField({
    required: false,
    pattern: /^(true|false)$/,
    description: 'Include providers not on your allow list (default true)',
  })
  hasBlockedProviders?: string;

  @StringField({ required: false, pattern: /^(asc|desc)$/, description: 'asc or desc (default desc)' })
  sortOrder?: string;
}

export class UmaProvider {
  @ApiProperty() name: string;
  @ApiProperty({ type: [String] }) supportedRegions: string[];
  @ApiProperty() domain: string;
  @ApiProperty({ type: [CurrencyDto] }) supportedCurrencies: CurrencyDto[];
  @ApiProperty() allowListStatus: boolean;
}
