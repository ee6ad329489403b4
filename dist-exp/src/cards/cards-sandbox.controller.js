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
import { ApiBasicAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { Card, SimulateProvisioningRequest } from './card.dto.js';
import { CardProvisioningService } from './card-provisioning.service.js';
/** The cards area's sandbox triggers (the card issuer); mounted only when SANDBOX=true. */
let CardsSandboxController = class CardsSandboxController {
    provisioning;
    constructor(provisioning) {
        this.provisioning = provisioning;
    }
    simulateProvisioning(p, id, body) {
        return this.provisioning.simulate(p.platformId, id, body.outcome);
    }
};
__decorate([
    Post(':id/simulate/provisioning'),
    HttpCode(200),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOperation({
        summary: "Complete a card's provisioning (ours: programs with sandboxProvisioning MANUAL)",
        operationId: 'simulateCardProvisioning',
    }),
    ApiOkResponse({ type: Card, description: 'The card after provisioning (ACTIVE, CLOSED or PENDING_KYC)' }),
    ApiNotFoundResponse({ description: 'NOT_FOUND' }),
    ApiConflictResponse({ description: 'INVALID_STATE_TRANSITION: the card is not PROCESSING' }),
    __param(0, CurrentPlatform()),
    __param(1, Param('id', new IdPipe('Card'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, SimulateProvisioningRequest]),
    __metadata("design:returntype", Promise)
], CardsSandboxController.prototype, "simulateProvisioning", null);
CardsSandboxController = __decorate([
    ApiTags('Sandbox'),
    ApiBasicAuth('BasicAuth'),
    Controller('sandbox/cards'),
    __metadata("design:paramtypes", [CardProvisioningService])
], CardsSandboxController);
export { CardsSandboxController };
//# sourceMappingURL=cards-sandbox.controller.js.map