import { Body, Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { PlatformConfig, PlatformConfigUpdateRequest } from './platform-config.dto.js';
import { PlatformConfigService } from './platform-config.service.js';

@ApiTags('Platform Configuration')
@ApiBasicAuth('BasicAuth')
@Controller('config')
export class PlatformConfigController {
  constructor(private readonly config: PlatformConfigService) {}

  @ApiOperation({ summary: 'Get platform configuration', operationId: 'getPlatformConfig' })
  @Get()
  @ApiOkResponse({ type: PlatformConfig })
  get(@CurrentPlatform() p: PlatformPrincipal): Promise<PlatformConfig> {
    return this.config.get(p.platformId, p.permissions.includes('MANAGE'));
  }

  @ApiOperation({ summary: 'Update platform configuration', operationId: 'updatePlatformConfig' })
  @Patch()
  @RequirePermission('MANAGE')
  @ApiOkResponse({ type: PlatformConfig })
  update(@CurrentPlatform() p: PlatformPrincipal, @Body() body: PlatformConfigUpdateRequest): Promise<PlatformConfig> {
    return this.config.update(p.platformId, body);
  }

  /** Issues a new Standard Webhooks secret; old and new both sign every delivery for 24 hours. */
  @ApiOperation({ summary: 'Rotate the webhook signing secret', operationId: 'rotateWebhookSecret' })
  @Post('webhook-secret/rotate')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOkResponse({ type: PlatformConfig })
  rotateWebhookSecret(@CurrentPlatform() p: PlatformPrincipal): Promise<PlatformConfig> {
    return this.config.rotateWebhookSecret(p.platformId);
  }
}
