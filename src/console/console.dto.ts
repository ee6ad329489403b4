import { CreatedRangeQuery } from '../common/time-range.js';
import { EnumField, IdField, IntField, MAX_SAFE_MINOR_UNITS, StringField } from '../common/validation.js';
import { TRANSACTION_STATUSES } from '../payments/transactions/transactions.dto.js';

/**
 * `GET /console/api/transactions` and `GET /console/api/transactions/csv`: the console's search
 * (both directions, newest first). Beside the REST list's status, type and customer: the customer's
 * name (a case-insensitive substring of the individual's full name or the business's legal name),
 * an amount range (minor units of the amount the list shows: sent for outgoing, received for
 * incoming; with `currency`, in that currency only) and the creation date range.
 */
export class ConsoleTransactionsQuery extends CreatedRangeQuery {
  @EnumField(TRANSACTION_STATUSES, { required: false })
  status?: string;

  @EnumField(['INCOMING', 'OUTGOING'], { required: false })
  type?: string;

  @IdField('Customer', { required: false, description: 'One customer' })
  customerId?: string;

  @StringField({ required: false, minLength: 1, maxLength: 200, description: "Part of the customer's name" })
  customerName?: string;

  @StringField({ required: false, pattern: /^[A-Z]{3,5}$/, format: 'currency code' })
  currency?: string;

  @IntField({ min: 0, max: MAX_SAFE_MINOR_UNITS, required: false, fromQuery: true, description: 'Minor units' })
  minAmount?: number;

  @IntField({ min: 0, max: MAX_SAFE_MINOR_UNITS, required: false, fromQuery: true, description: 'Minor units' })
  maxAmount?: number;
}

/** `GET /console/api/names?ids=...`: up to 200 ids, comma-separated. */
export class ConsoleNamesQuery {
  @StringField({ minLength: 1, maxLength: 20_000, description: 'Comma-separated ids (Customer:…, InternalAccount:…)' })
  ids: string;
}
