import { DateTimeQuery } from '../../common/pagination.js';
import { DateRangeQuery } from '../../common/time-range.js';
import { EnumField, StringField } from '../../common/validation.js';

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

/** The reference's ConfirmReceiptDeliveryRequest. */
export class ConfirmReceiptDeliveryRequest {
  @DateTimeQuery('When the receipt was delivered (default: now)')
  receiptDeliveryConfirmedAt?: string;
}

/** The reference's CancelTransactionRequest. */
export class CancelTransactionRequest {
  @StringField({ required: false, maxLength: 1024 }) reason?: string;
}
