import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { formatId } from '../../common/ids.js';
import { currencyInfo } from '../../customers/currencies.js';
import { CurrencyAmount } from '../../customers/internal-account.dto.js';
import type { IncomingTransactionEntity } from './incoming-transaction.entity.js';
import type { OutgoingTransactionEntity, TimelineStep } from './outgoing-transaction.entity.js';
import { RateDetailsView } from '../quotes/quote.dto.js';

export class TransactionEndpointView {
  @ApiPropertyOptional({ enum: ['ACCOUNT', 'UMA_ADDRESS', 'REALTIME_FUNDING'] })
  sourceType?: 'ACCOUNT' | 'UMA_ADDRESS' | 'REALTIME_FUNDING';
  @ApiPropertyOptional({ enum: ['ACCOUNT', 'UMA_ADDRESS'] }) destinationType?: 'ACCOUNT' | 'UMA_ADDRESS';
  @ApiPropertyOptional() accountId?: string;
  @ApiPropertyOptional({
    description:
      'The UMA address: of the sender (sourceType UMA_ADDRESS), of the receiver (destinationType UMA_ADDRESS)',
  })
  umaAddress?: string;
  @ApiPropertyOptional({ description: 'The originator of a bank-rail payment (sourceType REALTIME_FUNDING)' })
  accountHolderName?: string;
  @ApiPropertyOptional() currency?: string;
}

/** The reference's ReconciliationInstructions. */
export class ReconciliationInstructionsView {
  @ApiProperty() reference: string;
}

export class RefundView {
  @ApiProperty() reference: string;
  @ApiProperty({ format: 'date-time' }) initiatedAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) settledAt?: string;
  @ApiProperty({ enum: ['PENDING', 'COMPLETED', 'FAILED'] }) status: string;
  @ApiPropertyOptional({ enum: ['TRANSACTION_FAILED', 'USER_CANCELLATION', 'TIMEOUT'] }) reason?: string;
}

/** The reference's OutgoingTransaction (TransactionOneOf, type OUTGOING). */
export class OutgoingTransactionView {
  @ApiProperty({ example: 'Transaction:019542f5-b3e7-1d02-0000-000000000004' }) id: string;
  @ApiProperty({ enum: ['PENDING_AUTHORIZATION', 'PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] })
  status: string;
  @ApiProperty({ enum: ['OUTGOING'] }) type: 'OUTGOING';
  @ApiProperty({ enum: ['DEBIT'] }) direction: 'DEBIT';
  @ApiProperty({ type: TransactionEndpointView }) source: TransactionEndpointView;
  @ApiProperty({ type: TransactionEndpointView }) destination: TransactionEndpointView;
  @ApiProperty({ description: "The customer; the platform's id for its own accounts" }) customerId: string;
  @ApiProperty() platformCustomerId: string;
  @ApiPropertyOptional() agentId?: string;
  @ApiPropertyOptional({ format: 'date-time' }) settledAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) receiptDeliveryConfirmedAt?: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty({ type: CurrencyAmount }) sentAmount: CurrencyAmount;
  @ApiProperty({ type: CurrencyAmount }) receivedAmount: CurrencyAmount;
  @ApiProperty() exchangeRate: number;
  @ApiProperty() quoteId: string;
  @ApiProperty({ type: 'integer', format: 'int64' }) fees: number;
  @ApiProperty({ type: 'integer', format: 'int64' }) platformFees: number;
  @ApiProperty({ type: RateDetailsView }) rateDetails: RateDetailsView;
  @ApiPropertyOptional({ type: RefundView }) refund?: RefundView;
  @ApiPropertyOptional({
    enum: [
      'QUOTE_EXPIRED',
      'QUOTE_EXECUTION_FAILED',
      'LIMIT_EXCEEDED',
      'PAYOUT_RETURNED',
      'ACCOUNT_CANNOT_RECEIVE',
      'COMPLIANCE_REJECTED',
    ],
  })
  failureReason?: string;
  @ApiProperty({ nullable: true, type: String }) paymentRail: string | null;
  @ApiProperty({ nullable: true, enum: ['MANUAL'] }) railSelectionMode: 'MANUAL' | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date-time' }) expectedSettlementAt?: string | null;
}

/** The reference's IncomingTransaction (type INCOMING). */
export class IncomingTransactionView {
  @ApiProperty() id: string;
  @ApiProperty({ enum: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] }) status: string;
  @ApiProperty({ enum: ['INCOMING'] }) type: 'INCOMING';
  @ApiProperty({ enum: ['CREDIT'] }) direction: 'CREDIT';
  @ApiProperty({ type: TransactionEndpointView }) source: TransactionEndpointView;
  @ApiProperty({ type: TransactionEndpointView }) destination: TransactionEndpointView;
  @ApiProperty() customerId: string;
  @ApiProperty() platformCustomerId: string;
  @ApiPropertyOptional({ format: 'date-time' }) settledAt?: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiPropertyOptional({ format: 'date-time' }) receiptDeliveryConfirmedAt?: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty({ type: CurrencyAmount }) receivedAmount: CurrencyAmount;
  @ApiPropertyOptional() quoteId?: string;
  @ApiProperty({ type: 'integer', format: 'int64' }) fees: number;
  @ApiPropertyOptional() senderUmaAddress?: string;
  @ApiPropertyOptional() receiverUmaAddress?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The payer data the sender sent' })
  counterpartyInformation?: Record<string, unknown>;
  @ApiPropertyOptional({ type: ReconciliationInstructionsView })
  reconciliationInstructions?: ReconciliationInstructionsView;
  @ApiPropertyOptional({
    enum: [
      'LNURLP_FAILED',
      'PAY_REQUEST_FAILED',
      'PAYMENT_APPROVAL_WEBHOOK_ERROR',
      'PAYMENT_APPROVAL_TIMED_OUT',
      'OFFRAMP_FAILED',
      'MISSING_MANDATORY_PAYEE_DATA',
      'QUOTE_EXPIRED',
      'QUOTE_EXECUTION_FAILED',
      'COMPLIANCE_REJECTED',
      'COLLECTION_FAILED',
    ],
  })
  failureReason?: string;
}

export type TransactionView = OutgoingTransactionView | IncomingTransactionView;

/** Who a transaction belongs to, as the reference shows it: the customer, or the platform itself. */
export interface Owner {
  customerId: string;
  platformCustomerId: string;
}

export function ownerOf(
  platformId: string,
  customerId: string | null,
  platformCustomerIds: Map<string, string>,
): Owner {
  if (customerId === null) return { customerId: formatId('Platform', platformId), platformCustomerId: '' };
  return {
    customerId: formatId('Customer', customerId),
    platformCustomerId: platformCustomerIds.get(customerId) ?? '',
  };
}

export function renderOutgoingTransaction(row: OutgoingTransactionEntity, owner: Owner): OutgoingTransactionView {
  return {
    id: formatId('Transaction', row.id),
    status: row.status,
    type: 'OUTGOING',
    direction: 'DEBIT',
    source:
      row.sourceAccountId !== null
        ? {
            sourceType: 'ACCOUNT',
            accountId: formatId('InternalAccount', row.sourceAccountId),
            currency: row.sendingCurrency,
          }
        : { sourceType: 'REALTIME_FUNDING', currency: row.sendingCurrency },
    destination:
      row.destinationKind === 'UmaAddress'
        ? {
            destinationType: 'UMA_ADDRESS',
            umaAddress: row.destinationUmaAddress ?? '',
            currency: row.receivingCurrency,
          }
        : {
            destinationType: 'ACCOUNT',
            accountId: formatId(row.destinationKind, row.destinationAccountId),
            currency: row.receivingCurrency,
          },
    customerId: owner.customerId,
    platformCustomerId: owner.platformCustomerId,
    ...(row.agentId !== null ? { agentId: formatId('Agent', row.agentId) } : {}),
    ...(row.settledAt !== null ? { settledAt: row.settledAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.receiptDeliveryConfirmedAt
      ? { receiptDeliveryConfirmedAt: row.receiptDeliveryConfirmedAt.toISOString() }
      : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    sentAmount: { amount: Number(row.sentAmount), currency: currencyInfo(row.sendingCurrency) },
    receivedAmount: { amount: Number(row.receivedAmount), currency: currencyInfo(row.receivingCurrency) },
    exchangeRate: row.exchangeRate,
    quoteId: formatId('Quote', row.quoteId),
    fees: Number(row.fees),
    platformFees: Number(row.platformFees ?? 0),
    rateDetails: row.rateDetails,
    ...(row.refund ? { refund: row.refund } : {}),
    ...(row.failureReason !== null ? { failureReason: row.failureReason } : {}),
    paymentRail: row.paymentRail,
    railSelectionMode: row.paymentRail !== null ? 'MANUAL' : null,
    ...(row.expectedSettlementAt ? { expectedSettlementAt: row.expectedSettlementAt.toISOString() } : {}),
  };
}

export function renderIncomingTransaction(row: IncomingTransactionEntity, owner: Owner): IncomingTransactionView {
  return {
    id: formatId('Transaction', row.id),
    status: row.status,
    type: 'INCOMING',
    direction: 'CREDIT',
    ...incomingSource(row),
    destination: {
      destinationType: 'ACCOUNT',
      accountId: formatId('InternalAccount', row.destinationAccountId),
      currency: row.currency,
    },
    customerId: owner.customerId,
    platformCustomerId: owner.platformCustomerId,
    ...(row.settledAt !== null ? { settledAt: row.settledAt.toISOString() } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.receiptDeliveryConfirmedAt
      ? { receiptDeliveryConfirmedAt: row.receiptDeliveryConfirmedAt.toISOString() }
      : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    receivedAmount: { amount: Number(row.receivedAmount), currency: currencyInfo(row.currency) },
    ...(row.quoteId !== null ? { quoteId: formatId('Quote', row.quoteId) } : {}),
    fees: 0,
    ...(row.senderUmaAddress ? { senderUmaAddress: row.senderUmaAddress } : {}),
    ...(row.receiverUmaAddress ? { receiverUmaAddress: row.receiverUmaAddress } : {}),
    ...(row.counterpartyInformation ? { counterpartyInformation: row.counterpartyInformation } : {}),
    ...(row.reference ? { reconciliationInstructions: { reference: row.reference } } : {}),
    ...(row.failureReason ? { failureReason: row.failureReason } : {}),
  };
}

/** Where an incoming transaction came from. */
function incomingSource(row: IncomingTransactionEntity): { source: TransactionEndpointView } {
  switch (row.sourceKind) {
    case 'ExternalAccount':
      return {
        source:
          row.sourceAccountId !== null
            ? {
                sourceType: 'ACCOUNT',
                accountId: formatId('ExternalAccount', row.sourceAccountId),
                currency: row.currency,
              }
            : { sourceType: 'REALTIME_FUNDING', currency: row.currency },
      };
    case 'UmaAddress':
      return { source: { sourceType: 'UMA_ADDRESS', umaAddress: row.senderUmaAddress ?? '', currency: row.currency } };
    case 'Bank': {
      // A bank-rail payment: the reference's external funding source, with the originator's name when known.
      const name = row.counterpartyInformation?.FULL_NAME;
      return {
        source: {
          sourceType: 'REALTIME_FUNDING',
          currency: row.currency,
          ...(typeof name === 'string' ? { accountHolderName: name } : {}),
        },
      };
    }
    case 'RealtimeFunding':
      return { source: { sourceType: 'REALTIME_FUNDING', currency: row.currency } };
  }
}

/** A timeline step (the console's status timeline). */
export function step(status: string, at: Date, note?: string): TimelineStep {
  return { status, at: at.toISOString(), ...(note ? { note } : {}) };
}
