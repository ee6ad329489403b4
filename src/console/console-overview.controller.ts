import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/auth.decorators.js';
import { ConsoleNamesService } from './console-names.service.js';
import type { NameView } from './console-names.service.js';
import { ConsoleOverviewService } from './console-overview.service.js';
import type { OverviewView } from './console-overview.service.js';
import { ConsolePlatform, ConsoleSessionGuard } from './console-session.guard.js';
import { ConsoleNamesQuery } from './console.dto.js';

/**
 * The console's overview panels and the names it shows for ids: console sessions only (the
 * cookie), read only, any permission, scoped to the session's platform.
 */
@ApiExcludeController()
@Controller('console/api')
@Public()
@UseGuards(ConsoleSessionGuard)
export class ConsoleOverviewController {
  constructor(
    private readonly overviews: ConsoleOverviewService,
    private readonly namesService: ConsoleNamesService,
  ) {}

  @Get('overview')
  overview(@ConsolePlatform() platformId: string, @Res({ passthrough: true }) res: Response): Promise<OverviewView> {
    res.setHeader('Cache-Control', 'no-store');
    return this.overviews.overview(platformId);
  }

  /** `?ids=Customer:…,InternalAccount:…`: a name for each id of the platform (others are left out). */
  @Get('names')
  names(
    @ConsolePlatform() platformId: string,
    @Res({ passthrough: true }) res: Response,
    @Query() query: ConsoleNamesQuery,
  ): Promise<Record<string, NameView>> {
    res.setHeader('Cache-Control', 'no-store');
    return this.namesService.names(platformId, query.ids);
  }
}
