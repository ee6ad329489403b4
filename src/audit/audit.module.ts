import { Global, Module } from '@nestjs/common';
import { AuditEventsController } from './audit-events.controller.js';
import { AuditEventsService } from './audit-events.service.js';
import { AuditRetention } from './audit-retention.js';
import { AuditTrail } from './audit-trail.js';
import { AuditRefusals } from './audit-refusals.js';
import { AuditSealer } from './audit-sealer.js';

/** The append-only audit trail: its writer (global, for the filter and the CLI), the refusal counts, the sealer, GET /audit-events, retention. */
@Global()
@Module({
  controllers: [AuditEventsController],
  providers: [AuditTrail, AuditRefusals, AuditSealer, AuditEventsService, AuditRetention],
  exports: [AuditTrail, AuditSealer],
})
export class AuditModule {}
