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
export const CARD_TRANSACTION_STATUSES = [
    'AUTHORIZED',
    'PARTIALLY_SETTLED',
    'SETTLED',
    'DECLINED',
    'VOIDED',
    'EXCEPTION',
];
export const CARD_DECLINED_REASONS = [
    'CARD_NOT_ACTIVE',
    'SPEND_LIMIT_EXCEEDED',
    'INSUFFICIENT_FUNDS',
    'NO_ELIGIBLE_FUNDING_SOURCE',
    'BLOCKED',
    'UNSUPPORTED_NETWORK',
    'OTHER',
];
export const TRANSACTION_DIRECTIONS = ['DEBIT', 'CREDIT'];
/**
 * One cardholder-visible card transaction (`Transaction:<uuid>`): a purchase (DEBIT) from its
 * authorization through its clearings, or a merchant return (CREDIT) linked to its purchase.
 */
let CardTransactionEntity = class CardTransactionEntity {
    id;
    platformId;
    cardId;
    customerId;
    /** The internal account that funded it (the card's funding source at authorization). */
    accountId;
    direction;
    status;
    declinedReason;
    /** On a return (CREDIT): the purchase it credits back against. */
    originalTransactionId;
    issuerTransactionToken;
    currency;
    merchant;
    /** The amount authorized (requested, on a decline); what the day's limits count. */
    authorizedAmount;
    /** Released again by reversals and expiries (authorization minus this is still authorized). */
    reversedAmount;
    /** Sum of the clearings (on a return: the amount credited). */
    settledAmount;
    /** Sum of the returns posted against this purchase. */
    refundedAmount;
    /** The ledger hold of an approved authorization. */
    holdId;
    /** The sandbox issuer's instruction for the funding pull (`006`: the confirmation fails). */
    pullOutcome;
    authorizedAt;
    createdAt;
    updatedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "platformId", void 0);
__decorate([
    Column('uuid', { name: 'card_id' }),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "cardId", void 0);
__decorate([
    Column('uuid', { name: 'customer_id' }),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "customerId", void 0);
__decorate([
    Column('uuid', { name: 'account_id' }),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "accountId", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "direction", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "status", void 0);
__decorate([
    Column('text', { name: 'declined_reason', nullable: true }),
    __metadata("design:type", Object)
], CardTransactionEntity.prototype, "declinedReason", void 0);
__decorate([
    Column('uuid', { name: 'original_transaction_id', nullable: true }),
    __metadata("design:type", Object)
], CardTransactionEntity.prototype, "originalTransactionId", void 0);
__decorate([
    Column('text', { name: 'issuer_transaction_token' }),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "issuerTransactionToken", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "currency", void 0);
__decorate([
    Column('jsonb'),
    __metadata("design:type", Object)
], CardTransactionEntity.prototype, "merchant", void 0);
__decorate([
    Column('bigint', { name: 'authorized_amount' }),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "authorizedAmount", void 0);
__decorate([
    Column('bigint', { name: 'reversed_amount' }),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "reversedAmount", void 0);
__decorate([
    Column('bigint', { name: 'settled_amount' }),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "settledAmount", void 0);
__decorate([
    Column('bigint', { name: 'refunded_amount' }),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "refundedAmount", void 0);
__decorate([
    Column('uuid', { name: 'hold_id', nullable: true }),
    __metadata("design:type", Object)
], CardTransactionEntity.prototype, "holdId", void 0);
__decorate([
    Column('text', { name: 'pull_outcome' }),
    __metadata("design:type", String)
], CardTransactionEntity.prototype, "pullOutcome", void 0);
__decorate([
    Column('timestamptz', { name: 'authorized_at' }),
    __metadata("design:type", Date)
], CardTransactionEntity.prototype, "authorizedAt", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], CardTransactionEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], CardTransactionEntity.prototype, "updatedAt", void 0);
CardTransactionEntity = __decorate([
    Entity('card_transactions')
], CardTransactionEntity);
export { CardTransactionEntity };
//# sourceMappingURL=card-transaction.entity.js.map