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
export const QUOTE_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'];
export const LOCK_SIDES = ['SENDING', 'RECEIVING'];
/** A priced, time-limited offer to move money from a customer's internal account. */
let QuoteEntity = class QuoteEntity {
    id;
    platformId;
    agentId;
    customerId;
    sourceAccountId;
    destinationKind;
    destinationAccountId;
    paymentRail;
    lockedCurrencySide;
    sendingCurrency;
    receivingCurrency;
    totalSendingAmount;
    totalReceivingAmount;
    exchangeRate;
    feesIncluded;
    rateDetails;
    description;
    purposeOfPayment;
    /** The transaction this quote creates when executed (allocated with the quote, as the reference shows it). */
    transactionId;
    /** Stored status; a PENDING quote past `expiresAt` renders EXPIRED. */
    status;
    expiresAt;
    createdAt;
    updatedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], QuoteEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "platformId", void 0);
__decorate([
    Column('uuid', { name: 'agent_id' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "agentId", void 0);
__decorate([
    Column('uuid', { name: 'customer_id' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "customerId", void 0);
__decorate([
    Column('uuid', { name: 'source_account_id' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "sourceAccountId", void 0);
__decorate([
    Column('text', { name: 'destination_kind' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "destinationKind", void 0);
__decorate([
    Column('uuid', { name: 'destination_account_id' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "destinationAccountId", void 0);
__decorate([
    Column('text', { name: 'payment_rail', nullable: true }),
    __metadata("design:type", Object)
], QuoteEntity.prototype, "paymentRail", void 0);
__decorate([
    Column('text', { name: 'locked_currency_side' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "lockedCurrencySide", void 0);
__decorate([
    Column('text', { name: 'sending_currency' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "sendingCurrency", void 0);
__decorate([
    Column('text', { name: 'receiving_currency' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "receivingCurrency", void 0);
__decorate([
    Column('bigint', { name: 'total_sending_amount' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "totalSendingAmount", void 0);
__decorate([
    Column('bigint', { name: 'total_receiving_amount' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "totalReceivingAmount", void 0);
__decorate([
    Column('double precision', { name: 'exchange_rate' }),
    __metadata("design:type", Number)
], QuoteEntity.prototype, "exchangeRate", void 0);
__decorate([
    Column('bigint', { name: 'fees_included' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "feesIncluded", void 0);
__decorate([
    Column('jsonb', { name: 'rate_details' }),
    __metadata("design:type", Object)
], QuoteEntity.prototype, "rateDetails", void 0);
__decorate([
    Column('text', { nullable: true }),
    __metadata("design:type", Object)
], QuoteEntity.prototype, "description", void 0);
__decorate([
    Column('text', { name: 'purpose_of_payment', nullable: true }),
    __metadata("design:type", Object)
], QuoteEntity.prototype, "purposeOfPayment", void 0);
__decorate([
    Column('uuid', { name: 'transaction_id' }),
    __metadata("design:type", String)
], QuoteEntity.prototype, "transactionId", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], QuoteEntity.prototype, "status", void 0);
__decorate([
    Column('timestamptz', { name: 'expires_at' }),
    __metadata("design:type", Date)
], QuoteEntity.prototype, "expiresAt", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], QuoteEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], QuoteEntity.prototype, "updatedAt", void 0);
QuoteEntity = __decorate([
    Entity('quotes')
], QuoteEntity);
export { QuoteEntity };
//# sourceMappingURL=quote.entity.js.map