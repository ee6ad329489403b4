var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize } from 'class-validator';
import { BoolField, EnumField, IntField, MAX_SAFE_MINOR_UNITS, NestedField, StringField, } from '../common/validation.js';
import { AUTHORIZATION_DECISION_MAKERS, CARD_CAPABILITY_NAMES, SANDBOX_PROVISIONING_MODES } from './card-program.js';
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
];
export const TRANSACTION_TYPES = ['INCOMING', 'OUTGOING', 'CARD'];
export const MAX_INT32 = 2147483647;
export class CounterpartyFieldDefinitionDto {
    name;
    mandatory;
}
__decorate([
    EnumField(CUSTOMER_INFO_FIELD_NAMES),
    __metadata("design:type", String)
], CounterpartyFieldDefinitionDto.prototype, "name", void 0);
__decorate([
    BoolField(),
    __metadata("design:type", Boolean)
], CounterpartyFieldDefinitionDto.prototype, "mandatory", void 0);
export class PlatformCurrencyConfigDto {
    currencyCode;
    minAmount;
    maxAmount;
    requiredCounterpartyFields;
    enabledTransactionTypes;
}
__decorate([
    StringField({ pattern: /^[A-Z]{3}$/, format: 'iso4217', description: 'ISO 4217 currency code' }),
    __metadata("design:type", String)
], PlatformCurrencyConfigDto.prototype, "currencyCode", void 0);
__decorate([
    IntField({ min: 0, max: MAX_SAFE_MINOR_UNITS, description: 'Smallest amount, in minor units' }),
    __metadata("design:type", Number)
], PlatformCurrencyConfigDto.prototype, "minAmount", void 0);
__decorate([
    IntField({ min: 0, max: MAX_SAFE_MINOR_UNITS, description: 'Largest amount, in minor units' }),
    __metadata("design:type", Number)
], PlatformCurrencyConfigDto.prototype, "maxAmount", void 0);
__decorate([
    NestedField(() => CounterpartyFieldDefinitionDto, { each: true }),
    __metadata("design:type", Array)
], PlatformCurrencyConfigDto.prototype, "requiredCounterpartyFields", void 0);
__decorate([
    EnumField(TRANSACTION_TYPES, { each: true }),
    __metadata("design:type", Array)
], PlatformCurrencyConfigDto.prototype, "enabledTransactionTypes", void 0);
const HTTPS_ORIGIN = /^https:\/\/(?:[^\s/?#@:[\]\\]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;
/** The reference's CardConfig. Each member: omitted leaves it, null clears it, a value sets it. */
export class CardConfigsDto {
    pinTargetOrigin;
    maxSpendPerTransaction;
    maxSpendPerDay;
    maxTransactionsPerDay;
    panRevealCssUrl;
}
__decorate([
    StringField({ required: false, nullable: true, pattern: HTTPS_ORIGIN, format: 'uri', maxLength: 512 }),
    __metadata("design:type", Object)
], CardConfigsDto.prototype, "pinTargetOrigin", void 0);
__decorate([
    IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false, nullable: true }),
    __metadata("design:type", Object)
], CardConfigsDto.prototype, "maxSpendPerTransaction", void 0);
__decorate([
    IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, required: false, nullable: true }),
    __metadata("design:type", Object)
], CardConfigsDto.prototype, "maxSpendPerDay", void 0);
__decorate([
    IntField({ min: 1, max: MAX_INT32, required: false, nullable: true }),
    __metadata("design:type", Object)
], CardConfigsDto.prototype, "maxTransactionsPerDay", void 0);
__decorate([
    StringField({ required: false, nullable: true, pattern: /^https:\/\/[^@]*$/, format: 'uri', maxLength: 512 }),
    __metadata("design:type", Object)
], CardConfigsDto.prototype, "panRevealCssUrl", void 0);
export class CardCapabilitiesDto {
    supportsSpendLimits;
    supportsSpendLimitsAtIssuance;
    supportsTransactionCountLimit;
    supports3dSecurePassword;
    supportsPanReveal;
    supportsDigitalWalletTokenization;
}
__decorate([
    BoolField({ required: false }),
    __metadata("design:type", Boolean)
], CardCapabilitiesDto.prototype, "supportsSpendLimits", void 0);
__decorate([
    BoolField({ required: false }),
    __metadata("design:type", Boolean)
], CardCapabilitiesDto.prototype, "supportsSpendLimitsAtIssuance", void 0);
__decorate([
    BoolField({ required: false }),
    __metadata("design:type", Boolean)
], CardCapabilitiesDto.prototype, "supportsTransactionCountLimit", void 0);
__decorate([
    BoolField({ required: false }),
    __metadata("design:type", Boolean)
], CardCapabilitiesDto.prototype, "supports3dSecurePassword", void 0);
__decorate([
    BoolField({ required: false }),
    __metadata("design:type", Boolean)
], CardCapabilitiesDto.prototype, "supportsPanReveal", void 0);
__decorate([
    BoolField({ required: false }),
    __metadata("design:type", Boolean)
], CardCapabilitiesDto.prototype, "supportsDigitalWalletTokenization", void 0);
/** Card program settings of this service (not in the reference). */
export class CardProgramDto {
    authorizationDecisionMaker;
    cardCapabilities;
    maxLiveCards;
    oneLiveCardPerCardholder;
    sandboxProvisioning;
}
__decorate([
    EnumField(AUTHORIZATION_DECISION_MAKERS, {
        required: false,
        description: 'Who makes authorization decisions: this service (SERVICE) or the card issuer (ISSUER)',
    }),
    __metadata("design:type", String)
], CardProgramDto.prototype, "authorizationDecisionMaker", void 0);
__decorate([
    NestedField(() => CardCapabilitiesDto, { required: false, description: 'Capabilities fixed on cards at issuance' }),
    __metadata("design:type", CardCapabilitiesDto)
], CardProgramDto.prototype, "cardCapabilities", void 0);
__decorate([
    IntField({ min: 1, max: 10_000_000, required: false, description: 'Maximum live (non-closed) cards' }),
    __metadata("design:type", Number)
], CardProgramDto.prototype, "maxLiveCards", void 0);
__decorate([
    BoolField({ required: false, description: 'Whether a cardholder may hold only one live card' }),
    __metadata("design:type", Boolean)
], CardProgramDto.prototype, "oneLiveCardPerCardholder", void 0);
__decorate([
    EnumField(SANDBOX_PROVISIONING_MODES, {
        required: false,
        description: 'Sandbox issuer: AUTOMATIC completes provisioning in the background (about a second); MANUAL waits for POST /sandbox/cards/{id}/simulate/provisioning',
    }),
    __metadata("design:type", String)
], CardProgramDto.prototype, "sandboxProvisioning", void 0);
export class PlatformConfigUpdateRequest {
    umaDomain;
    webhookEndpoint;
    supportedCurrencies;
    cardConfigs;
    cardProgram;
    counterpartyRequirements;
}
__decorate([
    StringField({
        required: false,
        maxLength: 200,
        pattern: /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
        format: 'hostname',
    }),
    __metadata("design:type", String)
], PlatformConfigUpdateRequest.prototype, "umaDomain", void 0);
__decorate([
    StringField({
        required: false,
        nullable: true,
        maxLength: 2048,
        format: 'url',
        description: 'Absolute https URL (http is accepted only in sandbox); null clears it',
    }),
    __metadata("design:type", Object)
], PlatformConfigUpdateRequest.prototype, "webhookEndpoint", void 0);
__decorate([
    NestedField(() => PlatformCurrencyConfigDto, { required: false, each: true }),
    ArrayMinSize(1, { message: 'supportedCurrencies must list at least one currency' }),
    __metadata("design:type", Array)
], PlatformConfigUpdateRequest.prototype, "supportedCurrencies", void 0);
__decorate([
    NestedField(() => CardConfigsDto, { required: false }),
    __metadata("design:type", CardConfigsDto)
], PlatformConfigUpdateRequest.prototype, "cardConfigs", void 0);
__decorate([
    NestedField(() => CardProgramDto, { required: false }),
    __metadata("design:type", CardProgramDto)
], PlatformConfigUpdateRequest.prototype, "cardProgram", void 0);
__decorate([
    BoolField({
        required: false,
        description: 'Platform is subject to counterparty rules (e.g. the EU Travel Rule): self-custody wallet accounts need ownershipType and start PENDING_OWNERSHIP_VERIFICATION',
    }),
    __metadata("design:type", Boolean)
], PlatformConfigUpdateRequest.prototype, "counterpartyRequirements", void 0);
export class CardConfigsView {
    pinTargetOrigin;
    maxSpendPerTransaction;
    maxSpendPerDay;
    maxTransactionsPerDay;
    panRevealCssUrl;
}
__decorate([
    ApiProperty({ nullable: true, type: String }),
    __metadata("design:type", Object)
], CardConfigsView.prototype, "pinTargetOrigin", void 0);
__decorate([
    ApiProperty({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CardConfigsView.prototype, "maxSpendPerTransaction", void 0);
__decorate([
    ApiProperty({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CardConfigsView.prototype, "maxSpendPerDay", void 0);
__decorate([
    ApiProperty({ nullable: true, type: Number }),
    __metadata("design:type", Object)
], CardConfigsView.prototype, "maxTransactionsPerDay", void 0);
__decorate([
    ApiProperty({ nullable: true, type: String }),
    __metadata("design:type", Object)
], CardConfigsView.prototype, "panRevealCssUrl", void 0);
export class CardProgramView {
    authorizationDecisionMaker;
    cardCapabilities;
    maxLiveCards;
    oneLiveCardPerCardholder;
    sandboxProvisioning;
}
__decorate([
    ApiProperty({ enum: AUTHORIZATION_DECISION_MAKERS }),
    __metadata("design:type", String)
], CardProgramView.prototype, "authorizationDecisionMaker", void 0);
__decorate([
    ApiProperty({
        type: 'object',
        properties: Object.fromEntries(CARD_CAPABILITY_NAMES.map((n) => [n, { type: 'boolean' }])),
    }),
    __metadata("design:type", Object)
], CardProgramView.prototype, "cardCapabilities", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Number)
], CardProgramView.prototype, "maxLiveCards", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Boolean)
], CardProgramView.prototype, "oneLiveCardPerCardholder", void 0);
__decorate([
    ApiProperty({ enum: SANDBOX_PROVISIONING_MODES }),
    __metadata("design:type", String)
], CardProgramView.prototype, "sandboxProvisioning", void 0);
export class PlatformConfig {
    id;
    umaDomain;
    proxyUmaSubdomain;
    webhookEndpoint;
    webhookPublicKey;
    webhookSecret;
    supportedCurrencies;
    isRegulatedFinancialInstitution;
    cardConfigs;
    cardProgram;
    counterpartyRequirements;
    createdAt;
    updatedAt;
}
__decorate([
    ApiProperty({ example: 'PlatformConfig:019542f5-b3e7-1d02-0000-000000000003' }),
    __metadata("design:type", String)
], PlatformConfig.prototype, "id", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], PlatformConfig.prototype, "umaDomain", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], PlatformConfig.prototype, "proxyUmaSubdomain", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], PlatformConfig.prototype, "webhookEndpoint", void 0);
__decorate([
    ApiProperty({
        description: 'ECDSA P-256 public key (PEM, SPKI) that verifies the X-Grid-Signature header of every webhook',
    }),
    __metadata("design:type", String)
], PlatformConfig.prototype, "webhookPublicKey", void 0);
__decorate([
    ApiPropertyOptional({
        description: 'Standard Webhooks signing secret (whsec_...) for the webhook-signature header; shown to MANAGE tokens only',
    }),
    __metadata("design:type", String)
], PlatformConfig.prototype, "webhookSecret", void 0);
__decorate([
    ApiProperty({ type: [PlatformCurrencyConfigDto] }),
    __metadata("design:type", Array)
], PlatformConfig.prototype, "supportedCurrencies", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Boolean)
], PlatformConfig.prototype, "isRegulatedFinancialInstitution", void 0);
__decorate([
    ApiProperty({ type: CardConfigsView }),
    __metadata("design:type", CardConfigsView)
], PlatformConfig.prototype, "cardConfigs", void 0);
__decorate([
    ApiProperty({ type: CardProgramView }),
    __metadata("design:type", CardProgramView)
], PlatformConfig.prototype, "cardProgram", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Boolean)
], PlatformConfig.prototype, "counterpartyRequirements", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], PlatformConfig.prototype, "createdAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], PlatformConfig.prototype, "updatedAt", void 0);
//# sourceMappingURL=platform-config.dto.js.map