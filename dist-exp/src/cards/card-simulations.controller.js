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
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiBasicAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags, } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { SandboxCardAuthorizationRequest, SandboxCardClearingRequest, SandboxCardReturnRequest, SandboxCardReversalRequest, SandboxCardSimulationResponse, SandboxCardTransactionRefRequest, } from './card-transaction.dto.js';
import { CardTransactionsService } from './card-transactions.service.js';
const ISSUER_DECIDES = "The card's program has the card issuer make authorization decisions (the simulations support only programs where this service decides)";
/**
 * The reference's card simulations (sandbox only): each answers 202 with the issuer's token and,
 * beyond the reference, the card transaction as the simulation left it.
 */
let CardSimulationsController = class CardSimulationsController {
    transactions;
    constructor(transactions) {
        this.transactions = transactions;
    }
    authorization(p, cardId, body) {
        return this.transactions.authorize(p.platformId, cardId, body);
    }
    clearing(p, cardId, body) {
        return this.transactions.clear(p.platformId, cardId, body);
    }
    refund(p, cardId, body) {
        return this.transactions.refund(p.platformId, cardId, body);
    }
    reversal(p, cardId, body) {
        return this.transactions.reverse(p.platformId, cardId, body);
    }
    expiry(p, cardId, body) {
        return this.transactions.expireAuthorization(p.platformId, cardId, body.cardTransactionId);
    }
};
__decorate([
    Post('authorization'),
    HttpCode(202),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOperation({
        summary: 'Simulate a card authorization',
        description: 'Descriptor suffix outcomes: 002 declines INSUFFICIENT_FUNDS, 003 declines CARD_NOT_ACTIVE, 005 approves (the pull completes at once here), 006 approves and its clearing ends EXCEPTION; anything else goes through decisioning (card ACTIVE, limits, available funds).',
        operationId: 'sandboxSimulateCardAuthorization',
    }),
    ApiAcceptedResponse({ type: SandboxCardSimulationResponse }),
    __param(0, CurrentPlatform()),
    __param(1, Param('id', new IdPipe('Card'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, SandboxCardAuthorizationRequest]),
    __metadata("design:returntype", Promise)
], CardSimulationsController.prototype, "authorization", null);
__decorate([
    Post('clearing'),
    HttpCode(202),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOperation({
        summary: 'Simulate a card clearing',
        description: 'An amount above the authorization pulls the difference; 0 acts as an authorization expiry.',
        operationId: 'sandboxSimulateCardClearing',
    }),
    ApiAcceptedResponse({ type: SandboxCardSimulationResponse }),
    __param(0, CurrentPlatform()),
    __param(1, Param('id', new IdPipe('Card'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, SandboxCardClearingRequest]),
    __metadata("design:returntype", Promise)
], CardSimulationsController.prototype, "clearing", null);
__decorate([
    Post('return'),
    HttpCode(202),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOperation({
        summary: 'Simulate a card return',
        description: 'Posts a CREDIT card transaction linked by originalTransactionId; at most the net settled amount.',
        operationId: 'sandboxSimulateCardReturn',
    }),
    ApiAcceptedResponse({ type: SandboxCardSimulationResponse }),
    __param(0, CurrentPlatform()),
    __param(1, Param('id', new IdPipe('Card'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, SandboxCardReturnRequest]),
    __metadata("design:returntype", Promise)
], CardSimulationsController.prototype, "refund", null);
__decorate([
    Post('authorization_reversal'),
    HttpCode(202),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOperation({
        summary: 'Simulate a card authorization reversal',
        description: 'The authorization must still be fully open (400 otherwise). Without amount, all of it is reversed.',
        operationId: 'sandboxSimulateCardAuthorizationReversal',
    }),
    ApiAcceptedResponse({ type: SandboxCardSimulationResponse }),
    __param(0, CurrentPlatform()),
    __param(1, Param('id', new IdPipe('Card'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, SandboxCardReversalRequest]),
    __metadata("design:returntype", Promise)
], CardSimulationsController.prototype, "reversal", null);
__decorate([
    Post('authorization_expiry'),
    HttpCode(202),
    RequirePermission('TRANSACT'),
    Idempotent(),
    ApiOperation({
        summary: 'Simulate a card authorization expiry',
        description: 'The authorization must still be fully open (400 otherwise); it becomes VOIDED and its hold is released.',
        operationId: 'sandboxSimulateCardAuthorizationExpiry',
    }),
    ApiAcceptedResponse({ type: SandboxCardSimulationResponse }),
    __param(0, CurrentPlatform()),
    __param(1, Param('id', new IdPipe('Card'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, SandboxCardTransactionRefRequest]),
    __metadata("design:returntype", Promise)
], CardSimulationsController.prototype, "expiry", null);
CardSimulationsController = __decorate([
    ApiTags('Sandbox'),
    ApiBasicAuth('BasicAuth'),
    ApiBadRequestResponse({ description: 'Invalid parameters (INVALID_INPUT)' }),
    ApiNotFoundResponse({ description: 'Card or card transaction not found' }),
    ApiConflictResponse({ description: ISSUER_DECIDES }),
    Controller('sandbox/cards/:id/simulate'),
    __metadata("design:paramtypes", [CardTransactionsService])
], CardSimulationsController);
export { CardSimulationsController };
//# sourceMappingURL=card-simulations.controller.js.map