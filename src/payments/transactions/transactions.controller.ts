import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../../auth/auth.decorators.js';
import { IdPipe } from '../../common/id.pipe.js';
import type { Page } from '../../common/pagination.js';
import { Idempotent } from '../../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../../openapi/api-errors.js';
import { TRANSACTION_ONE_OF } from './transaction-schema.js';
import { IncomingTransactionView, OutgoingTransactionView } from './transaction.render.js';
import type { TransactionView } from './transaction.render.js';
import { CancelTransactionRequest, ConfirmReceiptDeliveryRequest, TransactionsQuery } from './transactions.dto.js';
import { TransactionsService } from './transactions.service.js';

/** Transactions of both directions: list, read, receipt confirmation, cancellation (approve and reject: incoming/). */
@ApiTags('Transactions')
@ApiBasicAuth('BasicAuth')
@ApiExtraModels(IncomingTransactionView, OutgoingTransactionView)
@Controller('transactions')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Get()
  @ApiOperation({ summary: 'List transactions', operationId: 'listTransactions' })
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['data', 'hasMore', 'totalCount'],
      properties: {
        data: { type: 'array', items: TRANSACTION_ONE_OF },
        hasMore: { type: 'boolean' },
        nextCursor: { type: 'string' },
        totalCount: { type: 'integer' },
      },
    },
  })
  @ApiErrors(400)
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: TransactionsQuery): Promise<Page<TransactionView>> {
    return this.transactions.list({ platformId: p.platformId }, query);
  }

  @Get(':transactionId')
  @ApiOperation({ summary: 'Get transaction by ID', operationId: 'getTransactionById' })
  @ApiOkResponse({ schema: TRANSACTION_ONE_OF })
  @ApiErrors(404)
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
  ): Promise<TransactionView> {
    return this.transactions.get({ platformId: p.platformId }, transactionId);
  }

  @Post(':transactionId/confirm')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperation({ summary: 'Confirm receipt delivery', operationId: 'confirmReceiptDelivery' })
  @ApiOkResponse({ schema: TRANSACTION_ONE_OF })
  @ApiErrors(400, 404)
  confirm(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
    @Body() body: ConfirmReceiptDeliveryRequest,
  ): Promise<TransactionView> {
    return this.transactions.confirmReceipt(p.platformId, transactionId, body.receiptDeliveryConfirmedAt);
  }

  @Post(':transactionId/cancel')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({ summary: 'Cancel a bank transfer', operationId: 'cancelTransaction' })
  @ApiOkResponse({ schema: TRANSACTION_ONE_OF })
  @ApiErrors(400, 404, 409)
  cancel(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
    @Body() _body: CancelTransactionRequest,
  ): Promise<TransactionView> {
    return this.transactions.cancel(p.platformId, transactionId);
  }
}
