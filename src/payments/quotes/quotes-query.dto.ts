import { DateRangeQuery } from '../../common/time-range.js';
import { EnumField, StringField } from '../../common/validation.js';
import { QUOTE_STATUSES } from './quote.entity.js';

/** `GET /quotes`. */
export class QuotesQuery extends DateRangeQuery {
  @StringField({ required: false, maxLength: 255, description: "A customer id, or the platform's id" })
  customerId?: string;

  @StringField({ required: false, maxLength: 255, description: 'Source or destination account id' })
  accountId?: string;

  @EnumField(QUOTE_STATUSES, { required: false })
  status?: string;
}
