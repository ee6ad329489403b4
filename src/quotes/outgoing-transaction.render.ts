import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { formatId } from '../common/ids.js';
import { currencyInfo } from '../customers/currencies.js';
import { CurrencyAmount } from '../customers/internal-account.dto.js';
import type { OutgoingTransactionEntity } from './outgoing-transaction.entity.js';
import { RateDetailsView } from './quote.dto.js';

export class TransactionEndpointView {
  @ApiPropertyOptional({ enum: ['ACCOUNT'] }) sourceType?: 'ACCOUNT';
  @ApiPropertyOptional({ enum: ['ACCOUNT'] }) destinationType?: 'ACCOUNT';
  @ApiProperty() accountId: string;
  @ApiProperty() currency: string;
}

/** The reference's OutgoingTransaction (TransactionOneOf), as an agent's execution records it. */
export class OutgoingTransactionView {
  @ApiProperty({ example: 'Transaction:019542f5-b3e7-1d02-0000-000000000004' }) id: string;
  @ApiProperty({ enum: ['COMPLETED', 'FAILED'] }) status: string;
  @ApiProperty({ enum: ['OUTGOING'] }) type: 'OUTGOING';
  @ApiProperty({ enum: ['DEBIT'] }) direction: 'DEBIT';
  @ApiProperty({ type: TransactionEndpointView }) source: TransactionEndpointView;
  @ApiProperty({ type: TransactionEndpointView }) destination: TransactionEndpointView;
  @ApiProperty() customerId: string;
  @ApiProperty() platformCustomerId: string;
  @ApiPropertyOptional() agentId?: string;
  @ApiPropertyOptional({ format: 'date-time' }) settledAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty({ type: CurrencyAmount }) sentAmount: CurrencyAmount;
  @ApiProperty({ type: CurrencyAmount }) receivedAmount: CurrencyAmount;
  @ApiProperty() exchangeRate: number;
  @ApiProperty() quoteId: string;
  @ApiProperty({ type: 'integer', format: 'int64' }) fees: number;
  @ApiProperty({ type: 'integer', format: 'int64' }) platformFees: number;
  @ApiProperty({ type: RateDetailsView }) rateDetails: RateDetailsView;
  @ApiPropertyOptional({ enum: ['QUOTE_EXPIRED', 'QUOTE_EXECUTION_FAILED', 'LIMIT_EXCEEDED'] }) failureReason?: string;
  @ApiProperty({ nullable: true, type: String }) paymentRail: string | null;
  @ApiProperty({ nullable: true, enum: ['MANUAL'] }) railSelectionMode: 'MANUAL' | null;
}

export function renderOutgoingTransaction(
  row: OutgoingTransactionEntity,
  platformCustomerId: string,
): OutgoingTransactionView {
  return {
    id: formatId('Transaction', row.id),
    status: row.status,
    type: 'OUTGOING',
    direction: 'DEBIT',
    source: {
      sourceType: 'ACCOUNT',
      accountId: formatId('InternalAccount', row.sourceAccountId),
      currency: row.sendingCurrency,
    },
    destination: {
      destinationType: 'ACCOUNT',
      accountId: formatId(row.destinationKind, row.destinationAccountId),
      currency: row.receivingCurrency,
    },
    customerId: formatId('Customer', row.customerId),
    platformCustomerId,
    ...(row.agentId !== null ? { agentId: formatId('Agent', row.agentId) } : {}),
    ...(row.settledAt !== null ? { settledAt: row.settledAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.description !== null ? { description: row.description } : {}),
    sentAmount: { amount: Number(row.sentAmount), currency: currencyInfo(row.sendingCurrency) },
    receivedAmount: { amount: Number(row.receivedAmount), currency: currencyInfo(row.receivingCurrency) },
    exchangeRate: row.exchangeRate,
    quoteId: formatId('Quote', row.quoteId),
    fees: Number(row.fees),
    platformFees: 0,
    rateDetails: row.rateDetails,
    ...(row.failureReason !== null ? { failureReason: row.failureReason } : {}),
    paymentRail: row.paymentRail,
    railSelectionMode: row.paymentRail !== null ? 'MANUAL' : null,
  };
}
