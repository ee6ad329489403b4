import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { ListWebhookEventsQuery, WebhookEvent } from './webhook-events.dto.js';
import { WebhookEventsService } from './webhook-events.service.js';

/** Operator endpoints over the outbox (beyond the reference). */
@ApiTags('Webhooks')
@ApiBasicAuth('BasicAuth')
@Controller('webhook-events')
export class WebhookEventsController {
  constructor(private readonly events: WebhookEventsService) {}

  @ApiOperation({ summary: 'List webhook events', operationId: 'listWebhookEvents' })
  @Get()
  @ApiOkResponse({ type: PageOf(WebhookEvent, 'WebhookEventListResponse') })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListWebhookEventsQuery) {
    return this.events.list(p.platformId, query);
  }

  @ApiOperation({ summary: 'Get a webhook event by ID', operationId: 'getWebhookEventById' })
  @Get(':eventId')
  @ApiOkResponse({ type: WebhookEvent })
  get(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('eventId', new IdPipe('Webhook')) eventId: string,
  ): Promise<WebhookEvent> {
    return this.events.get(p.platformId, eventId);
  }

  @ApiOperation({ summary: 'Redeliver a webhook event', operationId: 'redeliverWebhookEvent' })
  @Post(':eventId/redeliver')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiOkResponse({ type: WebhookEvent })
  redeliver(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('eventId', new IdPipe('Webhook')) eventId: string,
  ): Promise<WebhookEvent> {
    return this.events.redeliver(p.platformId, eventId);
  }
}
