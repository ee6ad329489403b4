import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageOf, PageQuery } from '../common/pagination.js';
import { IdField, IntField, MAX_SAFE_MINOR_UNITS, NestedField, StringField } from '../common/validation.js';
import { CurrencyAmount } from '../customers/internal-account.dto.js';
import { CARD_DECLINED_REASONS, CARD_TRANSACTION_STATUSES, TRANSACTION_DIRECTIONS } from './card-transaction.entity.js';
import type { CardDeclinedReason, CardTransactionStatus, TransactionDirection } from './card-transaction.entity.js';

/** The reference's CardMerchant. On the simulations the descriptor is 1 to 25 characters (the acceptor-name width). */
export class CardMerchant {
  @StringField({
    minLength: 1,
    maxLength: 25,
    description: 'Merchant descriptor; its last three characters drive the sandbox outcome (002, 003, 005, 006)',
    example: 'BLUE BOTTLE COFFEE SF',
  })
  descriptor: string;

  @StringField({
    required: false,
    pattern: /^[0-9]{4}$/,
    format: 'mcc',
    description: 'Merchant Category Code (ISO 18245)',
    example: '5814',
  })
  mcc?: string;

  @StringField({
    required: false,
    minLength: 1,
    maxLength: 100,
    description: 'Merchant city',
    example: 'San Francisco',
  })
  city?: string;

  @StringField({
    required: false,
    minLength: 1,
    maxLength: 100,
    description: 'Merchant state or region',
    example: 'CA',
  })
  state?: string;

  @StringField({
    required: false,
    pattern: /^[A-Z]{2}$/,
    format: 'ISO 3166-1 alpha-2',
    description: 'Merchant country',
    example: 'US',
  })
  country?: string;
}

/** The reference's Currency as a request member: `{code}`. */
export class CurrencyCode {
  @StringField({ pattern: /^[A-Z]{3,4}$/, format: 'currency code', description: 'ISO 4217 code', example: 'USD' })
  code: string;
}

/** Reference SandboxCardAuthorizationRequest. */
export class SandboxCardAuthorizationRequest {
  @IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, description: 'Authorization amount in minor units' })
  amount: number;

  @NestedField(() => CurrencyCode, { description: "The card's currency" })
  currency: CurrencyCode;

  @NestedField(() => CardMerchant)
  merchant: CardMerchant;
}

/** Reference SandboxCardBalanceInquiryRequest: a 0-amount authorization, so no amount. */
export class SandboxCardBalanceInquiryRequest {
  @NestedField(() => CardMerchant)
  merchant: CardMerchant;
}

/** Reference SandboxCardAuthorizationAdviceRequest: the new total of an open authorization. */
export class SandboxCardAdviceRequest {
  @IdField('Transaction', { description: 'The card transaction to re-size (AUTHORIZED or PARTIALLY_SETTLED)' })
  cardTransactionId: string;

  @IntField({
    min: 1,
    max: MAX_SAFE_MINOR_UNITS,
    description: 'The new total authorized amount in minor units (not below what has settled)',
  })
  amount: number;
}

/** Reference SandboxCardClearingRequest: an amount of 0 acts as an authorization expiry. */
export class SandboxCardClearingRequest {
  @IdField('Transaction', { description: 'The card transaction to clear (AUTHORIZED or PARTIALLY_SETTLED)' })
  cardTransactionId: string;

  @IntField({
    min: 0,
    max: MAX_SAFE_MINOR_UNITS,
    description: 'Clearing amount in minor units; 0 expires the authorization',
  })
  amount: number;
}

/** Reference SandboxCardReturnRequest. */
export class SandboxCardReturnRequest {
  @IdField('Transaction', { description: 'The settled card transaction to refund against' })
  cardTransactionId: string;

  @IntField({
    min: 1,
    max: MAX_SAFE_MINOR_UNITS,
    description: 'Return amount in minor units, at most the net settled amount (settled minus refunded)',
  })
  amount: number;
}

/** Reference SandboxCardReversalRequest. */
export class SandboxCardReversalRequest {
  @IdField('Transaction', { description: 'The authorization to reverse; nothing may have settled against it' })
  cardTransactionId: string;

  @IntField({
    min: 1,
    max: MAX_SAFE_MINOR_UNITS,
    required: false,
    description: 'How much to reverse (omitted: all of it)',
  })
  amount?: number;
}

/** Reference SandboxCardTransactionRefRequest (authorization_expiry, return_reversal). */
export class SandboxCardTransactionRefRequest {
  @IdField('Transaction', {
    description: 'The card transaction to act on: the open authorization to expire, or the return (CREDIT) to reverse',
  })
  cardTransactionId: string;
}

export class CardMerchantView {
  @ApiProperty() descriptor: string;
  @ApiPropertyOptional() mcc?: string;
  @ApiPropertyOptional() city?: string;
  @ApiPropertyOptional() state?: string;
  @ApiPropertyOptional() country?: string;
}

/** The reference's CardTransaction. */
export class CardTransaction {
  @ApiProperty({ enum: ['CARD'] }) type: 'CARD';
  @ApiProperty({ example: 'Transaction:019542f5-b3e7-1d02-0000-000000000100' }) id: string;
  @ApiProperty({ example: 'Card:019542f5-b3e7-1d02-0000-000000000010' }) cardId: string;
  @ApiProperty() customerId: string;
  @ApiProperty() platformCustomerId: string;
  @ApiProperty() issuerTransactionToken: string;
  @ApiProperty({ enum: CARD_TRANSACTION_STATUSES }) status: CardTransactionStatus;
  @ApiPropertyOptional({ enum: CARD_DECLINED_REASONS, description: 'Present only when status is DECLINED' })
  cardDeclinedReason?: CardDeclinedReason;
  @ApiProperty({ enum: TRANSACTION_DIRECTIONS }) direction: TransactionDirection;
  @ApiPropertyOptional({ description: 'On a return (CREDIT): the purchase it credits back against' })
  originalTransactionId?: string;
  @ApiProperty({ description: 'The merchant descriptor' }) description: string;
  @ApiProperty({ type: CardMerchantView }) merchant: CardMerchantView;
  @ApiProperty({
    type: CurrencyAmount,
    description: 'Still authorized: the authorization minus reversals and expiries',
  })
  authorizedAmount: CurrencyAmount;
  @ApiPropertyOptional({ type: CurrencyAmount, description: 'Sum of the clearings (absent before the first)' })
  settledAmount?: CurrencyAmount;
  @ApiPropertyOptional({
    type: CurrencyAmount,
    description: 'Sum of the returns against this purchase (absent when none)',
  })
  refundedAmount?: CurrencyAmount;
  @ApiProperty() accountId: string;
  @ApiProperty({ format: 'date-time' }) authorizedAt: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** Reference SandboxCardSimulationResponse, plus the resulting card transaction (ours). */
export class SandboxCardSimulationResponse {
  @ApiProperty({ description: "The sandbox issuer's token for the simulated event" }) issuerTransactionToken: string;
  @ApiProperty({ type: CardTransaction, description: 'The card transaction as the simulation left it (ours)' })
  cardTransaction: CardTransaction;
}

export class ListCardTransactionsQuery extends PageQuery {}

export const CardTransactionListResponse = PageOf(CardTransaction, 'CardTransactionListResponse');
