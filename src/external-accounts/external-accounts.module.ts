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
import { UnconfiguredPlaidClient } from './plaid/unconfigured-plaid-client.js';
import { AppConfig } from '../config/app-config.js';
import { portAdapter } from '../config/ports.js';

@Module({
  imports: [PlatformConfigModule, CustomersModule, OutboxModule],
  controllers: [PlatformExternalAccountsController, CustomerExternalAccountsController, PlaidController],
  providers: [
    ExternalAccountsService,
    OwnershipVerificationService,
    BankValidationWorker,
    PlaidService,
    // The bank-linking port, by BANK_LINK_PROVIDER (docs/production.md): the Plaid stand-in, or none
    // (503 SERVICE_UNAVAILABLE (details.notConfigured: BANK_LINK_PROVIDER)); a real client (Plaid's own library behind
    // PlaidClient) is one more branch.
    {
      provide: PlaidClient,
      useFactory: (config: AppConfig) =>
        portAdapter(config, 'BANK_LINK_PROVIDER') === 'sandbox'
          ? new SandboxPlaidClient()
          : new UnconfiguredPlaidClient(),
      inject: [AppConfig],
    },
  ],
  exports: [ExternalAccountsService],
})
export class ExternalAccountsModule {}
