import { ApiProperty } from '@nestjs/swagger';
import { IdField, StringField } from '../common/validation.js';

/** The reference's DelegatedKeyCreateRequest (the same body on all three legs). */
export class DelegatedKeyCreateRequest {
  @IdField('Card', { description: 'The card whose embedded-wallet funding account the key signs for' })
  cardId: string;
  @IdField('InternalAccount', { description: 'The EMBEDDED_WALLET internal account funding the card' })
  internalAccountId: string;
  @StringField({ minLength: 1, maxLength: 256, description: 'A label for the key' })
  nickname: string;
}

/** The reference's DelegatedKey. */
export class DelegatedKeyView {
  @ApiProperty({ example: 'DelegatedKey:019542f5-b3e7-1d02-0000-000000000021' }) id: string;
  @ApiProperty() cardId: string;
  @ApiProperty({ description: "The card's funding source (a card here has one: CardFundingSource:<card uuid>)" })
  fundingSourceId: string;
  @ApiProperty() accountId: string;
  @ApiProperty({ description: 'Compressed P-256 public key (the private key is custodied by the service)' })
  publicKey: string;
  @ApiProperty() nickname: string;
  @ApiProperty({ enum: ['PENDING', 'ACTIVE', 'REVOKED'] }) status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class DelegatedKeyListResponse {
  @ApiProperty({ type: [DelegatedKeyView] }) data: DelegatedKeyView[];
}
