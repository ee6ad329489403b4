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
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { CardTransactionListResponse, ListCardTransactionsQuery } from './card-transaction.dto.js';
import { CardTransactionsService } from './card-transactions.service.js';
/** A card's transactions (ours, beyond the reference): reconcile without webhooks. */
let CardTransactionsController = class CardTransactionsController {
    transactions;
    constructor(transactions) {
        this.transactions = transactions;
    }
    list(p, cardId, query) {
        return this.transactions.list(p.platformId, cardId, query);
    }
};
__decorate([
    Get(':id/transactions'),
    RequirePermission('VIEW'),
    ApiOperation({ summary: "List a card's transactions", operationId: 'listCardTransactions' }),
    ApiOkResponse({ type: CardTransactionListResponse }),
    ApiNotFoundResponse({ description: 'Card not found' }),
    __param(0, CurrentPlatform()),
    __param(1, Param('id', new IdPipe('Card'))),
    __param(2, Query()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, String, ListCardTransactionsQuery]),
    __metadata("design:returntype", Promise)
], CardTransactionsController.prototype, "list", null);
CardTransactionsController = __decorate([
    ApiTags('Cards'),
    ApiBasicAuth('BasicAuth'),
    Controller('cards'),
    __metadata("design:paramtypes", [CardTransactionsService])
], CardTransactionsController);
export { CardTransactionsController };
//# sourceMappingURL=card-transactions.controller.js.map