import { Module } from '@nestjs/common';
import { BeneficialOwnersModule } from '../beneficial-owners/beneficial-owners.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { DocumentsModule } from '../documents/documents.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { KycLinksController, VerificationsController } from './verifications.controller.js';
import { VerificationsService } from './verifications.service.js';

/** /verifications and POST /customers/{customerId}/kyc-link. */
@Module({
  imports: [CustomersModule, BeneficialOwnersModule, DocumentsModule, OutboxModule],
  controllers: [VerificationsController, KycLinksController],
  providers: [VerificationsService],
  exports: [VerificationsService],
})
export class VerificationsModule {}
