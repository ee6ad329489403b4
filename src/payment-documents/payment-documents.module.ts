import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { DocumentsModule } from '../documents/documents.module.js';
import { PaymentDocumentsController } from './payment-documents.controller.js';
import { PaymentDocumentsService } from './payment-documents.service.js';

/** /payment-documents: quotes' supporting documents, in the documents table and store (purpose PAYMENT). */
@Module({
  imports: [CustomersModule, DocumentsModule],
  controllers: [PaymentDocumentsController],
  providers: [PaymentDocumentsService],
  exports: [PaymentDocumentsService],
})
export class PaymentDocumentsModule {}
