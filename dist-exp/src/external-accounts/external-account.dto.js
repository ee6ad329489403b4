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
import { Allow } from 'class-validator';
import { PageQuery } from '../common/pagination.js';
import { BoolField, EnumField, IdField, StringField } from '../common/validation.js';
import { accountInfoProperty } from '../openapi/account-info-schemas.js';
import { BENEFICIARY_VERIFICATION_STATUSES } from './variants/index.js';
import { EXTERNAL_ACCOUNT_STATUSES, OWNERSHIP_TYPES } from './external-account.entity.js';
export class PlatformExternalAccountCreateRequest {
    currency;
    platformAccountId;
    ownershipType;
    /** Validated by the declarative variant layer (src/external-accounts/variants). */
    accountInfo;
}
__decorate([
    StringField({
        minLength: 3,
        maxLength: 8,
        pattern: /^[A-Z0-9]{3,8}$/,
        format: 'iso4217',
        description: 'ISO 4217 code (or the crypto asset for wallets); must fit the accountType',
        example: 'USD',
    }),
    __metadata("design:type", String)
], PlatformExternalAccountCreateRequest.prototype, "currency", void 0);
__decorate([
    StringField({ required: false, minLength: 1, maxLength: 255, description: "The platform's own identifier" }),
    __metadata("design:type", String)
], PlatformExternalAccountCreateRequest.prototype, "platformAccountId", void 0);
__decorate([
    EnumField(OWNERSHIP_TYPES, {
        required: false,
        description: 'Required for self-custody wallets on platforms with counterparty requirements',
    }),
    __metadata("design:type", String)
], PlatformExternalAccountCreateRequest.prototype, "ownershipType", void 0);
__decorate([
    Allow(),
    ApiProperty(accountInfoProperty('create')),
    __metadata("design:type", Object)
], PlatformExternalAccountCreateRequest.prototype, "accountInfo", void 0);
export class CustomerExternalAccountCreateRequest extends PlatformExternalAccountCreateRequest {
    customerId;
    defaultUmaDepositAccount;
}
__decorate([
    IdField('Customer', { description: 'The customer who owns the account' }),
    __metadata("design:type", String)
], CustomerExternalAccountCreateRequest.prototype, "customerId", void 0);
__decorate([
    BoolField({ required: false, description: 'Make this the default UMA deposit account (moves the flag)' }),
    __metadata("design:type", Boolean)
], CustomerExternalAccountCreateRequest.prototype, "defaultUmaDepositAccount", void 0);
export class ListPlatformExternalAccountsQuery extends PageQuery {
    currency;
}
__decorate([
    StringField({ required: false, maxLength: 8, description: 'Filter by currency code' }),
    __metadata("design:type", String)
], ListPlatformExternalAccountsQuery.prototype, "currency", void 0);
export class ListCustomerExternalAccountsQuery extends ListPlatformExternalAccountsQuery {
    customerId;
}
__decorate([
    IdField('Customer', { required: false, description: 'Filter by customer' }),
    __metadata("design:type", String)
], ListCustomerExternalAccountsQuery.prototype, "customerId", void 0);
export class ExternalAccount {
    id;
    customerId;
    status;
    platformAccountId;
    ownershipType;
    currency;
    defaultUmaDepositAccount;
    beneficiaryVerificationStatus;
    beneficiaryVerifiedData;
    accountInfo;
}
__decorate([
    ApiProperty({ example: 'ExternalAccount:e85dcbd6-dced-4ec4-b756-3c3a9ea3d965' }),
    __metadata("design:type", String)
], ExternalAccount.prototype, "id", void 0);
__decorate([
    ApiProperty({ nullable: true, type: String }),
    __metadata("design:type", Object)
], ExternalAccount.prototype, "customerId", void 0);
__decorate([
    ApiProperty({ enum: EXTERNAL_ACCOUNT_STATUSES }),
    __metadata("design:type", String)
], ExternalAccount.prototype, "status", void 0);
__decorate([
    ApiPropertyOptional(),
    __metadata("design:type", String)
], ExternalAccount.prototype, "platformAccountId", void 0);
__decorate([
    ApiPropertyOptional({ enum: OWNERSHIP_TYPES }),
    __metadata("design:type", String)
], ExternalAccount.prototype, "ownershipType", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", String)
], ExternalAccount.prototype, "currency", void 0);
__decorate([
    ApiProperty(),
    __metadata("design:type", Boolean)
], ExternalAccount.prototype, "defaultUmaDepositAccount", void 0);
__decorate([
    ApiPropertyOptional({ enum: BENEFICIARY_VERIFICATION_STATUSES }),
    __metadata("design:type", String)
], ExternalAccount.prototype, "beneficiaryVerificationStatus", void 0);
__decorate([
    ApiPropertyOptional({ type: 'object', properties: { fullName: { type: 'string' } } }),
    __metadata("design:type", Object)
], ExternalAccount.prototype, "beneficiaryVerifiedData", void 0);
__decorate([
    ApiProperty(accountInfoProperty('response')),
    __metadata("design:type", Object)
], ExternalAccount.prototype, "accountInfo", void 0);
//# sourceMappingURL=external-account.dto.js.map