var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Column, Entity, PrimaryColumn } from 'typeorm';
export * from './card-program.js';
let PlatformConfigEntity = class PlatformConfigEntity {
    platformId;
    id;
    umaDomain;
    proxyUmaSubdomain;
    webhookEndpoint;
    supportedCurrencies;
    cardConfigs;
    cardProgram;
    /** Subject to counterparty rules (e.g. the EU Travel Rule): self-custody wallets need ownershipType. */
    counterpartyRequirements;
    isRegulatedFinancialInstitution;
    createdAt;
    updatedAt;
};
__decorate([
    PrimaryColumn('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], PlatformConfigEntity.prototype, "platformId", void 0);
__decorate([
    Column('uuid'),
    __metadata("design:type", String)
], PlatformConfigEntity.prototype, "id", void 0);
__decorate([
    Column('text', { name: 'uma_domain', nullable: true }),
    __metadata("design:type", Object)
], PlatformConfigEntity.prototype, "umaDomain", void 0);
__decorate([
    Column('text', { name: 'proxy_uma_subdomain', nullable: true }),
    __metadata("design:type", Object)
], PlatformConfigEntity.prototype, "proxyUmaSubdomain", void 0);
__decorate([
    Column('text', { name: 'webhook_endpoint', nullable: true }),
    __metadata("design:type", Object)
], PlatformConfigEntity.prototype, "webhookEndpoint", void 0);
__decorate([
    Column('jsonb', { name: 'supported_currencies' }),
    __metadata("design:type", Array)
], PlatformConfigEntity.prototype, "supportedCurrencies", void 0);
__decorate([
    Column('jsonb', { name: 'card_configs' }),
    __metadata("design:type", Object)
], PlatformConfigEntity.prototype, "cardConfigs", void 0);
__decorate([
    Column('jsonb', { name: 'card_program' }),
    __metadata("design:type", Object)
], PlatformConfigEntity.prototype, "cardProgram", void 0);
__decorate([
    Column('boolean', { name: 'counterparty_requirements' }),
    __metadata("design:type", Boolean)
], PlatformConfigEntity.prototype, "counterpartyRequirements", void 0);
__decorate([
    Column('boolean', { name: 'is_regulated_financial_institution' }),
    __metadata("design:type", Boolean)
], PlatformConfigEntity.prototype, "isRegulatedFinancialInstitution", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], PlatformConfigEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], PlatformConfigEntity.prototype, "updatedAt", void 0);
PlatformConfigEntity = __decorate([
    Entity('platform_configs')
], PlatformConfigEntity);
export { PlatformConfigEntity };
export const DEFAULT_SUPPORTED_CURRENCIES = [
    {
        currencyCode: 'USD',
        minAmount: 1,
        maxAmount: 100_000_000,
        requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
        enabledTransactionTypes: ['OUTGOING', 'INCOMING', 'CARD'],
    },
];
/** A platform's webhook signing material; private parts encrypted with the server key. */
let WebhookSigningKeysEntity = class WebhookSigningKeysEntity {
    platformId;
    /** ECDSA P-256 public key, SPKI PEM: `webhookPublicKey` in GET /config. */
    publicKey;
    /** PKCS8 PEM private key, encrypted (`encryptSecret`). */
    privateKeyEnc;
    /** Current Standard Webhooks `whsec_` secret, encrypted. */
    secretEnc;
    /** The secret before the last rotation: still signs until `previousSecretExpiresAt`. */
    previousSecretEnc;
    previousSecretExpiresAt;
    createdAt;
    updatedAt;
};
__decorate([
    PrimaryColumn('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], WebhookSigningKeysEntity.prototype, "platformId", void 0);
__decorate([
    Column('text', { name: 'public_key' }),
    __metadata("design:type", String)
], WebhookSigningKeysEntity.prototype, "publicKey", void 0);
__decorate([
    Column('text', { name: 'private_key_enc' }),
    __metadata("design:type", String)
], WebhookSigningKeysEntity.prototype, "privateKeyEnc", void 0);
__decorate([
    Column('text', { name: 'secret_enc' }),
    __metadata("design:type", String)
], WebhookSigningKeysEntity.prototype, "secretEnc", void 0);
__decorate([
    Column('text', { name: 'previous_secret_enc', nullable: true }),
    __metadata("design:type", Object)
], WebhookSigningKeysEntity.prototype, "previousSecretEnc", void 0);
__decorate([
    Column('timestamptz', { name: 'previous_secret_expires_at', nullable: true }),
    __metadata("design:type", Object)
], WebhookSigningKeysEntity.prototype, "previousSecretExpiresAt", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], WebhookSigningKeysEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], WebhookSigningKeysEntity.prototype, "updatedAt", void 0);
WebhookSigningKeysEntity = __decorate([
    Entity('webhook_signing_keys')
], WebhookSigningKeysEntity);
export { WebhookSigningKeysEntity };
//# sourceMappingURL=platform-config.entity.js.map