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
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { parseId } from '../common/ids.js';
import { PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { CustomerExternalAccountCreateRequest, ExternalAccount, ListCustomerExternalAccountsQuery, ListPlatformExternalAccountsQuery, PlatformExternalAccountCreateRequest, } from './external-account.dto.js';
import { ExternalAccountsService } from './external-accounts.service.js';
const ExternalAccountListResponse = PageOf(ExternalAccount, 'ExternalAccountListResponse');
/**
 * GET and DELETE by id, the same for both route families; each subclass says whose accounts it
 * serves (and `scope` names its operations: `getPlatformExternalAccountById`, ...). Create bodies
 * are typed `unknown` so the global pipe leaves them to the service, which reports DTO errors and
 * accountInfo variant errors together in one 400.
 */
function externalAccountByIdRoutes(scope) {
    class ExternalAccountByIdRoutes {
        accounts;
        owner;
        constructor(accounts, owner) {
            this.accounts = accounts;
            this.owner = owner;
        }
        get(p, id) {
            return this.accounts.get(p.platformId, this.owner, id);
        }
        async delete(p, id) {
            await this.accounts.delete(p.platformId, this.owner, id);
        }
    }
    __decorate([
        Get(':externalAccountId'),
        ApiOperation({
            summary: `Get ${scope.toLowerCase()} external account by ID`,
            operationId: `get${scope}ExternalAccountById`,
        }),
        ApiOkResponse({ type: ExternalAccount }),
        __param(0, CurrentPlatform()),
        __param(1, Param('externalAccountId', new IdPipe('ExternalAccount'))),
        __metadata("design:type", Function),
        __metadata("design:paramtypes", [Object, String]),
        __metadata("design:returntype", Promise)
    ], ExternalAccountByIdRoutes.prototype, "get", null);
    __decorate([
        Delete(':externalAccountId'),
        ApiOperation({
            summary: `Delete ${scope.toLowerCase()} external account by ID`,
            operationId: `delete${scope}ExternalAccountById`,
        }),
        HttpCode(204),
        RequirePermission('TRANSACT'),
        __param(0, CurrentPlatform()),
        __param(1, Param('externalAccountId', new IdPipe('ExternalAccount'))),
        __metadata("design:type", Function),
        __metadata("design:paramtypes", [Object, String]),
        __metadata("design:returntype", Promise)
    ], ExternalAccountByIdRoutes.prototype, "delete", null);
    return ExternalAccountByIdRoutes;
}
let PlatformExternalAccountsController = class PlatformExternalAccountsController extends externalAccountByIdRoutes('Platform') {
    constructor(accounts) {
        super(accounts, { kind: 'platform' });
    }
    create(p, body) {
        return this.accounts.createForPlatform(p.platformId, body);
    }
    list(p, query) {
        return this.accounts.list(p.platformId, { kind: 'platform' }, query);
    }
};
__decorate([
    Post(),
    RequirePermission('TRANSACT'),
    Idempotent({ oneStatement: true }),
    ApiOperation({ summary: 'Add a new platform external account', operationId: 'createPlatformExternalAccount' }),
    ApiBody({ type: PlatformExternalAccountCreateRequest }),
    ApiCreatedResponse({ type: ExternalAccount }),
    __param(0, CurrentPlatform()),
    __param(1, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], PlatformExternalAccountsController.prototype, "create", null);
__decorate([
    Get(),
    ApiOperation({ summary: 'List platform external accounts', operationId: 'listPlatformExternalAccounts' }),
    ApiOkResponse({ type: ExternalAccountListResponse }),
    __param(0, CurrentPlatform()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ListPlatformExternalAccountsQuery]),
    __metadata("design:returntype", void 0)
], PlatformExternalAccountsController.prototype, "list", null);
PlatformExternalAccountsController = __decorate([
    ApiTags('External Accounts'),
    ApiBasicAuth('BasicAuth'),
    Controller('platform/external-accounts'),
    __metadata("design:paramtypes", [ExternalAccountsService])
], PlatformExternalAccountsController);
export { PlatformExternalAccountsController };
let CustomerExternalAccountsController = class CustomerExternalAccountsController extends externalAccountByIdRoutes('Customer') {
    constructor(accounts) {
        super(accounts, { kind: 'customer' });
    }
    create(p, body) {
        return this.accounts.createForCustomer(p.platformId, body);
    }
    list(p, query) {
        const customerId = query.customerId ? (parseId('Customer', query.customerId) ?? undefined) : undefined;
        return this.accounts.list(p.platformId, { kind: 'customer', customerId }, query);
    }
};
__decorate([
    Post(),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOperation({ summary: 'Add a new external account', operationId: 'createCustomerExternalAccount' }),
    ApiBody({ type: CustomerExternalAccountCreateRequest }),
    ApiCreatedResponse({ type: ExternalAccount }),
    __param(0, CurrentPlatform()),
    __param(1, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], CustomerExternalAccountsController.prototype, "create", null);
__decorate([
    Get(),
    ApiOperation({ summary: 'List Customer external accounts', operationId: 'listCustomerExternalAccounts' }),
    ApiOkResponse({ type: ExternalAccountListResponse }),
    __param(0, CurrentPlatform()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ListCustomerExternalAccountsQuery]),
    __metadata("design:returntype", void 0)
], CustomerExternalAccountsController.prototype, "list", null);
CustomerExternalAccountsController = __decorate([
    ApiTags('External Accounts'),
    ApiBasicAuth('BasicAuth'),
    Controller('customers/external-accounts'),
    __metadata("design:paramtypes", [ExternalAccountsService])
], CustomerExternalAccountsController);
export { CustomerExternalAccountsController };
//# sourceMappingURL=external-accounts.controller.js.map