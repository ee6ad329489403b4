import { Body, Controller, Get, Header, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBody,
  ApiNoContentResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { PageOf } from '../common/pagination.js';
import type { Page } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../openapi/api-errors.js';
import { ExchangeRatesService } from './exchange-rates.service.js';
import { IncomingTransactionView, OutgoingTransactionView } from './outgoing-transaction.render.js';
import type { TransactionView } from './outgoing-transaction.render.js';
import { ExecuteQuoteRequest, QuoteRequest, QuoteView } from './quote.dto.js';
import { QuotesService } from './quotes.service.js';
import { parseBody, QuoteAuthorizationRequest } from '../sca/sca.dto.js';
import {
  CancelTransactionRequest,
  ConfirmReceiptDeliveryRequest,
  ExchangeRateListView,
  ApprovePaymentRequest,
  ExchangeRatesQuery,
  RejectPaymentRequest,
  QuotesQuery,
  TransactionsQuery,
  TransferInRequest,
  TransferOutRequest,
} from './transactions.dto.js';
import { TransactionsService } from './transactions.service.js';
import { IncomingPaymentsService } from './incoming-payments.service.js';

const QuotePage = PageOf(QuoteView, 'QuoteListResponse');
const TRANSACTION_ONE_OF = {
  oneOf: [{ $ref: getSchemaPath(IncomingTransactionView) }, { $ref: getSchemaPath(OutgoingTransactionView) }],
  discriminator: { propertyName: 'type' },
};
/** RFC 9745: deprecated since 2026-01-01 (the spec deprecates the same-currency routes). */
const DEPRECATED_SINCE = '@1767225600';

/** Quotes for the platform (HTTP Basic): create, list, read, execute. */
@ApiTags('Cross-Currency Transfers')
@ApiBasicAuth('BasicAuth')
@Controller('quotes')
export class QuotesController {
  constructor(private readonly quotes: QuotesService) {}

  @Post()
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({ summary: 'Create a transfer quote', operationId: 'createQuote' })
  @ApiCreatedResponse({ type: QuoteView })
  @ApiErrors(400, 403, 404)
  create(@CurrentPlatform() p: PlatformPrincipal, @Body() body: QuoteRequest): Promise<QuoteView> {
    return this.quotes.create({ platformId: p.platformId }, body);
  }

  @Get()
  @ApiOperation({ summary: 'List quotes', operationId: 'listQuotes' })
  @ApiOkResponse({ type: QuotePage })
  @ApiErrors(400)
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: QuotesQuery): Promise<Page<QuoteView>> {
    return this.quotes.list({ platformId: p.platformId }, query);
  }

  @Get(':quoteId')
  @ApiOperation({ summary: 'Get quote by ID', operationId: 'getQuoteById' })
  @ApiOkResponse({ type: QuoteView })
  @ApiErrors(404)
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('quoteId', new IdPipe('Quote')) quoteId: string,
  ): Promise<QuoteView> {
    return this.quotes.get({ platformId: p.platformId }, quoteId);
  }

  @Post(':quoteId/execute')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({ summary: 'Execute a quote', operationId: 'executeQuote' })
  @ApiOkResponse({ type: QuoteView, description: 'PROCESSING (an external payout under way) or COMPLETED' })
  @ApiErrors(400, 403, 404, 409)
  execute(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('quoteId', new IdPipe('Quote')) quoteId: string,
    @Body() _body: ExecuteQuoteRequest,
  ): Promise<QuoteView> {
    return this.quotes.execute({ platformId: p.platformId }, quoteId);
  }

  @Post(':quoteId/authorize')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiTags('Strong Customer Authentication')
  @ApiOperation({ summary: "Authorize a quote's SCA challenge", operationId: 'authorizeQuote' })
  @ApiBody({ type: QuoteAuthorizationRequest })
  @ApiOkResponse({ type: QuoteView, description: 'Authorized: PENDING, or executed when an execution was asked for' })
  @ApiErrors(400, 403, 404, 409)
  authorize(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('quoteId', new IdPipe('Quote')) quoteId: string,
    @Body() body: unknown,
  ): Promise<QuoteView> {
    return this.quotes.authorize({ platformId: p.platformId }, quoteId, parseBody(QuoteAuthorizationRequest, body));
  }

  @Post(':quoteId/authorize/resend')
  @HttpCode(204)
  @RequirePermission('TRANSACT')
  @ApiTags('Strong Customer Authentication')
  @ApiOperation({ summary: "Resend a quote's SCA challenge code", operationId: 'resendQuoteScaCode' })
  @ApiNoContentResponse({ description: 'Code re-sent (the same challenge, its expiresAt unchanged)' })
  @ApiErrors(403, 404, 409, 429)
  async resend(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('quoteId', new IdPipe('Quote')) quoteId: string,
  ): Promise<void> {
    await this.quotes.resend({ platformId: p.platformId }, quoteId);
  }
}

/** Transactions of both directions: list, read, receipt confirmation, cancellation. */
@ApiTags('Transactions')
@ApiBasicAuth('BasicAuth')
@ApiExtraModels(IncomingTransactionView, OutgoingTransactionView)
@Controller('transactions')
export class TransactionsController {
  constructor(
    private readonly transactions: TransactionsService,
    private readonly incoming: IncomingPaymentsService,
  ) {}

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

  @Post(':transactionId/approve')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Approve a pending incoming payment',
    description:
      "Approves an incoming payment awaiting the platform's decision (after a 202 to its INCOMING_PAYMENT.PENDING webhook), within the approval window.",
    operationId: 'approvePendingPayment',
  })
  @ApiOkResponse({ type: IncomingTransactionView })
  @ApiErrors(400, 404, 409)
  approve(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
    @Body() body: ApprovePaymentRequest,
  ): Promise<IncomingTransactionView> {
    return this.incoming.approve(p.platformId, transactionId, body.receiverCustomerInfo);
  }

  @Post(':transactionId/reject')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Reject a pending incoming payment',
    description:
      "Rejects an incoming payment awaiting the platform's decision: FAILED with failureReason COMPLIANCE_REJECTED; the sender is refunded.",
    operationId: 'rejectPendingPayment',
  })
  @ApiOkResponse({ type: IncomingTransactionView })
  @ApiErrors(400, 404, 409)
  reject(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('transactionId', new IdPipe('Transaction')) transactionId: string,
    @Body() body: RejectPaymentRequest,
  ): Promise<IncomingTransactionView> {
    return this.incoming.reject(p.platformId, transactionId, body.reason);
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

/** The spec's deprecated same-currency transfers (served, with a `Deprecation` header). */
@ApiTags('Same-Currency Transfers')
@ApiBasicAuth('BasicAuth')
@ApiExtraModels(IncomingTransactionView, OutgoingTransactionView)
@Controller()
export class TransfersController {
  constructor(private readonly transactions: TransactionsService) {}

  @Post('transfer-in')
  @RequirePermission('TRANSACT')
  @Idempotent()
  @Header('Deprecation', DEPRECATED_SINCE)
  @ApiOperation({
    summary: 'Create a transfer-in request (deprecated: use quotes)',
    operationId: 'createTransferIn',
    deprecated: true,
  })
  @ApiCreatedResponse({ schema: TRANSACTION_ONE_OF })
  @ApiErrors(400, 403, 404)
  transferIn(@CurrentPlatform() p: PlatformPrincipal, @Body() body: TransferInRequest): Promise<TransactionView> {
    return this.transactions.transferIn(p.platformId, body);
  }

  @Post('transfer-out')
  @RequirePermission('TRANSACT')
  @Idempotent()
  @Header('Deprecation', DEPRECATED_SINCE)
  @ApiOperation({
    summary: 'Create a transfer-out request (deprecated: use quotes)',
    operationId: 'createTransferOut',
    deprecated: true,
  })
  @ApiCreatedResponse({ schema: TRANSACTION_ONE_OF })
  @ApiErrors(400, 403, 404)
  transferOut(@CurrentPlatform() p: PlatformPrincipal, @Body() body: TransferOutRequest): Promise<TransactionView> {
    return this.transactions.transferOut(p.platformId, body);
  }
}

/** `GET /exchange-rates`. */
@ApiTags('Exchange Rates')
@ApiBasicAuth('BasicAuth')
@Controller('exchange-rates')
export class ExchangeRatesController {
  constructor(private readonly rates: ExchangeRatesService) {}

  @Get()
  @ApiOperation({ summary: 'Get exchange rates', operationId: 'getExchangeRates' })
  @ApiOkResponse({ type: ExchangeRateListView })
  @ApiErrors(400)
  async list(
    @CurrentPlatform() p: PlatformPrincipal,
    @Query() query: ExchangeRatesQuery,
  ): Promise<ExchangeRateListView> {
    return { data: await this.rates.list(p.platformId, query) };
  }
}
