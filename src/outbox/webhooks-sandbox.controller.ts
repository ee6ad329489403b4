import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { TestWebhookResponse } from './webhook-events.dto.js';
import { WebhookEventsService } from './webhook-events.service.js';

@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller()
export class WebhooksSandboxController {
  constructor(private readonly events: WebhookEventsService) {}

  /**
   * Sends a TEST webhook to the configured endpoint now (reference: sendTestWebhook). The older
   * SDK's `POST /webhooks/test` is the same route under another path (same rules, sandbox only).
   */
  @Post(['sandbox/webhooks/test', 'webhooks/test'])
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOkResponse({ type: TestWebhookResponse })
  sendTest(@CurrentPlatform() p: PlatformPrincipal): Promise<TestWebhookResponse> {
    return this.events.sendTest(p.platformId);
  }
}
