import { ApiProperty } from '@nestjs/swagger';
import { BoolField, StringField } from '../common/validation.js';

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

/** The reference's InternalAccountExportRequest. */
export class InternalAccountExportRequest {
  @StringField({
    pattern: /^04[0-9a-fA-F]{128}$/,
    format: 'uncompressed SEC1 P-256 public key (04 + 128 hex digits)',
    description: 'A fresh P-256 public key the wallet credentials are HPKE-encrypted to',
  })
  clientPublicKey: string;
}

/** The reference's InternalAccountExportResponse. */
export class InternalAccountExportResponse {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'The export bundle (@turnkey/crypto decryptExportBundle reads it)' })
  encryptedWalletCredentials: string;
}
