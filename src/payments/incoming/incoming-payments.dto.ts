import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional } from 'class-validator';
import { StringField } from '../../common/validation.js';

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
