import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { PageQuery } from '../common/pagination.js';
import { BoolField, EnumField, IdField, StringField } from '../common/validation.js';
import { accountInfoProperty } from '../openapi/account-info-schemas.js';
import { BENEFICIARY_VERIFICATION_STATUSES } from './variants/index.js';
import { EXTERNAL_ACCOUNT_STATUSES, OWNERSHIP_TYPES } from './external-account.entity.js';
import type { ExternalAccountStatus, OwnershipType } from './external-account.entity.js';

export class PlatformExternalAccountCreateRequest {
  @StringField({
    minLength: 3,
    maxLength: 8,
    pattern: /^[A-Z0-9]{3,8}$/,
    format: 'iso4217',
    description: 'ISO 4217 code (or the crypto asset for wallets); must fit the accountType',
    example: 'USD',
  })
  currency: string;

  @StringField({ required: false, minLength: 1, maxLength: 255, description: "The platform's own identifier" })
  platformAccountId?: string;

  @EnumField(OWNERSHIP_TYPES, {
    required: false,
    description: 'Required for self-custody wallets on platforms with counterparty requirements',
  })
  ownershipType?: OwnershipType;

  /** Validated by the declarative variant layer (src/external-accounts/variants). */
  @Allow()
  @ApiProperty(accountInfoProperty('create'))
  accountInfo: unknown;
}

export class CustomerExternalAccountCreateRequest extends PlatformExternalAccountCreateRequest {
  @IdField('Customer', { description: 'The customer who owns the account' })
  customerId: string;

  @BoolField({ required: false, description: 'Make this the default UMA deposit account (moves the flag)' })
  defaultUmaDepositAccount?: boolean;
}

export class ListPlatformExternalAccountsQuery extends PageQuery {
  @StringField({ required: false, maxLength: 8, description: 'Filter by currency code' })
  currency?: string;
}

export class ListCustomerExternalAccountsQuery extends ListPlatformExternalAccountsQuery {
  @IdField('Customer', { required: false, description: 'Filter by customer' })
  customerId?: string;
}

export class ExternalAccount {
  @ApiProperty({ example: 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965' }) id: string;
  @ApiProperty({ nullable: true, type: String }) customerId: string | null;
  @ApiProperty({ enum: EXTERNAL_ACCOUNT_STATUSES }) status: ExternalAccountStatus;
  @ApiPropertyOptional() platformAccountId?: string;
  @ApiPropertyOptional({ enum: OWNERSHIP_TYPES }) ownershipType?: OwnershipType;
  @ApiProperty() currency: string;
  @ApiProperty() defaultUmaDepositAccount: boolean;
  @ApiPropertyOptional({ enum: BENEFICIARY_VERIFICATION_STATUSES }) beneficiaryVerificationStatus?: string;
  @ApiPropertyOptional({ type: 'object', properties: { fullName: { type: 'string' } } })
  beneficiaryVerifiedData?: { fullName?: string };
  @ApiProperty(accountInfoProperty('response'))
  accountInfo: Record<string, unknown>;
}

export const OWNERSHIP_VERIFICATION_METHODS = ['WALLET_SIGNATURE', 'LIVENESS'] as const;
export type OwnershipVerificationMethod = (typeof OWNERSHIP_VERIFICATION_METHODS)[number];

/** Reference `OwnershipChallengeRequest`. */
export class OwnershipChallengeRequest {
  @EnumField(OWNERSHIP_VERIFICATION_METHODS, { description: 'The verification method to use for this challenge' })
  method: OwnershipVerificationMethod;
}

/** Reference `WalletSignatureChallenge` (the `OwnershipChallenge` this service issues). */
export class OwnershipChallenge {
  @ApiProperty({ enum: ['WALLET_SIGNATURE'] }) method: 'WALLET_SIGNATURE';
  @ApiProperty({ description: 'The exact message the wallet must sign, character for character' })
  messageToSign: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

/** Reference `OwnershipVerifyRequest`. */
export class OwnershipVerifyRequest {
  @StringField({
    minLength: 1,
    maxLength: 1024,
    description: 'The signature over the exact messageToSign: EIP-191 hex for EVM chains, base58 Ed25519 for Solana',
  })
  signature: string;

  @EnumField(['bip137', 'electrum'], {
    required: false,
    description: 'Bitcoin message-signing format; ignored for non-Bitcoin chains',
  })
  signatureScheme?: 'bip137' | 'electrum';
}
