import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import {
  SandboxCardAuthorizationRequest,
  SandboxCardClearingRequest,
  SandboxCardReturnRequest,
  SandboxCardReversalRequest,
  SandboxCardSimulationResponse,
  SandboxCardTransactionRefRequest,
} from './card-transaction.dto.js';
import { CardTransactionsService } from './card-transactions.service.js';

const ISSUER_DECIDES =
  "The card's program has the card issuer make authorization decisions (the simulations support only programs where this service decides)";

/**
 * The reference's card simulations (sandbox only): each answers 202 with the issuer's token and,
 * beyond the reference, the card transaction as the simulation left it.
 */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@ApiBadRequestResponse({ description: 'Invalid parameters (INVALID_INPUT)' })
@ApiNotFoundResponse({ description: 'Card or card transaction not found' })
@ApiConflictResponse({ description: ISSUER_DECIDES })
@Controller('sandbox/cards/:id/simulate')
export class CardSimulationsController {
  constructor(private readonly transactions: CardTransactionsService) {}

  @Post('authorization')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card authorization',
    description:
      'Descriptor suffix outcomes: 002 declines INSUFFICIENT_FUNDS, 003 declines CARD_NOT_ACTIVE, 005 approves (the pull completes at once here), 006 approves and its clearing ends EXCEPTION; anything else goes through decisioning (card ACTIVE, limits, available funds).',
    operationId: 'sandboxSimulateCardAuthorization',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  authorization(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardAuthorizationRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.transactions.authorize(p.platformId, cardId, body);
  }

  @Post('clearing')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card clearing',
    description: 'An amount above the authorization pulls the difference; 0 acts as an authorization expiry.',
    operationId: 'sandboxSimulateCardClearing',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  clearing(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardClearingRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.transactions.clear(p.platformId, cardId, body);
  }

  @Post('return')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card return',
    description: 'Posts a CREDIT card transaction linked by originalTransactionId; at most the net settled amount.',
    operationId: 'sandboxSimulateCardReturn',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  refund(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardReturnRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.transactions.refund(p.platformId, cardId, body);
  }

  @Post('authorization_reversal')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card authorization reversal',
    description: 'The authorization must still be fully open (400 otherwise). Without amount, all of it is reversed.',
    operationId: 'sandboxSimulateCardAuthorizationReversal',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  reversal(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardReversalRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.transactions.reverse(p.platformId, cardId, body);
  }

  @Post('authorization_expiry')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card authorization expiry',
    description:
      'The authorization must still be fully open (400 otherwise); it becomes VOIDED and its hold is released.',
    operationId: 'sandboxSimulateCardAuthorizationExpiry',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  expiry(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardTransactionRefRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.transactions.expireAuthorization(p.platformId, cardId, body.cardTransactionId);
  }
}
