import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module.js';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { SandboxStablecoinProvider } from './provider/sandbox-stablecoin-provider.js';
import { StablecoinProvider } from './provider/stablecoin-provider.js';
import { StablecoinOperationsService } from './stablecoin-operations.service.js';
import { StablecoinOperationsWorker } from './stablecoin-operations.worker.js';
import {
  StablecoinOperationsController,
  StablecoinProviderAccountsController,
  StablecoinsController,
} from './stablecoins.controller.js';
import { StablecoinsService } from './stablecoins.service.js';

/**
 * Stablecoin issuance (docs/stablecoins.md): provider account links, registered coins, their Grid
 * enablement, mints and burns on the ledger. The provider is bound here: the sandbox provider
 * stands in for Brale; a real adapter replaces `useClass`.
 */
@Module({
  imports: [LedgerModule, OutboxWriterModule, SecretsModule],
  controllers: [StablecoinProviderAccountsController, StablecoinsController, StablecoinOperationsController],
  providers: [
    StablecoinsService,
    StablecoinOperationsService,
    StablecoinOperationsWorker,
    { provide: StablecoinProvider, useClass: SandboxStablecoinProvider },
  ],
  exports: [StablecoinsService, StablecoinOperationsService],
})
export class StablecoinsModule {}
