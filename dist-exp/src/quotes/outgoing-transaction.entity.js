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
/** Money sent out of a customer's internal account by executing a quote (id = the quote's transactionId). */
let OutgoingTransactionEntity = class OutgoingTransactionEntity {
    id;
    platformId;
    customerId;
    agentId;
    quoteId;
    status;
    failureReason;
    sourceAccountId;
    destinationKind;
    destinationAccountId;
    paymentRail;
    sentAmount;
    sendingCurrency;
    receivedAmount;
    receivingCurrency;
    exchangeRate;
    fees;
    rateDetails;
    description;
    settledAt;
    createdAt;
    updatedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "platformId", void 0);
__decorate([
    Column('uuid', { name: 'customer_id' }),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "customerId", void 0);
__decorate([
    Column('uuid', { name: 'agent_id', nullable: true }),
    __metadata("design:type", Object)
], OutgoingTransactionEntity.prototype, "agentId", void 0);
__decorate([
    Column('uuid', { name: 'quote_id' }),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "quoteId", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "status", void 0);
__decorate([
    Column('text', { name: 'failure_reason', nullable: true }),
    __metadata("design:type", Object)
], OutgoingTransactionEntity.prototype, "failureReason", void 0);
__decorate([
    Column('uuid', { name: 'source_account_id' }),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "sourceAccountId", void 0);
__decorate([
    Column('text', { name: 'destination_kind' }),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "destinationKind", void 0);
__decorate([
    Column('uuid', { name: 'destination_account_id' }),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "destinationAccountId", void 0);
__decorate([
    Column('text', { name: 'payment_rail', nullable: true }),
    __metadata("design:type", Object)
], OutgoingTransactionEntity.prototype, "paymentRail", void 0);
__decorate([
    Column('bigint', { name: 'sent_amount' }),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "sentAmount", void 0);
__decorate([
    Column('text', { name: 'sending_currency' }),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "sendingCurrency", void 0);
__decorate([
    Column('bigint', { name: 'received_amount' }),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "receivedAmount", void 0);
__decorate([
    Column('text', { name: 'receiving_currency' }),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "receivingCurrency", void 0);
__decorate([
    Column('double precision', { name: 'exchange_rate' }),
    __metadata("design:type", Number)
], OutgoingTransactionEntity.prototype, "exchangeRate", void 0);
__decorate([
    Column('bigint'),
    __metadata("design:type", String)
], OutgoingTransactionEntity.prototype, "fees", void 0);
__decorate([
    Column('jsonb', { name: 'rate_details' }),
    __metadata("design:type", Object)
], OutgoingTransactionEntity.prototype, "rateDetails", void 0);
__decorate([
    Column('text', { nullable: true }),
    __metadata("design:type", Object)
], OutgoingTransactionEntity.prototype, "description", void 0);
__decorate([
    Column('timestamptz', { name: 'settled_at', nullable: true }),
    __metadata("design:type", Object)
], OutgoingTransactionEntity.prototype, "settledAt", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], OutgoingTransactionEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], OutgoingTransactionEntity.prototype, "updatedAt", void 0);
OutgoingTransactionEntity = __decorate([
    Entity('outgoing_transactions')
], OutgoingTransactionEntity);
export { OutgoingTransactionEntity };
//# sourceMappingURL=outgoing-transaction.entity.js.map