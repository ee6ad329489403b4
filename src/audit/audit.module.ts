import { Global, Module } from '@nestjs/common';
import { AuditEventsController } from './audit-events.controller.js';
import { AuditEventsService } from './audit-events.service.js';
import { AuditRetention } from './audit-retention.js';
import { AuditTrail } from './audit-trail.js';

/** The append-only audit trail: its writer (global, for the filter and the CLI), GET /audit-events, retention. */
@Global()
@Module({
  controllers: [AuditEventsController],
  providers: [AuditTrail, AuditEventsService, AuditRetention],
  exports: [AuditTrail],
})
export class AuditModule {}
