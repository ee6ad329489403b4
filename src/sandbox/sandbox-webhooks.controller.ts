import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { TestWebhookResponse } from '../outbox/webhook-events.dto.js';
import { WebhookEventsService } from '../outbox/webhook-events.service.js';

@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox/webhooks')
export class SandboxWebhooksController {
  constructor(private readonly events: WebhookEventsService) {}

  /** Sends a TEST webhook to the configured endpoint now (reference: sendTestWebhook). */
  @Post('test')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOkResponse({ type: TestWebhookResponse })
  sendTest(@CurrentPlatform() p: PlatformPrincipal): Promise<TestWebhookResponse> {
    return this.events.sendTest(p.platformId);
  }
}
