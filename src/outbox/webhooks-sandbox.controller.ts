import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.js';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { TestWebhookResponse } from './webhook-events.dto.js';
import { WebhookEventsService } from './webhook-events.service.js';

/** The outbox area's sandbox route; mounted only when SANDBOX=true. */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller()
export class WebhooksSandboxController {
  constructor(private readonly events: WebhookEventsService) {}

  /** Sends a TEST webhook to the configured endpoint now (reference: sendTestWebhook). */
  @Post('sandbox/webhooks/test')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperation({ summary: 'Send a test webhook', operationId: 'sendTestWebhook' })
  @ApiErrors(400)
  @ApiOkResponse({ type: TestWebhookResponse })
  sendTest(@CurrentPlatform() p: PlatformPrincipal): Promise<TestWebhookResponse> {
    return this.events.sendTest(p.platformId);
  }

  /** The older SDK's path: an alias of POST /sandbox/webhooks/test (same rules, sandbox only). */
  @Post('webhooks/test')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperation({
    summary: 'Send a test webhook (alias of POST /sandbox/webhooks/test)',
    operationId: 'sendTestWebhookLegacy',
    deprecated: true,
  })
  @ApiErrors(400)
  @ApiOkResponse({ type: TestWebhookResponse })
  sendTestLegacy(@CurrentPlatform() p: PlatformPrincipal): Promise<TestWebhookResponse> {
    return this.events.sendTest(p.platformId);
  }
}
