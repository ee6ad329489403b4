import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IdField, StringField } from '../../common/validation.js';

/** The SDK's `PlaidCreateLinkTokenParams`. */
export class PlaidCreateLinkTokenRequest {
  @IdField('Customer', { description: 'The customer the Link token and its external account are for' })
  customerId: string;
}

/** The SDK's `PlaidCreateLinkTokenResponse`. */
export class PlaidCreateLinkTokenResponse {
  @ApiProperty({ description: 'The Plaid Link token to initialise Plaid Link with; used once' }) linkToken: string;
  @ApiProperty({ format: 'date-time', description: 'When the Link token expires (4 hours)' }) expiration: string;
  @ApiProperty({ description: 'Where to POST the public token once the customer finished Plaid Link' })
  callbackUrl: string;
  @ApiPropertyOptional({ description: 'An identifier of this request, for debugging' }) requestId?: string;
}

/** The SDK's `PlaidSubmitPublicTokenParams`. */
export class PlaidSubmitPublicTokenRequest {
  @StringField({ minLength: 1, maxLength: 256, description: 'The public token Plaid Link returned' })
  publicToken: string;

  @StringField({
    required: false,
    minLength: 1,
    maxLength: 256,
    description: "The Plaid account the customer chose; the item's default account when omitted",
  })
  accountId?: string;
}
