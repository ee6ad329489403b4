import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EnumField, IdField, NestedField, StringField } from '../common/validation.js';

export const AUTH_METHOD_TYPES = ['EMAIL_OTP', 'SMS_OTP', 'OAUTH', 'PASSKEY'] as const;
export type AuthMethodType = (typeof AUTH_METHOD_TYPES)[number];

/** SEC1 P-256 public key, compressed (recommended) or uncompressed (the deprecated legacy flow, refused). */
const CLIENT_KEY = /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The reference's PasskeyAttestation (base64url members, as `PublicKeyCredential.toJSON()` gives them). */
export class PasskeyAttestationDto {
  @StringField({ maxLength: 1024, pattern: B64URL, format: 'base64url' }) credentialId: string;
  @StringField({ maxLength: 4096, pattern: B64URL, format: 'base64url' }) clientDataJson: string;
  @StringField({ maxLength: 8192, pattern: B64URL, format: 'base64url' }) attestationObject: string;
  @EnumField(['usb', 'nfc', 'ble', 'internal', 'hybrid', 'smart-card', 'cable'], { required: false, each: true })
  transports?: string[];
}

/** The reference's PasskeyAssertion. */
export class PasskeyAssertionDto {
  @StringField({ maxLength: 1024, pattern: B64URL, format: 'base64url' }) credentialId: string;
  @StringField({ maxLength: 4096, pattern: B64URL, format: 'base64url' }) clientDataJson: string;
  @StringField({ maxLength: 4096, pattern: B64URL, format: 'base64url' }) authenticatorData: string;
  @StringField({ maxLength: 1024, pattern: B64URL, format: 'base64url' }) signature: string;
  @StringField({ required: false, maxLength: 1024, pattern: B64URL, format: 'base64url' }) userHandle?: string;
}

/**
 * The reference's AuthCredentialVerifyRequestOneOf, one class: `type` selects which members are
 * required (checked by the service): `encryptedOtpBundle` for EMAIL_OTP and SMS_OTP.
 */
export class AuthCredentialVerifyRequest {
  @EnumField(AUTH_METHOD_TYPES)
  type: AuthMethodType;

  @StringField({
    required: false,
    maxLength: 4096,
    description:
      'EMAIL_OTP / SMS_OTP: the HPKE-sealed `{otp_code, public_key}` (`encryptOtpCodeToBundle` of @turnkey/crypto, to the `otpEncryptionTargetBundle`)',
  })
  encryptedOtpBundle?: string;

  @StringField({ required: false, maxLength: 8192, description: 'OAUTH: a fresh OIDC id token' })
  oidcToken?: string;

  @StringField({
    required: false,
    pattern: CLIENT_KEY,
    format: 'sec1-p256-public-key',
    description: 'OAUTH: the client-held session key (compressed; uncompressed is the deprecated flow, refused)',
  })
  clientPublicKey?: string;

  @NestedField(() => PasskeyAssertionDto, { required: false, description: 'PASSKEY: the WebAuthn assertion' })
  assertion?: PasskeyAssertionDto;
}

/**
 * The reference's AuthCredentialCreateRequestOneOf, one class (`type` selects the members the
 * service requires): EMAIL_OTP and SMS_OTP take only `accountId` (they are tied to the customer's
 * email / phone number).
 */
export class AuthCredentialCreateRequest {
  @EnumField(AUTH_METHOD_TYPES)
  type: AuthMethodType;

  @IdField('InternalAccount', { description: 'The EMBEDDED_WALLET internal account' })
  accountId: string;

  @StringField({ required: false, maxLength: 8192, description: 'OAUTH: the OIDC id token' })
  oidcToken?: string;

  @StringField({ required: false, minLength: 1, maxLength: 100, description: 'PASSKEY: its nickname' })
  nickname?: string;

  @StringField({
    required: false,
    maxLength: 1024,
    pattern: B64URL,
    format: 'base64url',
    description: "PASSKEY: the WebAuthn challenge the platform's backend issued for navigator.credentials.create()",
  })
  challenge?: string;

  @NestedField(() => PasskeyAttestationDto, { required: false, description: 'PASSKEY: the attestation' })
  attestation?: PasskeyAttestationDto;
}

/** The reference's AuthSessionRefreshRequest. */
export class AuthSessionRefreshRequest {
  @StringField({
    pattern: CLIENT_KEY,
    format: 'sec1-p256-public-key',
    description: 'The new client-held session key (compressed)',
  })
  clientPublicKey: string;
}

/** The reference's AuthCredentialChallengeRequest (ignored for EMAIL_OTP and SMS_OTP). */
export class AuthCredentialChallengeRequest {
  @StringField({ required: false, pattern: CLIENT_KEY, format: 'sec1-p256-public-key' })
  clientPublicKey?: string;
}

/** The `accountId` query of the credential and session lists. */
export class AccountIdQuery {
  @IdField('InternalAccount')
  accountId: string;
}

export class AuthMethod {
  @ApiProperty({ example: 'AuthMethod:019542f5-b3e7-1d02-0000-000000000001' }) id: string;
  @ApiProperty({ example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000002' }) accountId: string;
  @ApiProperty({ enum: AUTH_METHOD_TYPES }) type: AuthMethodType;
  @ApiPropertyOptional({ description: 'PASSKEY only: the base64url WebAuthn credential id' }) credentialId?: string;
  @ApiProperty({
    description: 'EMAIL_OTP: the email; SMS_OTP: the phone number; OAUTH: the email claim; PASSKEY: its nickname',
  })
  nickname: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class PasskeyAuthChallenge extends AuthMethod {
  @ApiProperty({
    description: 'Lowercase hex SHA-256 of the session-creation body: UTF-8 encode it as the WebAuthn challenge',
  })
  challenge: string;
  @ApiProperty() requestId: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class AuthMethodResponse extends AuthMethod {
  @ApiPropertyOptional({
    description:
      'EMAIL_OTP / SMS_OTP responses that issue a one-time password: the HPKE target bundle `{version, data, dataSignature, enclaveQuorumPublic}` to encrypt the OTP attempt to',
  })
  otpEncryptionTargetBundle?: string;
}

export class AuthCredentialListResponse {
  @ApiProperty({ type: [AuthMethod] }) data: AuthMethod[];
}

export class AuthSession extends AuthMethod {
  @ApiProperty({ example: 'Session:019542f5-b3e7-1d02-0000-000000000003' }) declare id: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class SessionListResponse {
  @ApiProperty({ type: [AuthSession] }) data: AuthSession[];
}

export class SignedRequestChallengeView {
  @ApiProperty() payloadToSign: string;
  @ApiProperty({ example: 'Request:019542f5-b3e7-1d02-0000-000000000010' }) requestId: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

export class AuthSignedRequestChallenge extends SignedRequestChallengeView {
  @ApiProperty({ enum: AUTH_METHOD_TYPES }) type: AuthMethodType;
}

export class EnclaveKeyView {
  @ApiProperty({
    description:
      "The deployment's enclave signing key (uncompressed SEC1 P-256 hex): the `enclaveQuorumPublic` of every OTP target bundle and the key of every verification token. Pin it and pass it as @turnkey/crypto's `dangerouslyOverrideSignerPublicKey`.",
  })
  enclaveQuorumPublic: string;
}
