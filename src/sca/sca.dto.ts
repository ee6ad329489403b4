import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { idPattern, parseId } from '../common/ids.js';
import { validateBody } from '../common/validate-body.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { SCA_FACTORS, type ScaFactor } from './sca-challenges.service.js';

const CHALLENGE_ID = new RegExp(idPattern('ScaChallenge'));

/** The reference's ScaFactorEnrollRequestOneOf. */
export class ScaFactorEnrollRequest {
  @ApiProperty({ enum: ['TOTP', 'PASSKEY'] })
  @IsIn(['TOTP', 'PASSKEY'], { message: 'must be TOTP or PASSKEY (SMS_OTP needs no enrollment)' })
  type: 'TOTP' | 'PASSKEY';
}

/** The reference's ScaFactorConfirmRequestOneOf (TOTP: secret + code; PASSKEY: origin + credential). */
export class ScaFactorConfirmRequest {
  @ApiProperty({ enum: ['TOTP', 'PASSKEY'] })
  @IsIn(['TOTP', 'PASSKEY'])
  type: 'TOTP' | 'PASSKEY';

  @ApiPropertyOptional({ description: 'TOTP: the secret the enrollment start returned' })
  @ValidateIf((o: ScaFactorConfirmRequest) => o.type === 'TOTP')
  @IsString()
  @MaxLength(128)
  secret?: string;

  @ApiPropertyOptional({ description: "TOTP: the authenticator app's current code" })
  @ValidateIf((o: ScaFactorConfirmRequest) => o.type === 'TOTP')
  @IsString()
  @MaxLength(16)
  code?: string;

  @ApiPropertyOptional({ description: 'PASSKEY: the origin the credential was produced against' })
  @ValidateIf((o: ScaFactorConfirmRequest) => o.type === 'PASSKEY')
  @IsString()
  @MaxLength(256)
  origin?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: "PASSKEY: the device's credential" })
  @ValidateIf((o: ScaFactorConfirmRequest) => o.type === 'PASSKEY')
  @IsObject()
  credential?: Record<string, unknown>;
}

export class ScaLoginStartRequest {
  @ApiProperty({ enum: SCA_FACTORS })
  @IsIn(SCA_FACTORS)
  factor: ScaFactor;
}

/** The proof members of the reference's ScaAuthorization (code, or passkeyAssertion + origin). */
export class ScaProofRequest {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'ScaChallenge:<uuid>, when the start issued one' })
  @IsOptional()
  @Matches(CHALLENGE_ID, { message: 'must be a ScaChallenge id (ScaChallenge:<uuid>)' })
  challengeId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'SMS_OTP / TOTP code' })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  code?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  @IsOptional()
  @IsObject()
  passkeyAssertion?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  origin?: string | null;
}

/** The reference's ScaAuthorization for a quote (`POST /quotes/{quoteId}/authorize`). */
export class QuoteAuthorizationRequest extends ScaProofRequest {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '203.0.113.42',
    description: "The end user's IP address",
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  endUserIpAddress?: string | null;
}

export class ScaLoginCompleteRequest extends ScaProofRequest {
  @ApiProperty({ enum: SCA_FACTORS })
  @IsIn(SCA_FACTORS)
  factor: ScaFactor;

  @ApiProperty({ example: '203.0.113.42' })
  @IsString()
  @MaxLength(64)
  endUserIpAddress: string;
}

export class RecordSecurityEventRequest {
  @ApiProperty({ enum: ['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT'] })
  @IsIn(['RESET_PASSWORD_COMPLETED', 'FAILED_LOGIN_ATTEMPT'])
  eventType: 'RESET_PASSWORD_COMPLETED' | 'FAILED_LOGIN_ATTEMPT';
}

export class TwoFactorResetStartRequest {
  @ApiProperty({ enum: SCA_FACTORS })
  @IsIn(SCA_FACTORS)
  factor: ScaFactor;
}

/** The anyOf of the reference: `code`, or `passkeyAssertion` with `origin`. */
function proofErrors(value: ScaProofRequest): FieldError[] {
  if (typeof value.code === 'string') return [];
  if (value.passkeyAssertion && typeof value.origin === 'string') return [];
  if (value.passkeyAssertion) return [fieldError('origin', 'is required with passkeyAssertion')];
  return [fieldError('code', 'code (SMS_OTP, TOTP) or passkeyAssertion with origin (PASSKEY) is required')];
}

/** Validates a body against `dto` (every FieldError in one 400); a proof body also needs its anyOf. */
export function parseBody<T extends object>(dto: new () => T, body: unknown): T {
  const { value, errors } = validateBody(dto, body);
  if (value instanceof ScaProofRequest && errors.length === 0) errors.push(...proofErrors(value));
  if (errors.length) throw invalidInput(errors);
  return value;
}

/** The uuid of a validated `challengeId`, or null. */
export const challengeUuid = (id: string | null | undefined): string | null =>
  id ? parseId('ScaChallenge', id) : null;

/** The `customerId` query parameter (`Customer:<uuid>`): its uuid, or a 400 FieldError. */
export function customerIdParam(value: unknown): string {
  const uuid = typeof value === 'string' ? parseId('Customer', value) : null;
  if (uuid) return uuid;
  throw invalidInput([
    fieldError('customerId', 'is required: a Customer id (Customer:<uuid>)', { pattern: idPattern('Customer') }),
  ]);
}
