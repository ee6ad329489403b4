import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageQuery } from '../common/pagination.js';
import { EnumField, IdField, StringField } from '../common/validation.js';
import { INTERNAL_ACCOUNT_STATUSES, INTERNAL_ACCOUNT_TYPES } from './customer.types.js';
import type { InternalAccountStatus, InternalAccountType } from './customer.types.js';

export class ListPlatformInternalAccountsQuery {
  @StringField({ required: false, maxLength: 10, description: 'Filter by currency code' })
  currency?: string;

  @EnumField(INTERNAL_ACCOUNT_TYPES, { required: false, description: 'Filter by internal account type' })
  type?: InternalAccountType;
}

export class ListCustomerInternalAccountsQuery extends PageQuery {
  @StringField({ required: false, maxLength: 10, description: 'Filter by currency code' })
  currency?: string;

  @IdField('Customer', { required: false, description: 'Accounts of this customer' })
  customerId?: string;

  @EnumField(INTERNAL_ACCOUNT_TYPES, { required: false, description: 'Filter by internal account type' })
  type?: InternalAccountType;
}

export class CurrencyView {
  @ApiProperty({ example: 'USD' }) code: string;
  @ApiProperty({ example: 'US Dollar' }) name: string;
  @ApiProperty({ example: '$' }) symbol: string;
  @ApiProperty({ example: 2, description: 'ISO 4217 minor-unit exponent' }) decimals: number;
}

export class CurrencyAmount {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Minor units (e.g. cents)', example: 12550 })
  amount: number;
  @ApiProperty({ type: CurrencyView }) currency: CurrencyView;
}

export class InternalAccount {
  @ApiProperty({ example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000002' }) id: string;
  @ApiPropertyOptional({ description: 'Absent for the platform’s own accounts' }) customerId?: string;
  @ApiProperty({ enum: INTERNAL_ACCOUNT_TYPES }) type: InternalAccountType;
  @ApiProperty({ enum: INTERNAL_ACCOUNT_STATUSES }) status: InternalAccountStatus;
  @ApiProperty({
    type: CurrencyAmount,
    description: 'Available to spend: totalBalance minus held funds (open card authorizations)',
  })
  balance: CurrencyAmount;
  @ApiProperty({ type: CurrencyAmount, description: 'Including held funds (the ledger balance)' })
  totalBalance: CurrencyAmount;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty here' })
  fundingPaymentInstructions: unknown[];
  @ApiPropertyOptional({ description: 'Wallet privacy: only present for EMBEDDED_WALLET accounts' })
  privateEnabled?: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class PlatformInternalAccountListResponse {
  @ApiProperty({ type: [InternalAccount] }) data: InternalAccount[];
}
