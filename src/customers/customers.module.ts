import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { CustomersController } from './customers.controller.js';
import { CustomersService } from './customers.service.js';
import { IdentifierSeal } from './identifier-seal.js';
import { InternalAccountsController } from './internal-accounts.controller.js';
import { InternalAccountsService } from './internal-accounts.service.js';
import { LedgerService } from './ledger.service.js';

/**
 * Customers, internal accounts and the ledger. Other modules (cards, agents) import it for
 * `CustomersService.requireActive`, `InternalAccountsService.find` and `LedgerService` (src/ledger/).
 */
@Module({
  imports: [PlatformConfigModule, OutboxModule, SecretsModule],
  // InternalAccountsController first: its `customers/internal-accounts` must be matched before `customers/:customerId`.
  controllers: [InternalAccountsController, CustomersController],
  providers: [CustomersService, InternalAccountsService, LedgerService, IdentifierSeal],
  exports: [CustomersService, InternalAccountsService, LedgerService],
})
export class CustomersModule {}
