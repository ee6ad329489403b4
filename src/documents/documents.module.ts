import { Module } from '@nestjs/common';
import { BeneficialOwnersModule } from '../beneficial-owners/beneficial-owners.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { DocumentStore, PostgresDocumentStore } from './document-store.js';
import { DocumentsController } from './documents.controller.js';
import { DocumentsService } from './documents.service.js';

/** /documents: verification documents and their store (PostgreSQL by default). */
@Module({
  imports: [CustomersModule, BeneficialOwnersModule],
  controllers: [DocumentsController],
  providers: [DocumentsService, { provide: DocumentStore, useClass: PostgresDocumentStore }],
  exports: [DocumentsService, DocumentStore],
})
export class DocumentsModule {}
