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
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { EnumField } from '../common/validation.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ExternalAccount } from './external-account.dto.js';
import { EXTERNAL_ACCOUNT_STATUSES } from './external-account.entity.js';
import { ExternalAccountsService } from './external-accounts.service.js';
export class SandboxExternalAccountStatusRequest {
    status;
}
__decorate([
    EnumField(EXTERNAL_ACCOUNT_STATUSES, { description: 'The status to set, as a verification provider would' }),
    __metadata("design:type", String)
], SandboxExternalAccountStatusRequest.prototype, "status", void 0);
/** The external accounts area's sandbox trigger (ownership or review outcome); mounted only when SANDBOX=true. */
let ExternalAccountsSandboxController = class ExternalAccountsSandboxController {
    accounts;
    constructor(accounts) {
        this.accounts = accounts;
    }
    setStatus(p, id, body) {
        return this.accounts.setStatus(p.platformId, id, body.status);
    }
};
__decorate([
    ApiOperation({ summary: "Set an external account's status", operationId: 'sandboxSetExternalAccountStatus' }),
    Post(':externalAccountId/status'),
    HttpCode(200),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOkResponse({ type: ExternalAccount }),
    __param(0, CurrentPlatform()),
    __param(1, Param('externalAccountId', new IdPipe('ExternalAccount'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, SandboxExternalAccountStatusRequest]),
    __metadata("design:returntype", Promise)
], ExternalAccountsSandboxController.prototype, "setStatus", null);
ExternalAccountsSandboxController = __decorate([
    ApiTags('Sandbox'),
    ApiBasicAuth('BasicAuth'),
    Controller('sandbox/external-accounts'),
    __metadata("design:paramtypes", [ExternalAccountsService])
], ExternalAccountsSandboxController);
export { ExternalAccountsSandboxController };
//# sourceMappingURL=external-accounts-sandbox.controller.js.map