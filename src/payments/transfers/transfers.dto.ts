import { EnumField, IdField, IntField, NestedField, StringField } from '../../common/validation.js';
import { PAYMENT_RAILS } from '../quotes/quote.dto.js';

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
