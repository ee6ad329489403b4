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
export const EXTERNAL_ACCOUNT_STATUSES = [
    'PENDING',
    'ACTIVE',
    'PENDING_OWNERSHIP_VERIFICATION',
    'UNVERIFIED',
    'UNDER_REVIEW',
    'INACTIVE',
];
export const OWNERSHIP_TYPES = ['FIRST_PARTY', 'THIRD_PARTY'];
let ExternalAccountEntity = class ExternalAccountEntity {
    id;
    platformId;
    /** Null: the account belongs to the platform itself. */
    customerId;
    /** Unique across all platforms among live accounts. */
    platformAccountId;
    ownershipType;
    currency;
    status;
    defaultUmaDepositAccount;
    beneficiaryVerificationStatus;
    beneficiaryVerifiedData;
    accountType;
    /** The create request's accountInfo, whole (account numbers included). */
    accountInfo;
    /** Normalised account identity (type + identifying fields) for duplicate detection. */
    identity;
    createdAt;
    updatedAt;
    deletedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], ExternalAccountEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], ExternalAccountEntity.prototype, "platformId", void 0);
__decorate([
    Column('uuid', { name: 'customer_id', nullable: true }),
    __metadata("design:type", Object)
], ExternalAccountEntity.prototype, "customerId", void 0);
__decorate([
    Column('text', { name: 'platform_account_id', nullable: true }),
    __metadata("design:type", Object)
], ExternalAccountEntity.prototype, "platformAccountId", void 0);
__decorate([
    Column('text', { name: 'ownership_type', nullable: true }),
    __metadata("design:type", Object)
], ExternalAccountEntity.prototype, "ownershipType", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], ExternalAccountEntity.prototype, "currency", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], ExternalAccountEntity.prototype, "status", void 0);
__decorate([
    Column('boolean', { name: 'default_uma_deposit_account' }),
    __metadata("design:type", Boolean)
], ExternalAccountEntity.prototype, "defaultUmaDepositAccount", void 0);
__decorate([
    Column('text', { name: 'beneficiary_verification_status' }),
    __metadata("design:type", String)
], ExternalAccountEntity.prototype, "beneficiaryVerificationStatus", void 0);
__decorate([
    Column('jsonb', { name: 'beneficiary_verified_data', nullable: true }),
    __metadata("design:type", Object)
], ExternalAccountEntity.prototype, "beneficiaryVerifiedData", void 0);
__decorate([
    Column('text', { name: 'account_type' }),
    __metadata("design:type", String)
], ExternalAccountEntity.prototype, "accountType", void 0);
__decorate([
    Column('jsonb', { name: 'account_info' }),
    __metadata("design:type", Object)
], ExternalAccountEntity.prototype, "accountInfo", void 0);
__decorate([
    Column('text'),
    __metadata("design:type", String)
], ExternalAccountEntity.prototype, "identity", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], ExternalAccountEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], ExternalAccountEntity.prototype, "updatedAt", void 0);
__decorate([
    Column('timestamptz', { name: 'deleted_at', nullable: true }),
    __metadata("design:type", Object)
], ExternalAccountEntity.prototype, "deletedAt", void 0);
ExternalAccountEntity = __decorate([
    Entity('external_accounts')
], ExternalAccountEntity);
export { ExternalAccountEntity };
//# sourceMappingURL=external-account.entity.js.map