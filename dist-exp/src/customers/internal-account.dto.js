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
import { PageQuery } from '../common/pagination.js';
import { EnumField, IdField, StringField } from '../common/validation.js';
import { INTERNAL_ACCOUNT_STATUSES, INTERNAL_ACCOUNT_TYPES } from './customer.types.js';
export class ListPlatformInternalAccountsQuery {
    currency;
    type;
}
__decorate([
    StringField({ required: false, maxLength: 10, description: 'Filter by currency code' }),
    __metadata("design:type", String)
], ListPlatformInternalAccountsQuery.prototype, "currency", void 0);
__decorate([
    EnumField(INTERNAL_ACCOUNT_TYPES, { required: false, description: 'Filter by internal account type' }),
    __metadata("design:type", String)
], ListPlatformInternalAccountsQuery.prototype, "type", void 0);
export class ListCustomerInternalAccountsQuery extends PageQuery {
    currency;
    customerId;
    type;
}
__decorate([
    StringField({ required: false, maxLength: 10, description: 'Filter by currency code' }),
    __metadata("design:type", String)
], ListCustomerInternalAccountsQuery.prototype, "currency", void 0);
__decorate([
    IdField('Customer', { required: false, description: 'Accounts of this customer' }),
    __metadata("design:type", String)
], ListCustomerInternalAccountsQuery.prototype, "customerId", void 0);
__decorate([
    EnumField(INTERNAL_ACCOUNT_TYPES, { required: false, description: 'Filter by internal account type' }),
    __metadata("design:type", String)
], ListCustomerInternalAccountsQuery.prototype, "type", void 0);
export class CurrencyView {
    code;
    name;
    symbol;
    decimals;
}
__decorate([
    ApiProperty({ example: 'USD' }),
    __metadata("design:type", String)
], CurrencyView.prototype, "code", void 0);
__decorate([
    ApiProperty({ example: 'US Dollar' }),
    __metadata("design:type", String)
], CurrencyView.prototype, "name", void 0);
__decorate([
    ApiProperty({ example: '$' }),
    __metadata("design:type", String)
], CurrencyView.prototype, "symbol", void 0);
__decorate([
    ApiProperty({ example: 2, description: 'ISO 4217 minor-unit exponent' }),
    __metadata("design:type", Number)
], CurrencyView.prototype, "decimals", void 0);
export class CurrencyAmount {
    amount;
    currency;
}
__decorate([
    ApiProperty({ type: 'integer', format: 'int64', description: 'Minor units (e.g. cents)', example: 12550 }),
    __metadata("design:type", Number)
], CurrencyAmount.prototype, "amount", void 0);
__decorate([
    ApiProperty({ type: CurrencyView }),
    __metadata("design:type", CurrencyView)
], CurrencyAmount.prototype, "currency", void 0);
export class InternalAccount {
    id;
    customerId;
    type;
    status;
    balance;
    totalBalance;
    fundingPaymentInstructions;
    createdAt;
    updatedAt;
}
__decorate([
    ApiProperty({ example: 'InternalAccount:019542f5-b3e7-1d02-0000-000000000002' }),
    __metadata("design:type", String)
], InternalAccount.prototype, "id", void 0);
__decorate([
    ApiPropertyOptional({ description: 'Absent for the platform’s own accounts' }),
    __metadata("design:type", String)
], InternalAccount.prototype, "customerId", void 0);
__decorate([
    ApiProperty({ enum: INTERNAL_ACCOUNT_TYPES }),
    __metadata("design:type", String)
], InternalAccount.prototype, "type", void 0);
__decorate([
    ApiProperty({ enum: INTERNAL_ACCOUNT_STATUSES }),
    __metadata("design:type", String)
], InternalAccount.prototype, "status", void 0);
__decorate([
    ApiProperty({
        type: CurrencyAmount,
        description: 'Available to spend: totalBalance minus held funds (open card authorizations)',
    }),
    __metadata("design:type", CurrencyAmount)
], InternalAccount.prototype, "balance", void 0);
__decorate([
    ApiProperty({ type: CurrencyAmount, description: 'Including held funds (the ledger balance)' }),
    __metadata("design:type", CurrencyAmount)
], InternalAccount.prototype, "totalBalance", void 0);
__decorate([
    ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty here' }),
    __metadata("design:type", Array)
], InternalAccount.prototype, "fundingPaymentInstructions", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], InternalAccount.prototype, "createdAt", void 0);
__decorate([
    ApiProperty({ format: 'date-time' }),
    __metadata("design:type", String)
], InternalAccount.prototype, "updatedAt", void 0);
export class PlatformInternalAccountListResponse {
    data;
}
__decorate([
    ApiProperty({ type: [InternalAccount] }),
    __metadata("design:type", Array)
], PlatformInternalAccountListResponse.prototype, "data", void 0);
//# sourceMappingURL=internal-account.dto.js.map