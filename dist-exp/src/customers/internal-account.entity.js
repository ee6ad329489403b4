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
/** A customer's (customerId set) or the platform's own (customerId null) holding account. */
let InternalAccountEntity = class InternalAccountEntity {
    id;
    platformId;
    customerId;
    type;
    status;
    currency;
    /**
     * Cached balance in minor units (bigint, read as a decimal string): always equal to the
     * `balanceAfter` of the account's latest ledger entry, written in the same transaction.
     */
    balance;
    /**
     * Sum of the open holds' `remaining` (0 to `balance`), written with the holds: `balance - held` is
     * available (rendered `balance`), `balance` includes held funds (rendered `totalBalance`).
     */
    held;
    /** Sequence number of the latest ledger entry (0 before the first movement). */
    ledgerSeq;
    createdAt;
    updatedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], InternalAccountEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], InternalAccountEntity.prototype, "platformId", void 0);
__decorate([
    Column('uuid', { name: 'customer_id', nullable: true }),
    __metadata("design:type", Object)
], InternalAccountEntity.prototype, "customerId", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], InternalAccountEntity.prototype, "type", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], InternalAccountEntity.prototype, "status", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], InternalAccountEntity.prototype, "currency", void 0);
__decorate([
    Column('bigint'),
    __metadata("design:type", String)
], InternalAccountEntity.prototype, "balance", void 0);
__decorate([
    Column('bigint'),
    __metadata("design:type", String)
], InternalAccountEntity.prototype, "held", void 0);
__decorate([
    Column('bigint', { name: 'ledger_seq' }),
    __metadata("design:type", String)
], InternalAccountEntity.prototype, "ledgerSeq", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], InternalAccountEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], InternalAccountEntity.prototype, "updatedAt", void 0);
InternalAccountEntity = __decorate([
    Entity('internal_accounts')
], InternalAccountEntity);
export { InternalAccountEntity };
/** One balance movement. Append-only (a database trigger refuses UPDATE and DELETE). */
let LedgerEntryEntity = class LedgerEntryEntity {
    id;
    accountId;
    platformId;
    /** 1, 2, 3... per account (unique with the account). */
    seq;
    /** Signed minor units: positive credits, negative debits; never zero. */
    amount;
    /** The account's balance after this movement. */
    balanceAfter;
    reason;
    reference;
    createdAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], LedgerEntryEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'account_id' }),
    __metadata("design:type", String)
], LedgerEntryEntity.prototype, "accountId", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], LedgerEntryEntity.prototype, "platformId", void 0);
__decorate([
    Column('bigint'),
    __metadata("design:type", String)
], LedgerEntryEntity.prototype, "seq", void 0);
__decorate([
    Column('bigint'),
    __metadata("design:type", String)
], LedgerEntryEntity.prototype, "amount", void 0);
__decorate([
    Column('bigint', { name: 'balance_after' }),
    __metadata("design:type", String)
], LedgerEntryEntity.prototype, "balanceAfter", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], LedgerEntryEntity.prototype, "reason", void 0);
__decorate([
    Column('text', { nullable: true }),
    __metadata("design:type", Object)
], LedgerEntryEntity.prototype, "reference", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], LedgerEntryEntity.prototype, "createdAt", void 0);
LedgerEntryEntity = __decorate([
    Entity('ledger_entries')
], LedgerEntryEntity);
export { LedgerEntryEntity };
export const LEDGER_HOLD_STATUSES = ['OPEN', 'CLOSED'];
/** Funds reserved on an account (e.g. by a card authorization): captured into a debit or released. */
let LedgerHoldEntity = class LedgerHoldEntity {
    id;
    accountId;
    platformId;
    /** Minor units held when the hold was placed. */
    amount;
    /** Minor units still held (0 once CLOSED). */
    remaining;
    status;
    reason;
    reference;
    createdAt;
    updatedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], LedgerHoldEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'account_id' }),
    __metadata("design:type", String)
], LedgerHoldEntity.prototype, "accountId", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], LedgerHoldEntity.prototype, "platformId", void 0);
__decorate([
    Column('bigint'),
    __metadata("design:type", String)
], LedgerHoldEntity.prototype, "amount", void 0);
__decorate([
    Column('bigint'),
    __metadata("design:type", String)
], LedgerHoldEntity.prototype, "remaining", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], LedgerHoldEntity.prototype, "status", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], LedgerHoldEntity.prototype, "reason", void 0);
__decorate([
    Column('text', { nullable: true }),
    __metadata("design:type", Object)
], LedgerHoldEntity.prototype, "reference", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], LedgerHoldEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], LedgerHoldEntity.prototype, "updatedAt", void 0);
LedgerHoldEntity = __decorate([
    Entity('ledger_holds')
], LedgerHoldEntity);
export { LedgerHoldEntity };
//# sourceMappingURL=internal-account.entity.js.map