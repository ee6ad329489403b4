import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, ArrayMinSize, IsArray, IsOptional, IsString } from 'class-validator';
import { EXTRA_WEBHOOK_TYPE_CHOICES } from '../outbox/webhook-types.js';
import {
  BoolField,
  EnumField,
  IntField,
  MAX_SAFE_MINOR_UNITS,
  NestedField,
  StringField,
} from '../common/validation.js';
import { AUTHORIZATION_DECISION_MAKERS, CARD_CAPABILITY_NAMES, SANDBOX_PROVISIONING_MODES } from './card-program.js';
import type { AuthorizationDecisionMaker, CardCapabilities, CardProgram, SandboxProvisioning } from './card-program.js';
import { FEE_TYPES } from './platform-config.entity.js';
import type { FeeType } from './platform-config.entity.js';

export const CUSTOMER_INFO_FIELD_NAMES = [
  'FULL_NAME',
  'BIRTH_DATE',
  'NATIONALITY',
  'PHONE_NUMBER',
  'EMAIL',
  'POSTAL_ADDRESS',
  'TAX_ID',
  'REGISTRATION_NUMBER',
  'USER_TYPE',
  'COUNTRY_OF_RESIDENCE',
  'ACCOUNT_IDENTIFIER',
  'FI_LEGAL_ENTITY_NAME',
  'FI_ADDRESS',
  'PURPOSE_OF_PAYMENT',
  'ULTIMATE_INSTITUTION_COUNTRY',
  'IDENTIFIER',
  'BUSINESS_TYPE',
  'COMPANY_LEGAL_NAME',
  'ID_TYPE',
  'ID_NUMBER',
] as const;
export const TRANSACTION_TYPES = ['INCOMING', 'OUTGOING', 'CARD'] as const;
export const MAX_INT32 = 2147483647;

export class CounterpartyFieldDefinitionDto {
  @EnumField(CUSTOMER_INFO_FIELD_NAMES)
  name: string;

  @BoolField()
  mandatory: boolean;
}

export class PlatformCurrencyConfigDto {
  @StringField({ pattern: /^[A-Z]{3}$/, format: 'iso4217', description: 'ISO 4217 currency code' })
  currencyCode: string;

  @IntField({ min: 0, max: MAX_SAFE_MINOR_UNITS, description: 'Smallest amount, in minor units' })
  minAmount: number;

  @IntField({ min: 0, max: MAX_SAFE_MINOR_UNITS, description: 'Largest amount, in minor units' })
  maxAmount: number;

  @NestedField(() => CounterpartyFieldDefinitionDto, { each: true })
  requiredCounterpartyFields: CounterpartyFieldDefinitionDto[];

  @EnumField(TRANSACTION_TYPES, { each: true })
  enabledTransactionTypes: string[];

  /** Read-only (the reference's): shown from PROVIDER_REQUIRED_CUSTOMER_FIELDS, ignored in a request. */
  @ApiPropertyOptional({
    readOnly: true,
    type: [String],
    description:
      'Customer information fields the payment provider requires of a customer using this currency (PROVIDER_REQUIRED_CUSTOMER_FIELDS); absent when none. Ignored in a request, so a GET body can be sent back.',
  })
  @Allow()
  providerRequiredCustomerFields?: unknown;
}

/** The reference's FixedFee. */
export class FixedFeeDto {
  @IntField({
    min: 0,
    max: MAX_SAFE_MINOR_UNITS,
    description: "Minor units of `currency` (the fee config's sourceCurrency)",
  })
  amount: number;

  @StringField({ pattern: /^[A-Z]{3}$/, format: 'iso4217', description: 'ISO 4217 currency code' })
  currency: string;
}

/**
 * The reference's FeeConfig: a platform-collected fee added to the service's on every transaction
 * of `feeType` sent in `sourceCurrency`. PATCH /config upserts by (feeType, sourceCurrency);
 * zero fixed and variable fees remove one.
 */
export class FeeConfigDto {
  @EnumField(FEE_TYPES, {
    description: 'CROSS_CURRENCY_TRANSACTION: the source currency differs from the destination currency',
  })
  feeType: FeeType;

  @StringField({ pattern: /^[A-Z]{3}$/, format: 'iso4217', description: 'The sending currency this fee applies to' })
  sourceCurrency: string;

  @IntField({ min: 0, max: 10_000, description: 'Variable fee in basis points of the sending amount' })
  variableFeeBps: number;

  @NestedField(() => FixedFeeDto, { description: 'Fixed fee, in the source currency' })
  fixedFee: FixedFeeDto;
}

const HTTPS_ORIGIN = /^https:\/\/(?:[^\s/?#@:[\]\\]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/** The reference's CardConfig. Each member: omitted leaves it, null clears it, a value sets it. */
export class CardConfigsDto {
  @StringField({ required: false, nullable: true, pattern: HTTPS_ORIGIN, format: 'uri', maxLength: 512 })
  pinTargetOrigin?: string | null;

  @IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false, nullable: true })
  maxSpendPerTransaction?: number | null;

  @IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false, nullable: true })
  maxSpendPerDay?: number | null;

  @IntField({ min: 1, max: MAX_INT32, required: false, nullable: true })
  maxTransactionsPerDay?: number | null;

  @StringField({ required: false, nullable: true, pattern: /^https:\/\/[^@]*$/, format: 'uri', maxLength: 512 })
  panRevealCssUrl?: string | null;
}

export class CardCapabilitiesDto implements Partial<CardCapabilities> {
  @BoolField({ required: false })
  supportsSpendLimits?: boolean;
  @BoolField({ required: false })
  supportsSpendLimitsAtIssuance?: boolean;
  @BoolField({ required: false })
  supportsTransactionCountLimit?: boolean;
  @BoolField({ required: false })
  supports3dSecurePassword?: boolean;
  @BoolField({ required: false })
  supportsPanReveal?: boolean;
  @BoolField({ required: false })
  supportsDigitalWalletTokenization?: boolean;
}

/** Card program settings of this service (not in the reference). */
export class CardProgramDto {
  @EnumField(AUTHORIZATION_DECISION_MAKERS, {
    required: false,
    description: 'Who makes authorization decisions: this service (SERVICE) or the card issuer (ISSUER)',
  })
  authorizationDecisionMaker?: AuthorizationDecisionMaker;

  @NestedField(() => CardCapabilitiesDto, { required: false, description: 'Capabilities fixed on cards at issuance' })
  cardCapabilities?: CardCapabilitiesDto;

  @IntField({ min: 1, max: 10_000_000, required: false, description: 'Maximum live (non-closed) cards' })
  maxLiveCards?: number;

  @BoolField({ required: false, description: 'Whether a cardholder may hold only one live card' })
  oneLiveCardPerCardholder?: boolean;

  @EnumField(SANDBOX_PROVISIONING_MODES, {
    required: false,
    description:
      'Sandbox issuer: AUTOMATIC completes provisioning in the background (about a second); MANUAL waits for POST /sandbox/cards/{id}/simulate/provisioning',
  })
  sandboxProvisioning?: SandboxProvisioning;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The reference's EmbeddedWalletConfig: branding and OTP settings of the embedded wallets' email
 * OTP. Setting it (PATCH /config) turns embedded wallets on: see docs/embedded-wallets.md for
 * when a customer's wallet is provisioned. Members omitted from a PATCH are left unchanged.
 */
export class EmbeddedWalletConfigDto {
  @StringField({ required: false, maxLength: 255, description: 'App name displayed in the OTP email' })
  appName?: string;

  @IntField({ min: 4, max: 12, required: false, description: 'Characters in the OTP code (default 6)' })
  otpLength?: number;

  @BoolField({ required: false, description: 'Letters as well as digits in the OTP code (default: digits only)' })
  alphanumeric?: boolean;

  @IntField({ min: 1, max: 86400, required: false, description: 'OTP validity window in seconds (default 300)' })
  expirationSeconds?: number;

  @StringField({ required: false, maxLength: 255, pattern: EMAIL, format: 'email' })
  sendFromEmailAddress?: string;

  @StringField({ required: false, maxLength: 255, description: 'Sender display name (default "Notifications")' })
  sendFromEmailSenderName?: string;

  @StringField({ required: false, maxLength: 255, pattern: EMAIL, format: 'email' })
  replyToEmailAddress?: string;

  @StringField({ required: false, maxLength: 512, pattern: /^https?:\/\/\S+$/, format: 'uri' })
  logoUrl?: string;
}

const EXTRA_WEBHOOK_TYPES_DESCRIPTION =
  "This service's own webhook event types, outside the reference's WebhookType list, the platform wants delivered: a type (`DELEGATED_KEY.CREATED`), a resource's own types (`DELEGATED_KEY.*`) or `*` (all of them). The reference's types are always delivered. Replaces the list; `[]` or null: none (docs/webhooks.md#own-event-types).";

export class PlatformConfigUpdateRequest {
  @StringField({
    required: false,
    maxLength: 200,
    pattern: /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
    format: 'hostname',
  })
  umaDomain?: string;

  @StringField({
    required: false,
    nullable: true,
    maxLength: 2048,
    format: 'url',
    description: 'Absolute https URL (http is accepted only in sandbox); null clears it',
  })
  webhookEndpoint?: string | null;

  @NestedField(() => PlatformCurrencyConfigDto, { required: false, each: true })
  @ArrayMinSize(1, { message: 'supportedCurrencies must list at least one currency' })
  supportedCurrencies?: PlatformCurrencyConfigDto[];

  @NestedField(() => FeeConfigDto, {
    required: false,
    each: true,
    description:
      'Merge-by-key upsert of platform fee configs, keyed by (feeType, sourceCurrency); zero fixed and variable fees remove one. Omit to leave them unchanged.',
  })
  feeConfigs?: FeeConfigDto[];

  @NestedField(() => CardConfigsDto, { required: false })
  cardConfigs?: CardConfigsDto;

  @NestedField(() => CardProgramDto, { required: false })
  cardProgram?: CardProgramDto;

  @BoolField({
    required: false,
    description:
      'Platform is subject to counterparty rules (e.g. the EU Travel Rule): self-custody wallet accounts need ownershipType and start PENDING_OWNERSHIP_VERIFICATION',
  })
  counterpartyRequirements?: boolean;

  @NestedField(() => EmbeddedWalletConfigDto, {
    required: false,
    description:
      'Update or create the embedded-wallet configuration (members omitted are left unchanged). Once set, customers get an EMBEDDED_WALLET internal account (docs/embedded-wallets.md).',
  })
  embeddedWalletConfig?: EmbeddedWalletConfigDto;

  @IsOptional()
  @IsArray({ message: 'extraWebhookTypes must be an array of strings' })
  @IsString({ each: true, message: 'each element of extraWebhookTypes must be a string' })
  @ApiPropertyOptional({
    type: String,
    isArray: true,
    enum: EXTRA_WEBHOOK_TYPE_CHOICES,
    nullable: true,
    description: EXTRA_WEBHOOK_TYPES_DESCRIPTION,
  })
  extraWebhookTypes?: string[] | null;
}

export class CardConfigsView {
  @ApiProperty({ nullable: true, type: String }) pinTargetOrigin: string | null;
  @ApiProperty({ nullable: true, type: Number }) maxSpendPerTransaction: number | null;
  @ApiProperty({ nullable: true, type: Number }) maxSpendPerDay: number | null;
  @ApiProperty({ nullable: true, type: Number }) maxTransactionsPerDay: number | null;
  @ApiProperty({ nullable: true, type: String }) panRevealCssUrl: string | null;
}

export class CardProgramView implements CardProgram {
  @ApiProperty({ enum: AUTHORIZATION_DECISION_MAKERS }) authorizationDecisionMaker: AuthorizationDecisionMaker;
  @ApiProperty({
    type: 'object',
    properties: Object.fromEntries(CARD_CAPABILITY_NAMES.map((n) => [n, { type: 'boolean' }])),
  })
  cardCapabilities: CardCapabilities;
  @ApiProperty() maxLiveCards: number;
  @ApiProperty() oneLiveCardPerCardholder: boolean;
  @ApiProperty({ enum: SANDBOX_PROVISIONING_MODES }) sandboxProvisioning: SandboxProvisioning;
}

export class PlatformConfig {
  @ApiProperty({ example: 'PlatformConfig:019542f5-b3e7-1d02-0000-000000000003' }) id: string;
  @ApiPropertyOptional() umaDomain?: string;
  @ApiPropertyOptional() proxyUmaSubdomain?: string;
  @ApiPropertyOptional() webhookEndpoint?: string;
  @ApiProperty({
    description: 'ECDSA P-256 public key (PEM, SPKI) that verifies the X-Grid-Signature header of every webhook',
  })
  webhookPublicKey: string;
  @ApiPropertyOptional({
    description:
      'Standard Webhooks signing secret (whsec_...) for the webhook-signature header; shown to MANAGE tokens only',
  })
  webhookSecret?: string;
  @ApiProperty({ type: [PlatformCurrencyConfigDto] }) supportedCurrencies: PlatformCurrencyConfigDto[];
  @ApiProperty() isRegulatedFinancialInstitution: boolean;
  @ApiProperty({
    type: [FeeConfigDto],
    description: 'Platform-collected fees added on top of the service fees: every active fee config of the platform',
  })
  feeConfigs: FeeConfigDto[];
  @ApiProperty({ type: CardConfigsView }) cardConfigs: CardConfigsView;
  @ApiProperty({ type: CardProgramView }) cardProgram: CardProgramView;
  @ApiProperty() counterpartyRequirements: boolean;
  @ApiPropertyOptional({
    type: EmbeddedWalletConfigDto,
    description: 'Present only when the platform has configured embedded wallets',
  })
  embeddedWalletConfig?: EmbeddedWalletConfigDto;
  @ApiProperty({
    type: String,
    isArray: true,
    enum: EXTRA_WEBHOOK_TYPE_CHOICES,
    description: EXTRA_WEBHOOK_TYPES_DESCRIPTION,
  })
  extraWebhookTypes: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
