import type { IncomingHttpHeaders } from 'node:http';
import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../../auth/auth.decorators.js';
import { IdPipe } from '../../common/id.pipe.js';
import { PageOf } from '../../common/pagination.js';
import type { Page } from '../../common/pagination.js';
import { Idempotent } from '../../idempotency/idempotent.decorator.js';
import { ApiErrors } from '../../openapi/api-errors.js';
import { parseBody, QuoteAuthorizationRequest } from '../../sca/sca.dto.js';
import { ExecuteQuoteRequest, QuoteRequest, QuoteView } from './quote.dto.js';
import { QuotesQuery } from './quotes-query.dto.js';
import { QuotesService } from './quotes.service.js';
import { payRequestConflict } from './uma-destination.js';
import { retryHeaders } from '../../embedded-wallets/wallet-signatures.service.js';

const QuotePage = PageOf(QuoteView, 'QuoteListResponse');

/** Quotes for the platform (HTTP Basic): create, list, read, execute. */
@ApiTags('Cross-Currency Transfers')
@ApiBasicAuth('BasicAuth')
@Controller('quotes')
export class QuotesController {
  constructor(private readonly quotes: QuotesService) {}

  @Post()
  @RequirePermission('TRANSACT')
  @Idempotent({ conflictCode: payRequestConflict })
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
  @ApiHeader({
    name: 'Grid-Wallet-Signature',
    required: false,
    description:
      "An EMBEDDED_WALLET source: the wallet holder's API-key stamp over the quote's paymentInstructions[].accountOrWalletInfo.payloadToSign (also readable as Service-Wallet-Signature)",
  })
  @ApiErrors(400, 401, 403, 404, 409)
  execute(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('quoteId', new IdPipe('Quote')) quoteId: string,
    @Body() _body: ExecuteQuoteRequest,
    @Headers() headers: IncomingHttpHeaders,
  ): Promise<QuoteView> {
    return this.quotes.execute({ platformId: p.platformId }, quoteId, retryHeaders(headers));
  }

  @Post(':quoteId/authorize')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiTags('Strong Customer Authentication')
  @ApiOperation({ summary: "Authorize a quote's SCA challenge", operationId: 'authorizeQuote' })
  @ApiBody({ type: QuoteAuthorizationRequest })
  @ApiOkResponse({ type: QuoteView, description: 'Authorized: PENDING, or executed when an execution was asked for' })
  @ApiHeader({
    name: 'Grid-Wallet-Signature',
    required: false,
    description:
      "An EMBEDDED_WALLET source: the wallet holder's stamp over the quote's payloadToSign, executing it with the authorization (a stamped execute's recorded execution needs none)",
  })
  @ApiErrors(400, 401, 403, 404, 409)
  authorize(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('quoteId', new IdPipe('Quote')) quoteId: string,
    @Body() body: unknown,
    @Headers() headers: IncomingHttpHeaders,
  ): Promise<QuoteView> {
    return this.quotes.authorize(
      { platformId: p.platformId },
      quoteId,
      parseBody(QuoteAuthorizationRequest, body),
      retryHeaders(headers),
    );
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
