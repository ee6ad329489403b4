import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageQuery } from '../common/pagination.js';
import { EnumField, IdField, StringField } from '../common/validation.js';
import { DOCUMENT_TYPES } from '../documents/document.types.js';
import { SANDBOX_OUTCOMES, VERIFICATION_STATUSES } from './verification.types.js';
import type { SandboxOutcome, VerificationStatus } from './verification.types.js';

export class VerificationRequest {
  @IdField('Customer', { description: 'The customer to verify' })
  customerId: string;
}

export class ListVerificationsQuery extends PageQuery {
  @IdField('Customer', { required: false })
  customerId?: string;

  @EnumField(VERIFICATION_STATUSES, { required: false })
  verificationStatus?: VerificationStatus;
}

export class VerificationErrorView {
  @ApiProperty({ description: 'The Customer, BeneficialOwner or Document with the issue' }) resourceId: string;
  @ApiProperty() type: string;
  @ApiPropertyOptional() field?: string;
  @ApiPropertyOptional({ enum: DOCUMENT_TYPES, isArray: true }) acceptedDocumentTypes?: string[];
  @ApiPropertyOptional({ description: "A rejected document's rejection code" }) rejectionCode?: string;
  @ApiProperty() reason: string;
}

export class Verification {
  @ApiProperty({ example: 'Verification:019542f5-b3e7-1d02-0000-000000000001' }) id: string;
  @ApiProperty() customerId: string;
  @ApiProperty({ enum: VERIFICATION_STATUSES }) verificationStatus: VerificationStatus;
  @ApiProperty({ type: [VerificationErrorView] }) errors: VerificationErrorView[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class SandboxVerificationOutcome {
  @EnumField(SANDBOX_OUTCOMES, { description: 'The outcome the KYC provider decides' })
  verificationStatus: SandboxOutcome;
}

export class KycLinkCreateRequest {
  @StringField({
    required: false,
    maxLength: 2048,
    pattern: /^https?:\/\/[^\s]+$/,
    format: 'uri',
    description: 'Where the hosted page sends the customer when done (https://, or http:// for local development)',
  })
  redirectUri?: string;
}

export class KycLinkResponse {
  @ApiProperty({ description: 'The hosted page (served by this service in sandbox); single-use' }) kycUrl: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ enum: ['SUMSUB'], description: 'The reference names one provider; the sandbox stands in for it' })
  provider: string;
}
