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
import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBasicAuth, ApiBody, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { Card, CardCreateRequestDoc, CardStatusHistory, CardUpdateRequestDoc, ListCardsQuery } from './card.dto.js';
import { CardsService } from './cards.service.js';
const CardListResponse = PageOf(Card, 'CardListResponse');
/**
 * Cards (reference cards-paths.yaml; the spec's Card and PATCH /cards/{id}). Bodies are typed
 * `unknown` so the service reports the DTO's FieldErrors together with the rules that need the
 * card or its program.
 */
let CardsController = class CardsController {
    cards;
    constructor(cards) {
        this.cards = cards;
    }
    issue(p, body) {
        return this.cards.issue(p, body);
    }
    list(p, query) {
        return this.cards.list(p.platformId, query);
    }
    get(p, id) {
        return this.cards.get(p.platformId, id);
    }
    update(p, id, body) {
        return this.cards.update(p, id, body);
    }
    statusHistory(p, id) {
        return this.cards.statusHistory(p.platformId, id);
    }
};
__decorate([
    Post(),
    RequirePermission('TRANSACT'),
    Idempotent({ required: true }),
    ApiOperation({ summary: 'Issue a card', operationId: 'createCard' }),
    ApiBody({ type: CardCreateRequestDoc }),
    ApiCreatedResponse({ type: Card, description: 'The new card, PROCESSING' }),
    ApiBadRequestResponse({
        description: 'INVALID_INPUT (FieldErrors, Idempotency-Key missing), CARDHOLDER_KYC_NOT_APPROVED',
    }),
    ApiNotFoundResponse({ description: 'CUSTOMER_NOT_FOUND' }),
    ApiConflictResponse({ description: 'CARD_LIMIT_REACHED; CONFLICT (Idempotency-Key reused with another body)' }),
    __param(0, CurrentPlatform()),
    __param(1, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], CardsController.prototype, "issue", null);
__decorate([
    Get(),
    ApiOperation({ summary: 'List cards', operationId: 'listCards' }),
    ApiOkResponse({ type: CardListResponse }),
    ApiBadRequestResponse({ description: 'INVALID_INPUT' }),
    __param(0, CurrentPlatform()),
    __param(1, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, ListCardsQuery]),
    __metadata("design:returntype", void 0)
], CardsController.prototype, "list", null);
__decorate([
    Get(':id'),
    ApiOperation({ summary: 'Get a card', operationId: 'getCardById' }),
    ApiOkResponse({ type: Card }),
    ApiNotFoundResponse({ description: 'NOT_FOUND' }),
    __param(0, CurrentPlatform()),
    __param(1, Param('id', new IdPipe('Card'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", Promise)
], CardsController.prototype, "get", null);
__decorate([
    Patch(':id'),
    HttpCode(200),
    RequirePermission('TRANSACT'),
    ApiOperation({ summary: 'Update a card', operationId: 'updateCardById' }),
    ApiBody({ type: CardUpdateRequestDoc }),
    ApiOkResponse({ type: Card }),
    ApiBadRequestResponse({ description: 'INVALID_INPUT: every FieldError together' }),
    ApiNotFoundResponse({ description: 'NOT_FOUND' }),
    ApiConflictResponse({ description: 'INVALID_STATE_TRANSITION, CARD_ALREADY_CLOSED, CARD_NOT_MUTABLE' }),
    __param(0, CurrentPlatform()),
    __param(1, Param('id', new IdPipe('Card'))),
    __param(2, Body()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, Object]),
    __metadata("design:returntype", Promise)
], CardsController.prototype, "update", null);
__decorate([
    Get(':id/status-history'),
    ApiOperation({ summary: "A card's status history (ours)", operationId: 'getCardStatusHistory' }),
    ApiOkResponse({ type: CardStatusHistory }),
    ApiNotFoundResponse({ description: 'NOT_FOUND' }),
    __param(0, CurrentPlatform()),
    __param(1, Param('id', new IdPipe('Card'))),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String]),
    __metadata("design:returntype", void 0)
], CardsController.prototype, "statusHistory", null);
CardsController = __decorate([
    ApiTags('Cards'),
    ApiBasicAuth('BasicAuth'),
    Controller('cards'),
    __metadata("design:paramtypes", [CardsService])
], CardsController);
export { CardsController };
//# sourceMappingURL=cards.controller.js.map