import { Module } from '@nestjs/common';
import { BeneficialOwnersModule } from '../beneficial-owners/beneficial-owners.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { AppConfig } from '../config/app-config.js';
import { portAdapter } from '../config/ports.js';
import { DocumentStore, PostgresDocumentStore, UnconfiguredDocumentStore } from './document-store.js';
import { DocumentsController } from './documents.controller.js';
import { DocumentsService } from './documents.service.js';

/** /documents: verification documents and their store, by `DOCUMENT_STORE` (the database by default; docs/production.md). */
@Module({
  imports: [CustomersModule, BeneficialOwnersModule],
  controllers: [DocumentsController],
  providers: [
    DocumentsService,
    {
      provide: DocumentStore,
      useFactory: (config: AppConfig) =>
        portAdapter(config, 'DOCUMENT_STORE') === 'none'
          ? new UnconfiguredDocumentStore()
          : new PostgresDocumentStore(),
      inject: [AppConfig],
    },
  ],
  exports: [DocumentsService, DocumentStore],
})
export class DocumentsModule {}
