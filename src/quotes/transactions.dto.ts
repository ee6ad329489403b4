import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsObject, IsOptional, IsString } from 'class-validator';
import { DateTimeQuery } from '../common/pagination.js';
import { DateRangeQuery } from '../common/time-range.js';
import { EnumField, IdField, IntField, NestedField, StringField } from '../common/validation.js';
import { CurrencyView } from '../customers/internal-account.dto.js';
import { PAYMENT_RAILS } from './quote.dto.js';
import { QUOTE_STATUSES } from './quote.entity.js';

/** The reference's TransactionStatus. */
export const TRANSACTION_STATUSES = [
  'CREATED',
  'PENDING',
  'PENDING_AUTHORIZATION',
  'PROCESSING',
  'COMPLETED',
  'REJECTED',
  'FAILED',
  'REFUNDED',
  'EXPIRED',
] as const;

/** The filters agents and platforms share on transaction lists (reference listTransactions). */
export class TransactionFilters extends DateRangeQuery {
  @StringField({ required: false, maxLength: 255, description: 'Sender or receiver account id' })
  accountIdentifier?: string;

  @StringField({ required: false, maxLength: 255, description: 'Sender account id' })
  senderAccountIdentifier?: string;

  @StringField({ required: false, maxLength: 255, description: 'Receiver account id' })
  receiverAccountIdentifier?: string;

  @EnumField(TRANSACTION_STATUSES, { required: false })
  status?: string;

  @EnumField(['INCOMING', 'OUTGOING'], { required: false })
  type?: string;

  @StringField({ required: false, maxLength: 255, description: 'Filter by reference (the quote or transaction id)' })
  reference?: string;
}

/** `GET /transactions`: the shared filters plus the customer ones. */
export class TransactionsQuery extends TransactionFilters {
  @StringField({
    required: false,
    maxLength: 255,
    description: "A customer id, or the platform's id for its own transactions",
  })
  customerId?: string;

  @StringField({ required: false, maxLength: 255, description: "The customer's platformCustomerId" })
  platformCustomerId?: string;
}

/** `GET /quotes`. */
export class QuotesQuery extends DateRangeQuery {
  @StringField({ required: false, maxLength: 255, description: "A customer id, or the platform's id" })
  customerId?: string;

  @StringField({ required: false, maxLength: 255, description: 'Source or destination account id' })
  accountId?: string;

  @EnumField(QUOTE_STATUSES, { required: false })
  status?: string;
}

/** The reference's InternalAccountReference / ExternalAccountReference. */
export class InternalAccountReference {
  @IdField('InternalAccount') accountId: string;
}
export class ExternalAccountReference {
  @IdField('ExternalAccount') accountId: string;
}
export class ExternalAccountDestinationReference {
  @IdField('ExternalAccount') accountId: string;
  @EnumField(PAYMENT_RAILS, { required: false }) paymentRail?: string;
}

/** The reference's TransferInRequest (deprecated route). */
export class TransferInRequest {
  @NestedField(() => ExternalAccountReference) source: ExternalAccountReference;
  @NestedField(() => InternalAccountReference) destination: InternalAccountReference;
  @IntField({ min: 1, max: 9_000_000_000_000_000, description: 'Minor units' }) amount: number;
}

/** The reference's TransferOutRequest (deprecated route). */
export class TransferOutRequest {
  @NestedField(() => InternalAccountReference) source: InternalAccountReference;
  @NestedField(() => ExternalAccountDestinationReference) destination: ExternalAccountDestinationReference;
  @IntField({ min: 1, max: 9_000_000_000_000_000, description: 'Minor units' }) amount: number;
  @StringField({ required: false, maxLength: 80 }) remittanceInformation?: string;
  @StringField({ required: false, maxLength: 64 }) purposeOfPayment?: string;
}

/** The reference's ConfirmReceiptDeliveryRequest. */
export class ConfirmReceiptDeliveryRequest {
  @DateTimeQuery('When the receipt was delivered (default: now)')
  receiptDeliveryConfirmedAt?: string;
}

/** The reference's CancelTransactionRequest. */
export class CancelTransactionRequest {
  @StringField({ required: false, maxLength: 1024 }) reason?: string;
}

/** The reference's ApprovePaymentRequest. */
export class ApprovePaymentRequest {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The receiver fields the webhook asked for (requestedReceiverCustomerInfoFields)',
  })
  @IsOptional()
  @IsObject({ message: '$property must be an object' })
  receiverCustomerInfo?: Record<string, string | number | boolean | object | null>;
}

/** The reference's RejectPaymentRequest. */
export class RejectPaymentRequest {
  @StringField({
    required: false,
    maxLength: 1024,
    description: "The platform's reason (noted on the transaction's timeline)",
  })
  reason?: string;
}

/** The reference's SandboxUmaReceiveRequest. */
export class SandboxUmaReceiveRequest {
  @StringField({
    maxLength: 255,
    description:
      'A sandbox sender: `$success.<currency>@sandbox.grid.uma.money` settles, `$fail.<currency>@…` fails after approval, `$slow.<currency>@…` settles an hour (platform time) after approval',
  })
  senderUmaAddress: string;

  @StringField({ required: false, maxLength: 255, description: 'Optional if customerId is provided' })
  receiverUmaAddress?: string;

  @IdField('Customer', { required: false, description: 'Optional if receiverUmaAddress is provided' })
  customerId?: string;

  @StringField({ pattern: /^[A-Z]{3,5}$/, format: 'currency code' })
  receivingCurrencyCode: string;

  @IntField({ min: 1, max: 9_007_199_254_740_991, description: 'Minor units of the receiving currency' })
  receivingCurrencyAmount: number;
}

/** `GET /exchange-rates` (reference getExchangeRates). */
export class ExchangeRatesQuery {
  @StringField({ required: false, pattern: /^[A-Z]{3,5}$/, format: 'currency code' })
  sourceCurrency?: string;

  @ApiPropertyOptional({ type: [String], description: 'Repeatable' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray({ message: '$property must be a list' })
  @IsString({ each: true, message: '$property must be currency codes' })
  destinationCurrency?: string[];

  @IntField({ min: 0, max: 9_000_000_000_000_000, required: false, fromQuery: true })
  sendingAmount?: number;
}

export class ExchangeRateFeesView {
  @ApiProperty({ type: 'integer' }) fixed: number;
  @ApiProperty({ type: 'integer' }) total: number;
}

/** The reference's ExchangeRate. */
export class ExchangeRateView {
  @ApiProperty({ type: CurrencyView }) sourceCurrency: CurrencyView;
  @ApiProperty({ type: 'integer' }) sendingAmount: number;
  @ApiProperty({ type: 'integer' }) minSendingAmount: number;
  @ApiProperty({ type: 'integer' }) maxSendingAmount: number;
  @ApiProperty({ type: CurrencyView }) destinationCurrency: CurrencyView;
  @ApiProperty({ enum: PAYMENT_RAILS }) destinationPaymentRail: string;
  @ApiProperty({ type: 'integer' }) receivingAmount: number;
  @ApiProperty() exchangeRate: number;
  @ApiProperty({ type: ExchangeRateFeesView }) fees: ExchangeRateFeesView;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ExchangeRateListView {
  @ApiProperty({ type: [ExchangeRateView] }) data: ExchangeRateView[];
}

/** The reference's SandboxSendRequest. */
export class SandboxSendRequest {
  @IdField('Quote') quoteId: string;
  @StringField({ pattern: /^[A-Z]{3,5}$/, format: 'currency code' }) currencyCode: string;
  @IntField({ min: 1, max: 9_000_000_000_000_000, required: false }) currencyAmount?: number;
}
