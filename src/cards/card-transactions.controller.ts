import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import type { Page } from '../common/pagination.js';
import { CardTransaction, CardTransactionListResponse, ListCardTransactionsQuery } from './card-transaction.dto.js';
import { CardTransactionsService } from './card-transactions.service.js';

/** A card's transactions (ours, beyond the reference): reconcile without webhooks. */
@ApiTags('Cards')
@ApiBasicAuth('BasicAuth')
@Controller('cards')
export class CardTransactionsController {
  constructor(private readonly transactions: CardTransactionsService) {}

  @Get(':id/transactions')
  @RequirePermission('VIEW')
  @ApiOperation({ summary: "List a card's transactions", operationId: 'listCardTransactions' })
  @ApiOkResponse({ type: CardTransactionListResponse })
  @ApiNotFoundResponse({ description: 'Card not found' })
  list(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Query() query: ListCardTransactionsQuery,
  ): Promise<Page<CardTransaction>> {
    return this.transactions.list(p.platformId, cardId, query);
  }
}
