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
let CustomerEntity = class CustomerEntity {
    id;
    platformId;
    /** Unique among the platform's active customers (partial unique index). */
    platformCustomerId;
    customerType;
    /** KYC (individuals) or KYB (businesses) status; set by KYC review, in sandbox by POST /sandbox/customers/{id}/kyc. */
    kycStatus;
    region;
    currencies;
    email;
    phoneNumber;
    umaAddress;
    /** Variant-specific members (see CustomerProfile). */
    profile;
    /** Write-only identification number (SSN / ITIN): stored for onboarding, never returned. */
    identifier;
    endUserTermsConsent;
    isDeleted;
    deletedAt;
    createdAt;
    updatedAt;
};
__decorate([
    PrimaryColumn('uuid'),
    __metadata("design:type", String)
], CustomerEntity.prototype, "id", void 0);
__decorate([
    Column('uuid', { name: 'platform_id' }),
    __metadata("design:type", String)
], CustomerEntity.prototype, "platformId", void 0);
__decorate([
    Column('text', { name: 'platform_customer_id' }),
    __metadata("design:type", String)
], CustomerEntity.prototype, "platformCustomerId", void 0);
__decorate([
    Column('text', { name: 'customer_type' }),
    __metadata("design:type", String)
], CustomerEntity.prototype, "customerType", void 0);
__decorate([
    Column('text', { name: 'kyc_status' }),
    __metadata("design:type", String)
], CustomerEntity.prototype, "kycStatus", void 0);
__decorate([
    Column('text', { nullable: true }),
    __metadata("design:type", Object)
], CustomerEntity.prototype, "region", void 0);
__decorate([
    Column('text', { array: true }),
    __metadata("design:type", Array)
], CustomerEntity.prototype, "currencies", void 0);
__decorate([
    Column('text', { nullable: true }),
    __metadata("design:type", Object)
], CustomerEntity.prototype, "email", void 0);
__decorate([
    Column('text', { name: 'phone_number', nullable: true }),
    __metadata("design:type", Object)
], CustomerEntity.prototype, "phoneNumber", void 0);
__decorate([
    Column('text', { name: 'uma_address' }),
    __metadata("design:type", String)
], CustomerEntity.prototype, "umaAddress", void 0);
__decorate([
    Column('jsonb'),
    __metadata("design:type", Object)
], CustomerEntity.prototype, "profile", void 0);
__decorate([
    Column('text', { nullable: true, select: false }),
    __metadata("design:type", Object)
], CustomerEntity.prototype, "identifier", void 0);
__decorate([
    Column('jsonb', { name: 'end_user_terms_consent', nullable: true }),
    __metadata("design:type", Object)
], CustomerEntity.prototype, "endUserTermsConsent", void 0);
__decorate([
    Column('boolean', { name: 'is_deleted' }),
    __metadata("design:type", Boolean)
], CustomerEntity.prototype, "isDeleted", void 0);
__decorate([
    Column('timestamptz', { name: 'deleted_at', nullable: true }),
    __metadata("design:type", Object)
], CustomerEntity.prototype, "deletedAt", void 0);
__decorate([
    Column('timestamptz', { name: 'created_at' }),
    __metadata("design:type", Date)
], CustomerEntity.prototype, "createdAt", void 0);
__decorate([
    Column('timestamptz', { name: 'updated_at' }),
    __metadata("design:type", Date)
], CustomerEntity.prototype, "updatedAt", void 0);
CustomerEntity = __decorate([
    Entity('customers')
], CustomerEntity);
export { CustomerEntity };
//# sourceMappingURL=customer.entity.js.map