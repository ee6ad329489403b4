var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { Controller, Get, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform } from '../auth/auth.decorators.js';
import { PageOf } from '../common/pagination.js';
import { InternalAccount, ListCustomerInternalAccountsQuery, ListPlatformInternalAccountsQuery, PlatformInternalAccountListResponse, } from './internal-account.dto.js';
import { InternalAccountsService } from './internal-accounts.service.js';
/** Registered before CustomersController so `customers/internal-accounts` never reaches `customers/:customerId`. */
let InternalAccountsController = class InternalAccountsController {
    accounts;
    constructor(accounts) {
        this.accounts = accounts;
    }
    listForCustomers(p, query) {
        return this.accounts.listForCustomers(p.platformId, query);
    }
    listForPlatform(p, query) {
        return this.accounts.listForPlatform(p.platformId, query);
    }
};
__decorate([
    ApiOperation({ summary: 'List Customer internal accounts', operationId: 'listCustomerInternalAccounts' }),
    Get('customers/internal-accounts'),
    ApiOkResponse({ type: PageOf(InternalAccount, 'InternalAccountListResponse') }),
    __param(0, CurrentPlatform()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ListCustomerInternalAccountsQuery]),
    __metadata("design:returntype", Promise)
], InternalAccountsController.prototype, "listForCustomers", null);
__decorate([
    ApiOperation({ summary: 'List platform internal accounts', operationId: 'listPlatformInternalAccounts' }),
    Get('platform/internal-accounts'),
    ApiOkResponse({ type: PlatformInternalAccountListResponse }),
    __param(0, CurrentPlatform()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ListPlatformInternalAccountsQuery]),
    __metadata("design:returntype", Promise)
], InternalAccountsController.prototype, "listForPlatform", null);
InternalAccountsController = __decorate([
    ApiTags('Internal Accounts'),
    ApiBasicAuth('BasicAuth'),
    Controller(),
    __metadata("design:paramtypes", [InternalAccountsService])
], InternalAccountsController);
export { InternalAccountsController };
//# sourceMappingURL=internal-accounts.controller.js.map