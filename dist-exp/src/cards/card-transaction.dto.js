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
import { PageOf, PageQuery } from '../common/pagination.js';
import { IdField, IntField, MAX_SAFE_MINOR_UNITS, NestedField, StringField } from '../common/validation.js';
import { CurrencyAmount } from '../customers/internal-account.dto.js';
import { CARD_DECLINED_REASONS, CARD_TRANSACTION_STATUSES, TRANSACTION_DIRECTIONS } from './card-transaction.entity.js';
/** The reference's CardMerchant. On the simulations the descriptor is 1 to 25 characters (the acceptor-name width). */
export class CardMerchant {
    descriptor;
    mcc;
    city;
    state;
    country;
}
__decorate([
    StringField({
        minLength: 1,
        maxLength: 25,
        description: 'Merchant descriptor; its last three characters drive the sandbox outcome (002, 003, 005, 006)',
        example: 'BLUE BOTTLE COFFEE SF',
    }),
    __metadata("design:type", String)
], CardMerchant.prototype, "descriptor", void 0);
__decorate([
    StringField({
        required: false,
        pattern: /^[0-9]{4}$/,
        format: 'mcc',
        description: 'Merchant Category Code (ISO 18245)',
        example: '5814',
    }),
    __metadata("design:type", String)
], CardMerchant.prototype, "mcc", void 0);
__decorate([
    StringField({
        required: false,
        minLength: 1,
        maxLength: 100,
        description: 'Merchant city',
        example: 'San Francisco',
    }),
    __metadata("design:type", String)
], CardMerchant.prototype, "city", void 0);
__decorate([
    StringField({
        required: false,
        minLength: 1,
        maxLength: 100,
        description: 'Merchant state or region',
        example: 'CA',
    }),
    __metadata("design:type", String)
], CardMerchant.prototype, "state", void 0);
__decorate([
    StringField({
        required: false,
        pattern: /^[A-Z]{2}$/,
        format: 'ISO 3166-1 alpha-2',
        description: 'Merchant country',
        example: 'US',
    }),
    __metadata("design:type", String)
], CardMerchant.prototype, "country", void 0);
/** The reference's Currency as a request member: `{code}`. */
export class CurrencyCode {
    code;
}
__decorate([
    StringField({ pattern: /^[A-Z]{3,4}$/, format: 'currency code', description: 'ISO 4217 code', example: 'USD' }),
    __metadata("design:type", String)
], CurrencyCode.prototype, "code", void 0);
/** Reference SandboxCardAuthorizationRequest. */
export class SandboxCardAuthorizationRequest {
    amount;
    currency;
    merchant;
}
__decorate([
    IntField({ min: 1, max: MAX_SAFE_MINOR_UNITS, description: 'Authorization amount in minor units' }),
    __metadata("design:type", Number)
], SandboxCardAuthorizationRequest.prototype, "amount", void 0);
__decorate([
    NestedField(() => CurrencyCode, { description: "The card's currency" }),
    __metadata("design:type", CurrencyCode)
], SandboxCardAuthorizationRequest.prototype, "currency", void 0);
__decorate([
    NestedField(() => CardMerchant),
    __metadata("design:type", CardMerchant)
], SandboxCardAuthorizationRequest.prototype, "merchant", void 0);
/** Reference SandboxCardClearingRequest: an amount of 0 acts as an authorization expiry. */
export class SandboxCardClearingRequest {
    cardTransactionId;
    amount;
}
__decorate([
    IdField('Transaction', { description: 'The card transaction to clear (AUTHORIZED or PARTIALLY_SETTLED)' }),
    __metadata("design:type", String)
], SandboxCardClearingRequest.prototype, "cardTransactionId", void 0);
__decorate([
    IntField({
        min: 0,
        max: MAX_SAFE_MINOR_UNITS,
        description: 'Clearing amount in minor units; 0 expires the authorization',
    }),
    __metadata("design:type", Number)
], SandboxCardClearingRequest.prototype, "amount", void 0);
/** Reference SandboxCardReturnRequest. */
export class SandboxCardReturnRequest {
    cardTransactionId;
    amount;
}
__decorate([
    IdField('Transaction', { description: 'The settled card transaction to refund against' }),
    __metadata("design:type", String)
], SandboxCardReturnRequest.prototype, "cardTransactionId", void 0);
__decorate([
    IntField({
        min: 1,
        max: MAX_SAFE_MINOR_UNITS,
        description: 'Return amount in minor units, at most the net settled amount (settled minus refunded)',
    }),
    __metadata("design:type", Number)
], SandboxCardReturnRequest.prototype, "amount", void 0);
/** Reference SandboxCardReversalRequest. */
export class SandboxCardReversalRequest {
    cardTransactionId;
    amount;
}
__decorate([
    IdField('Transaction', { description: 'The authorization to reverse; nothing may have settled against it' }),
    __metadata("design:type", String)
], SandboxCardReversalRequest.prototype, "cardTransactionId", void 0);
__decorate([
    IntField({
        min: 1,
        max: MAX_SAFE_MINOR_UNITS,
        required: false,
        description: 'How much to reverse (omitted: all of it)',
    }),
    __metadata("design:type", Number)
], SandboxCardReversalRequest.prototype, "amount", void 0);
/** Reference SandboxCardTransactionRefRequest (authorization_expiry). */
export class SandboxCardTransactionRefRequest {
    cardTransactionId;
}
__decorate([
    IdField('Transaction', { description: 'The open authorization to expire' }),
    __metadata("design:type", String)
], SandboxCardTransactionRefRequest.prototype, "cardTransactionId", void 0);
export class CardMerchantView {
    descriptor;
    mcc;
    city;
    state;
    country;
}
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], CardMerchantView.prototype, "descriptor", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], CardMerchantView.prototype, "mcc", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], CardMerchantView.prototype, "city", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], CardMerchantView.prototype, "state", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], CardMerchantView.prototype, "country", void 0);
/** The reference's CardTransaction. */
export class CardTransaction {
    type;
    id;
    cardId;
    customerId;
    platformCustomerId;
    issuerTransactionToken;
    status;
    cardDeclinedReason;
    direction;
    originalTransactionId;
    description;
    merchant;
    authorizedAmount;
    settledAmount;
    refundedAmount;
    accountId;
    authorizedAt;
    createdAt;
    updatedAt;
}
__decorate([
    ApiProperty({ enum: ['CARD'] }),
    __metadata("design:type", String)
], CardTransaction.prototype, "type", void 0);
__decorate([
    ApiProperty({ example: 'Transaction:019542f5-b3e7-1d02-0000-000000000100' }),
    __metadata("design:type", String)
], CardTransaction.prototype, "id", void 0);
__decorate([
    ApiProperty({ example: 'Card:019542f5-b3e7-1d02-0000-000000000010' }),
    __metadata("design:type", String)
], CardTransaction.prototype, "cardId", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], CardTransaction.prototype, "customerId", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], CardTransaction.prototype, "platformCustomerId", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], CardTransaction.prototype, "issuerTransactionToken", void 0);
__decorate([
    ApiProperty({ enum: CARD_TRANSACTION_STATUSES }),
    __metadata("design:type", String)
], CardTransaction.prototype, "status", void 0);
__decorate([
    ApiPropertyOptional({ enum: CARD_DECLINED_REASONS, description: 'Present only when status is DECLINED' }),
    __metadata("design:type", String)
], CardTransaction.prototype, "cardDeclinedReason", void 0);
__decorate([
    ApiProperty({ enum: TRANSACTION_DIRECTIONS }),
    __metadata("design:type", String)
], CardTransaction.prototype, "direction", void 0);
__decorate([
    ApiPropertyOptional({ description: 'On a return (CREDIT): the purchase it credits back against' }),
    __metadata("design:type", String)
], CardTransaction.prototype, "originalTransactionId", void 0);
__decorate([
    ApiProperty({ description: 'The merchant descriptor' }),
    __metadata("design:type", String)
], CardTransaction.prototype, "description", void 0);
__decorate([
    ApiProperty({ type: CardMerchantView }),
    __metadata("design:type", CardMerchantView)
], CardTransaction.prototype, "merchant", void 0);
__decorate([
    ApiProperty({
        type: CurrencyAmount,
        description: 'Still authorized: the authorization minus reversals and expiries',
    }),
    __metadata("design:type", CurrencyAmount)
], CardTransaction.prototype, "authorizedAmount", void 0);
__decorate([
    ApiPropertyOptional({ type: CurrencyAmount, description: 'Sum of the clearings (absent before the first)' }),
    __metadata("design:type", CurrencyAmount)
], CardTransaction.prototype, "settledAmount", void 0);
__decorate([
    ApiPropertyOptional({
        type: CurrencyAmount,
        description: 'Sum of the returns against this purchase (absent when none)',
    }),
    __metadata("design:type", CurrencyAmount)
], CardTransaction.prototype, "refundedAmount", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], CardTransaction.prototype, "accountId", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], CardTransaction.prototype, "authorizedAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], CardTransaction.prototype, "createdAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], CardTransaction.prototype, "updatedAt", void 0);
/** Reference SandboxCardSimulationResponse, plus the resulting card transaction (ours). */
export class SandboxCardSimulationResponse {
    issuerTransactionToken;
    cardTransaction;
}
__decorate([
    ApiProperty({ description: "The sandbox issuer's token for the simulated event" }),
    __metadata("design:type", String)
], SandboxCardSimulationResponse.prototype, "issuerTransactionToken", void 0);
__decorate([
    ApiProperty({ type: CardTransaction, description: 'The card transaction as the simulation left it (ours)' }),
    __metadata("design:type", CardTransaction)
], SandboxCardSimulationResponse.prototype, "cardTransaction", void 0);
export class ListCardTransactionsQuery extends PageQuery {
}
export const CardTransactionListResponse = PageOf(CardTransaction, 'CardTransactionListResponse');
//# sourceMappingURL=card-transaction.dto.js.map