import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { ExternalAccountsModule } from '../external-accounts/external-accounts.module.js';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { PaymentsModule } from '../payments/payments.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { CounterpartyHttp } from './counterparty-http.js';
import { InvitationsService } from './invitations.service.js';
import {
  InvitationsController,
  ReceiverLookupController,
  UmaProvidersController,
  UmaWellKnownController,
} from './uma.controller.js';
import { UmaAddressRoutes } from './uma-address-routes.js';
import { UmaDomain } from './uma-domain.js';
import { UmaKeysService } from './uma-keys.service.js';
import { UmaLookupService } from './uma-lookup.service.js';
import { UmaProvidersService } from './uma-providers.service.js';
import { UmaReceiverService } from './uma-receiver.service.js';
import { UmaVerifier } from './uma-verifier.js';
import { UmaPaymentsService } from './uma-payments.service.js';
import { UmaSettlementService } from './uma-settlement.service.js';
import { UmaSettlementWorker } from './uma-settlement.worker.js';
import { UmaReconciliationService } from './uma-reconciliation.service.js';
import { UmaReconciliationWorker } from './uma-reconciliation.worker.js';

/**
 * UMA (docs/uma.md): keys, the well-known endpoints, lookups, invitations and providers, payments
 * to UMA addresses (the pay-request exchange) and the sandbox settlement layer between deployments.
 */
@Module({
  imports: [SecretsModule, CustomersModule, ExternalAccountsModule, OutboxWriterModule, PaymentsModule],
  controllers: [UmaWellKnownController, ReceiverLookupController, InvitationsController, UmaProvidersController],
  providers: [
    CounterpartyHttp,
    UmaDomain,
    UmaAddressRoutes,
    UmaKeysService,
    UmaVerifier,
    UmaReceiverService,
    UmaLookupService,
    InvitationsService,
    UmaProvidersService,
    UmaSettlementService,
    UmaPaymentsService,
    UmaSettlementWorker,
    UmaReconciliationService,
    UmaReconciliationWorker,
  ],
  exports: [
    UmaKeysService,
    UmaVerifier,
    UmaLookupService,
    UmaSettlementWorker,
    UmaReconciliationService,
    UmaReconciliationWorker,
  ],
})
export class UmaModule {}
