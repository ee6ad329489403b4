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
import { ApiErrors } from '../openapi/api-errors.js';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { CustomersSandboxService } from './customers-sandbox.service.js';
import { SandboxFundRequest, SandboxKycRequest } from './customers-sandbox.dto.js';
import { CUSTOMER } from './customers.controller.js';
import { CustomersService } from './customers.service.js';
import { InternalAccount } from './internal-account.dto.js';
/** The customers area's sandbox triggers (a KYC provider, an incoming transfer); mounted only when SANDBOX=true. */
let CustomersSandboxController = class CustomersSandboxController {
    customers;
    sandbox;
    constructor(customers, sandbox) {
        this.customers = customers;
        this.sandbox = sandbox;
    }
    setKyc(p, customerId, body) {
        return this.customers.setKycStatus(p.platformId, customerId, body.kycStatus);
    }
    fund(p, accountId, body) {
        return this.sandbox.fund(p.platformId, accountId, body.amount);
    }
};
__decorate([
    ApiOperation({ summary: "Set a customer's KYC status", operationId: 'sandboxSetCustomerKycStatus' }),
    ApiErrors(410),
    Post('customers/:customerId/kyc'),
    HttpCode(200),
    RequirePermission('MANAGE'),
    Idempotent(),
    ApiOkResponse({ schema: CUSTOMER }),
    __param(0, CurrentPlatform()),
    __param(1, Param('customerId', new IdPipe('Customer'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, SandboxKycRequest]),
    __metadata("design:returntype", Promise)
], CustomersSandboxController.prototype, "setKyc", null);
__decorate([
    ApiOperation({ summary: 'Simulate funding an internal account', operationId: 'sandboxFundInternalAccount' }),
    ApiErrors(410),
    Post('internal-accounts/:accountId/fund'),
    HttpCode(200),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOkResponse({ type: InternalAccount }),
    __param(0, CurrentPlatform()),
    __param(1, Param('accountId', new IdPipe('InternalAccount'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, SandboxFundRequest]),
    __metadata("design:returntype", Promise)
], CustomersSandboxController.prototype, "fund", null);
CustomersSandboxController = __decorate([
    ApiTags('Sandbox'),
    ApiBasicAuth('BasicAuth'),
    Controller('sandbox'),
    __metadata("design:paramtypes", [CustomersService,
        CustomersSandboxService])
], CustomersSandboxController);
export { CustomersSandboxController };
//# sourceMappingURL=customers-sandbox.controller.js.map