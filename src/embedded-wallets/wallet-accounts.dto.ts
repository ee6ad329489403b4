import { ApiProperty } from '@nestjs/swagger';
import { BoolField } from '../common/validation.js';

/** The reference's InternalAccountUpdateRequest (today: an embedded wallet's privacy). */
export class InternalAccountUpdateRequest {
  @BoolField({ description: 'Wallet privacy for an EMBEDDED_WALLET internal account' })
  privateEnabled: boolean;
}

/** The 202 of a two-step wallet route (the reference's SignedRequestChallenge). */
export class WalletRequestChallenge {
  @ApiProperty({ description: 'What the wallet holder stamps (as-is) with a live session key' })
  payloadToSign: string;
  @ApiProperty({ example: 'Request:019542f5-b3e7-1d02-0000-000000000010' }) requestId: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
