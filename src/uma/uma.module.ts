import { Module } from '@nestjs/common';
import { ExternalAccountsModule } from '../external-accounts/external-accounts.module.js';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { QuotesModule } from '../quotes/quotes.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { CounterpartyHttp } from './counterparty-http.js';
import { InvitationsService } from './invitations.service.js';
import {
  InvitationsController,
  ReceiverLookupController,
  UmaProvidersController,
  UmaWellKnownController,
} from './uma.controller.js';
import { UmaDomain } from './uma-domain.js';
import { UmaKeysService } from './uma-keys.service.js';
import { UmaLookupService } from './uma-lookup.service.js';
import { UmaProvidersService } from './uma-providers.service.js';
import { UmaReceiverService } from './uma-receiver.service.js';
import { UmaVerifier } from './uma-verifier.js';

/** UMA (docs/uma.md): keys, the well-known endpoints, lookups, invitations and providers. */
@Module({
  imports: [SecretsModule, ExternalAccountsModule, OutboxWriterModule, QuotesModule],
  controllers: [UmaWellKnownController, ReceiverLookupController, InvitationsController, UmaProvidersController],
  providers: [
    CounterpartyHttp,
    UmaDomain,
    UmaKeysService,
    UmaVerifier,
    UmaReceiverService,
    UmaLookupService,
    InvitationsService,
    UmaProvidersService,
  ],
  exports: [UmaKeysService, UmaVerifier, UmaLookupService],
})
export class UmaModule {}
