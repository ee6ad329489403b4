import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { PageOf } from '../common/pagination.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import {
  ListSandboxClockAdvancesQuery,
  SandboxClock,
  SandboxClockAdvance,
  SandboxClockAdvanceRequest,
} from './sandbox-clock.dto.js';
import { SandboxClockService } from './sandbox-clock.service.js';

/** The platform's test clock (docs/test-clocks.md); mounted only when SANDBOX=true. */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox/clock')
export class SandboxClockController {
  constructor(private readonly clocks: SandboxClockService) {}

  @Get()
  @ApiOperation({ summary: "The platform's test clock: its current time and offset", operationId: 'getSandboxClock' })
  @ApiOkResponse({ type: SandboxClock })
  get(@CurrentPlatform() p: PlatformPrincipal): Promise<SandboxClock> {
    return this.clocks.get(p.platformId);
  }

  @Post('advance')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @Idempotent()
  @ApiOperation({
    summary: "Move the platform's clock forward (`to` a time, or by `seconds`; at most 400 days)",
    operationId: 'advanceSandboxClock',
  })
  @ApiBody({ type: SandboxClockAdvanceRequest })
  @ApiOkResponse({ type: SandboxClock })
  advance(@CurrentPlatform() p: PlatformPrincipal, @Body() body: unknown): Promise<SandboxClock> {
    return this.clocks.advance(p.platformId, p.tokenId, body);
  }

  @Get('advances')
  @ApiOperation({ summary: "The clock's advances, newest first", operationId: 'listSandboxClockAdvances' })
  @ApiOkResponse({ type: PageOf(SandboxClockAdvance, 'SandboxClockAdvanceListResponse') })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListSandboxClockAdvancesQuery) {
    return this.clocks.list(p.platformId, query);
  }
}
