import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { Card, CardCreateRequestDoc, CardStatusHistory, CardUpdateRequestDoc, ListCardsQuery } from './card.dto.js';
import { CardsService } from './cards.service.js';
import { CardRevealService } from './card-reveal.service.js';
import { AppConfig } from '../config/app-config.js';
import { CardRevealResponse } from './card.dto.js';

const CardListResponse = PageOf(Card, 'CardListResponse');

/**
 * Cards (reference cards-paths.yaml; the spec's Card and PATCH /cards/{id}). Bodies are typed
 * `unknown` so the service reports the DTO's FieldErrors together with the rules that need the
 * card or its program.
 */
@ApiTags('Cards')
@ApiBasicAuth('BasicAuth')
@Controller('cards')
export class CardsController {
  constructor(
    private readonly cards: CardsService,
    private readonly reveals: CardRevealService,
    private readonly config: AppConfig,
  ) {}

  @Post()
  @RequirePermission('TRANSACT')
  @Idempotent({ required: true })
  @ApiOperation({ summary: 'Issue a card', operationId: 'createCard' })
  @ApiBody({ type: CardCreateRequestDoc })
  @ApiCreatedResponse({ type: Card, description: 'The new card, PROCESSING' })
  @ApiBadRequestResponse({
    description: 'INVALID_INPUT (FieldErrors, Idempotency-Key missing), CARDHOLDER_KYC_NOT_APPROVED',
  })
  @ApiNotFoundResponse({ description: 'CUSTOMER_NOT_FOUND' })
  @ApiConflictResponse({ description: 'CARD_LIMIT_REACHED; CONFLICT (Idempotency-Key reused with another body)' })
  issue(@CurrentPlatform() p: PlatformPrincipal, @Body() body: unknown): Promise<Card> {
    return this.cards.issue(p, body);
  }

  @Get()
  @ApiOperation({ summary: 'List cards', operationId: 'listCards' })
  @ApiOkResponse({ type: CardListResponse })
  @ApiBadRequestResponse({ description: 'INVALID_INPUT' })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListCardsQuery) {
    return this.cards.list(p.platformId, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a card', operationId: 'getCardById' })
  @ApiOkResponse({ type: Card })
  @ApiNotFoundResponse({ description: 'NOT_FOUND' })
  get(@CurrentPlatform() p: PlatformPrincipal, @Param('id', new IdPipe('Card')) id: string): Promise<Card> {
    return this.cards.get(p.platformId, id);
  }

  @Patch(':id')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperation({ summary: 'Update a card', operationId: 'updateCardById' })
  @ApiBody({ type: CardUpdateRequestDoc })
  @ApiOkResponse({ type: Card })
  @ApiBadRequestResponse({ description: 'INVALID_INPUT: every FieldError together' })
  @ApiNotFoundResponse({ description: 'NOT_FOUND' })
  @ApiConflictResponse({ description: 'INVALID_STATE_TRANSITION, CARD_ALREADY_CLOSED, CARD_NOT_MUTABLE' })
  update(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) id: string,
    @Body() body: unknown,
  ): Promise<Card> {
    return this.cards.update(p, id, body);
  }

  @Get(':id/status-history')
  @ApiOperation({ summary: "A card's status history (ours)", operationId: 'getCardStatusHistory' })
  @ApiOkResponse({ type: CardStatusHistory })
  @ApiNotFoundResponse({ description: 'NOT_FOUND' })
  statusHistory(@CurrentPlatform() p: PlatformPrincipal, @Param('id', new IdPipe('Card')) id: string) {
    return this.cards.statusHistory(p.platformId, id);
  }

  @Post(':id/reveal')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reveal card details', operationId: 'revealCard' })
  @ApiOkResponse({ type: CardRevealResponse })
  @ApiNotFoundResponse({ description: 'NOT_FOUND' })
  @ApiConflictResponse({ description: 'SCA_SESSION_REQUIRED (cardholder in an SCA region without a live session)' })
  reveal(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) id: string,
    @Req() req: Request,
  ): Promise<CardRevealResponse> {
    const path = req.originalUrl;
    const prefix = path.slice(0, Math.max(0, path.indexOf('/cards/')));
    const origin = this.config.PUBLIC_BASE_URL ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    return this.reveals.reveal(p, p.platformId, id, `${origin}${prefix}`);
  }
}
