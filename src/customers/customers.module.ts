import { ContactChangeGates } from './contact-change.js';
import { OneTimeCodeLimits } from '../common/one-time-code-limits.js';
import { UmaDomain } from '../uma/uma-domain.js';
import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { ContactVerificationController } from './contact-verification.controller.js';
import { ContactVerificationRules } from './contact-verification-rules.js';
import { ContactVerificationService } from './contact-verification.service.js';
import { CustomersController } from './customers.controller.js';
import { CustomersService } from './customers.service.js';
import { IdentifierSeal } from './identifier-seal.js';
import { InternalAccountsController } from './internal-accounts.controller.js';
import { InternalAccountsService } from './internal-accounts.service.js';

/**
 * Customers and their internal accounts. Other modules (cards, agents, payments, the ledger) import
 * it for `CustomersService.requireActive` and `InternalAccountsService.find`; the ledger
 * (src/ledger/, LedgerModule) posts to these accounts, and nothing here imports it.
 */
@Module({
  imports: [PlatformConfigModule, OutboxModule, SecretsModule, MessagingModule],
  // InternalAccountsController first: its `customers/internal-accounts` must be matched before `customers/:customerId`.
  controllers: [InternalAccountsController, CustomersController, ContactVerificationController],
  providers: [
    OneTimeCodeLimits,
    CustomersService,
    InternalAccountsService,
    IdentifierSeal,
    UmaDomain,
    ContactVerificationRules,
    ContactVerificationService,
    ContactChangeGates,
  ],
  exports: [CustomersService, InternalAccountsService, ContactChangeGates],
})
export class CustomersModule {}
