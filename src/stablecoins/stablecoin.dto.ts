import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { PageQuery } from '../common/pagination.js';
import { presence } from '../common/validation.js';
import { EnumField, IdField, NestedField, StringField } from '../common/validation.js';
import {
  BURN_SOURCE_TYPES,
  GRID_OPERATIONS_STATUSES,
  ISSUANCE_STATUSES,
  MINT_FUNDING_TYPES,
  OPERATION_STATUSES,
  OPERATION_TYPES,
  OPERATOR_GRID_STATUSES,
  PAYOUT_RAILS,
  PROVIDER_ACCOUNT_STATUSES,
  PROVIDER_ENVIRONMENTS,
  STABLECOIN_NETWORKS,
  STABLECOIN_PROVIDERS,
} from './stablecoin.types.js';
import type {
  BurnSourceType,
  GridOperationsStatus,
  IssuanceStatus,
  MintFundingType,
  OperationDestination,
  OperationSource,
  OperationStatus,
  OperationType,
  OperatorGridStatus,
  PayoutRail,
  ProviderAccountStatus,
  ProviderEnvironment,
  StablecoinNetwork,
  StablecoinProviderName,
} from './stablecoin.types.js';

const AMOUNT = /^[0-9]+$/;
const ACCOUNT_REF =
  /^(ExternalAccount|InternalAccount):[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

// ---- responses (the reference's schemas) ----

export class StablecoinProviderAccount {
  @ApiProperty({ example: 'StablecoinProviderAccount:019542f5-b3e7-1d02-0000-000000000001' }) id: string;
  @ApiProperty({ enum: STABLECOIN_PROVIDERS }) provider: StablecoinProviderName;
  @ApiProperty({ example: '2VcUIonJeVQzFoBuC7LdFT0dRe4' }) providerAccountId: string;
  @ApiProperty({ enum: PROVIDER_ENVIRONMENTS }) providerEnvironment: ProviderEnvironment;
  @ApiProperty({ enum: PROVIDER_ACCOUNT_STATUSES }) status: ProviderAccountStatus;
  @ApiPropertyOptional({ format: 'date-time' }) lastVerifiedAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class Stablecoin {
  @ApiProperty({ example: 'Stablecoin:019542f5-b3e7-1d02-0000-000000000002' }) id: string;
  @ApiProperty({ example: 'Acme Dollar' }) name: string;
  @ApiProperty({ example: 'ACME' }) symbol: string;
  @ApiProperty({ example: 'USD' }) baseCurrency: string;
  @ApiProperty({ enum: STABLECOIN_NETWORKS }) network: StablecoinNetwork;
  @ApiProperty({ example: 6 }) decimals: number;
  @ApiProperty({ enum: ISSUANCE_STATUSES }) issuanceStatus: IssuanceStatus;
  @ApiProperty({ enum: GRID_OPERATIONS_STATUSES }) gridOperationsStatus: GridOperationsStatus;
  @ApiProperty({ example: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k' }) networkTokenIdentifier: string;
  @ApiPropertyOptional({ description: 'Grid currency code; present once the coin is ENABLED', example: 'ACME' })
  currency?: string;
  @ApiProperty({ enum: STABLECOIN_PROVIDERS }) provider: StablecoinProviderName;
  @ApiProperty() stablecoinProviderAccountId: string;
  @ApiProperty({ enum: PROVIDER_ENVIRONMENTS }) providerEnvironment: ProviderEnvironment;
  @ApiProperty({ example: 'ACME' }) providerTokenIdentifier: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class StablecoinOperationSourceDoc {
  @ApiProperty({ enum: [...MINT_FUNDING_TYPES, 'EXTERNAL_ACCOUNT'] }) type: string;
  @ApiPropertyOptional() externalAccountId?: string;
  @ApiPropertyOptional() accountId?: string;
  @ApiPropertyOptional() sourceTokenIdentifier?: string;
  @ApiPropertyOptional() cryptoNetwork?: string;
}

export class StablecoinOperationDestinationDoc {
  @ApiProperty() accountId: string;
  @ApiPropertyOptional({ enum: PAYOUT_RAILS }) rail?: PayoutRail;
}

export class StablecoinOperation {
  @ApiProperty({ example: 'StablecoinOperation:019542f5-b3e7-1d02-0000-000000000301' }) id: string;
  @ApiProperty() stablecoinId: string;
  @ApiProperty({ enum: OPERATION_TYPES }) operationType: OperationType;
  @ApiProperty({ enum: OPERATION_STATUSES }) status: OperationStatus;
  @ApiProperty({ example: '1000000', description: "In the stablecoin's smallest unit" }) amount: string;
  @ApiProperty({ enum: STABLECOIN_PROVIDERS }) provider: StablecoinProviderName;
  @ApiProperty({ enum: PROVIDER_ENVIRONMENTS }) providerEnvironment: ProviderEnvironment;
  @ApiProperty() stablecoinProviderAccountId: string;
  @ApiPropertyOptional({ type: StablecoinOperationSourceDoc }) source?: OperationSource;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) fundingInstructions?: Record<string, string>;
  @ApiPropertyOptional({ type: StablecoinOperationDestinationDoc }) destination?: OperationDestination;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) estimatedDelivery?: Record<string, string>;
  @ApiPropertyOptional({ format: 'date-time' }) expiresAt?: string;
  @ApiPropertyOptional() providerStatus?: string;
  @ApiPropertyOptional() failureReason?: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

// ---- requests ----

export class StablecoinProviderAccountLinkRequest {
  @EnumField(STABLECOIN_PROVIDERS) provider: StablecoinProviderName;
  @StringField({ minLength: 1, maxLength: 255, example: 'provider_client_123' }) apiClientId: string;
  @StringField({ minLength: 1, maxLength: 1024, description: 'Stored sealed; never returned' }) apiClientSecret: string;
  @StringField({ required: false, minLength: 1, maxLength: 255 }) providerAccountId?: string;
}

export class StablecoinRegisterRequest {
  @StringField({ minLength: 1, maxLength: 255, example: 'ACME' }) providerTokenIdentifier: string;
  @StringField({ minLength: 1, maxLength: 255, example: 'btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k' })
  networkTokenIdentifier: string;
  @EnumField(STABLECOIN_NETWORKS) network: StablecoinNetwork;
  @IdField('StablecoinProviderAccount', { required: false }) stablecoinProviderAccountId?: string;
}

/** `fundingSource` / `source` before its variant is known: an object with a `type`. */
function VariantObject(types: readonly string[], description: string): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    for (const d of presence(true, false)) d(target, key);
    IsObject({ message: '$property must be an object' })(target, key);
    ApiProperty({
      type: 'object',
      description: `${description} (one of: ${types.join(', ')}, chosen by \`type\`)`,
      additionalProperties: true,
    })(target, key);
  };
}

export class StablecoinMintDestination {
  @StringField({
    pattern: ACCOUNT_REF,
    format: 'ExternalAccount:<uuid> or InternalAccount:<uuid>',
    description: 'A SPARK_WALLET external account of the platform (InternalAccount: embedded wallets, not yet)',
  })
  accountId: string;
}

export class StablecoinMintRequest {
  @StringField({ pattern: AMOUNT, format: 'string of digits', maxLength: 16, example: '1000000' }) amount: string;
  @VariantObject(MINT_FUNDING_TYPES, 'How the mint is funded') fundingSource: Record<string, unknown>;
  @NestedField(() => StablecoinMintDestination) destination: StablecoinMintDestination;
  @StringField({ required: false, maxLength: 1024 }) description?: string;
}

export class WireFundingSource {
  @EnumField(['WIRE']) type: MintFundingType;
}
export class AchDebitFundingSource {
  @EnumField(['ACH_DEBIT', 'SAME_DAY_ACH_DEBIT']) type: MintFundingType;
  @IdField('ExternalAccount') externalAccountId: string;
}
export class GridInternalSource {
  @EnumField(['GRID_INTERNAL_ACCOUNT']) type: MintFundingType | BurnSourceType;
  @IdField('InternalAccount') accountId: string;
}
export class ProviderBalanceFundingSource {
  @EnumField(['PROVIDER_INTERNAL_BALANCE']) type: MintFundingType;
  @StringField({ minLength: 1, maxLength: 64 }) sourceTokenIdentifier: string;
  @StringField({ minLength: 1, maxLength: 64 }) cryptoNetwork: string;
}
export class TypeOnlySource {
  @EnumField(['EXTERNAL_ACCOUNT', 'PROVIDER_INTERNAL_BALANCE']) type: BurnSourceType;
}

export class StablecoinBurnDestination {
  @EnumField(['EXTERNAL_ACCOUNT']) type: 'EXTERNAL_ACCOUNT';
  @IdField('ExternalAccount', { description: 'A bank account of the platform in the coin’s baseCurrency' })
  externalAccountId: string;
  @EnumField(PAYOUT_RAILS) rail: PayoutRail;
}

export class StablecoinBurnRequest {
  @StringField({ pattern: AMOUNT, format: 'string of digits', maxLength: 16, example: '1000000' }) amount: string;
  @VariantObject(BURN_SOURCE_TYPES, 'Where the burned coins come from') source: Record<string, unknown>;
  @NestedField(() => StablecoinBurnDestination) destination: StablecoinBurnDestination;
  @StringField({ required: false, maxLength: 1024 }) description?: string;
}

export class GridOperationsStatusRequest {
  @EnumField(OPERATOR_GRID_STATUSES) gridOperationsStatus: OperatorGridStatus;
}

export class ProviderAccountStatusRequest {
  @EnumField(PROVIDER_ACCOUNT_STATUSES, { description: 'What the provider reports about the credentials' })
  status: ProviderAccountStatus;
}

// ---- queries ----

export class ListProviderAccountsQuery extends PageQuery {
  @EnumField(STABLECOIN_PROVIDERS, { required: false }) provider?: StablecoinProviderName;
  @EnumField(PROVIDER_ACCOUNT_STATUSES, { required: false }) status?: ProviderAccountStatus;
}

export class ListStablecoinsQuery extends PageQuery {
  @EnumField(ISSUANCE_STATUSES, { required: false }) issuanceStatus?: IssuanceStatus;
  @EnumField(GRID_OPERATIONS_STATUSES, { required: false }) gridOperationsStatus?: GridOperationsStatus;
  @EnumField(STABLECOIN_PROVIDERS, { required: false }) provider?: StablecoinProviderName;
}

export class ListOperationsQuery extends PageQuery {
  @EnumField(OPERATION_TYPES, { required: false }) operationType?: OperationType;
}
