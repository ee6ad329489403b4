import { Controller, Get, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { PageOf } from '../common/pagination.js';
import { AuditEvent, ListAuditEventsQuery } from './audit-events.dto.js';
import { AuditEventsService } from './audit-events.service.js';

/** The platform's audit trail (beyond the reference): who did what, and who was refused. */
@ApiTags('Audit')
@ApiBasicAuth('BasicAuth')
@Controller('audit-events')
export class AuditEventsController {
  constructor(private readonly events: AuditEventsService) {}

  @ApiOperation({ summary: 'List audit events', operationId: 'listAuditEvents' })
  @Get()
  @RequirePermission('MANAGE')
  @ApiOkResponse({ type: PageOf(AuditEvent, 'AuditEventListResponse') })
  list(@CurrentPlatform() p: PlatformPrincipal, @Query() query: ListAuditEventsQuery) {
    return this.events.list(p.platformId, query);
  }
}
