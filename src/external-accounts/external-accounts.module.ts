import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import {
  CustomerExternalAccountsController,
  PlatformExternalAccountsController,
} from './external-accounts.controller.js';
import { ExternalAccountsService } from './external-accounts.service.js';
import { BankValidationWorker } from './bank-validation.worker.js';
import { OwnershipVerificationService } from './ownership-verification.service.js';
import { PlaidClient } from './plaid/plaid-client.js';
import { PlaidController } from './plaid/plaid.controller.js';
import { PlaidService } from './plaid/plaid.service.js';
import { SandboxPlaidClient } from './plaid/sandbox-plaid-client.js';

@Module({
  imports: [PlatformConfigModule, CustomersModule, OutboxModule],
  controllers: [PlatformExternalAccountsController, CustomerExternalAccountsController, PlaidController],
  providers: [
    ExternalAccountsService,
    OwnershipVerificationService,
    BankValidationWorker,
    PlaidService,
    // The Plaid stand-in; a real client (Plaid's own library behind PlaidClient) replaces useClass.
    { provide: PlaidClient, useClass: SandboxPlaidClient },
  ],
  exports: [ExternalAccountsService],
})
export class ExternalAccountsModule {}
