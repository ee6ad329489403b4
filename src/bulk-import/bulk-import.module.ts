import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { BulkImportController } from './bulk-import.controller.js';
import { BulkImportService } from './bulk-import.service.js';

/** POST /customers/bulk/csv and GET /customers/bulk/jobs/{jobId}. */
@Module({
  imports: [CustomersModule, OutboxModule],
  controllers: [BulkImportController],
  providers: [BulkImportService],
  exports: [BulkImportService],
})
export class BulkImportModule {}
