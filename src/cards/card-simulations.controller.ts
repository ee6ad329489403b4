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
  SandboxCardAdviceRequest,
  SandboxCardAuthorizationRequest,
  SandboxCardBalanceInquiryRequest,
  SandboxCardClearingRequest,
  SandboxCardReturnRequest,
  SandboxCardReversalRequest,
  SandboxCardSimulationResponse,
  SandboxCardTransactionRefRequest,
} from './card-transaction.dto.js';
import { CardTransactionsService } from './card-transactions.service.js';
import type { AuthorizationKind } from './issuer/card-issuer.js';

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

  @Post('balance_inquiry')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card balance inquiry',
    description:
      'A 0-amount authorization (no amount): declined like an authorization (card not ACTIVE, descriptor suffixes 002 and 003), otherwise recorded VOIDED: nothing is held or moved and the card limits are not touched.',
    operationId: 'sandboxSimulateCardBalanceInquiry',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  balanceInquiry(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardBalanceInquiryRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.authorizeAs(p, cardId, body, 'BALANCE_INQUIRY');
  }

  @Post('credit_authorization')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card credit authorization',
    description:
      'A merchant-initiated credit to the card: a CREDIT card transaction, AUTHORIZED with nothing moved yet; its clearing credits the funding account (an amount of 0, a reversal or an expiry VOIDs it). Descriptor suffixes as for an authorization (002 declines INSUFFICIENT_FUNDS, 003 CARD_NOT_ACTIVE). Credits do not count toward the card limits.',
    operationId: 'sandboxSimulateCardCreditAuthorization',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  creditAuthorization(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardAuthorizationRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.authorizeAs(p, cardId, body, 'CREDIT_AUTHORIZATION');
  }

  @Post('financial_authorization')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card financial authorization',
    description:
      'A single-message purchase (e.g. an ATM withdrawal): decided as an authorization (card ACTIVE, limits, available funds, descriptor suffixes) and, when approved, pulled from the funding account at once: SETTLED (006: EXCEPTION).',
    operationId: 'sandboxSimulateCardFinancialAuthorization',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  financialAuthorization(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardAuthorizationRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.authorizeAs(p, cardId, body, 'FINANCIAL_AUTHORIZATION');
  }

  @Post('financial_credit_authorization')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card financial credit authorization',
    description:
      'A single-message credit (e.g. a push credit): when approved the funding account is credited at once, a SETTLED CREDIT card transaction. Descriptor suffixes as for an authorization (002 declines INSUFFICIENT_FUNDS, 003 CARD_NOT_ACTIVE).',
    operationId: 'sandboxSimulateCardFinancialCreditAuthorization',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  financialCreditAuthorization(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardAuthorizationRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.authorizeAs(p, cardId, body, 'FINANCIAL_CREDIT_AUTHORIZATION');
  }

  @Post('authorization_advice')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card authorization advice',
    description:
      "Re-sizes an AUTHORIZED or PARTIALLY_SETTLED card transaction to a new total amount (not below what has settled, 400 otherwise): the hold shrinks, or grows as far as the available balance covers; an increase counts as the day's spend. No decline: the network has approved it.",
    operationId: 'sandboxSimulateCardAuthorizationAdvice',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  authorizationAdvice(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardAdviceRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.transactions.advise(p.platformId, cardId, body);
  }

  @Post('credit_authorization_advice')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card credit authorization advice',
    description:
      'A network-initiated credit authorization advice, keyed by the card and merchant: recorded as a credit authorization (AUTHORIZED CREDIT, credited at its clearing). Descriptor suffixes as for an authorization (002 declines INSUFFICIENT_FUNDS, 003 CARD_NOT_ACTIVE).',
    operationId: 'sandboxSimulateCardCreditAuthorizationAdvice',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  creditAuthorizationAdvice(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardAuthorizationRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.authorizeAs(p, cardId, body, 'CREDIT_AUTHORIZATION_ADVICE');
  }

  @Post('return_reversal')
  @HttpCode(202)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: 'Simulate a card return reversal',
    description:
      "Reverses a settled return: cardTransactionId names the CREDIT card transaction the return posted (400 otherwise). The amount goes back from the funding account and the return is VOIDED; when the balance no longer covers it nothing moves and the return ends EXCEPTION. The purchase's refundedAmount goes down either way.",
    operationId: 'sandboxSimulateCardReturnReversal',
  })
  @ApiAcceptedResponse({ type: SandboxCardSimulationResponse })
  returnReversal(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) cardId: string,
    @Body() body: SandboxCardTransactionRefRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.transactions.reverseReturn(p.platformId, cardId, body.cardTransactionId);
  }

  private authorizeAs(
    p: PlatformPrincipal,
    cardId: string,
    body: SandboxCardAuthorizationRequest | SandboxCardBalanceInquiryRequest,
    kind: AuthorizationKind,
  ): Promise<SandboxCardSimulationResponse> {
    return this.transactions.authorize(p.platformId, cardId, body, kind);
  }
}
