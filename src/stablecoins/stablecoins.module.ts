import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module.js';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { AppConfig } from '../config/app-config.js';
import { portAdapter } from '../config/ports.js';
import { SandboxStablecoinProvider } from './provider/sandbox-stablecoin-provider.js';
import { UnconfiguredStablecoinProvider } from './provider/unconfigured-stablecoin-provider.js';
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
 * enablement, mints and burns on the ledger. The provider port is bound here by `STABLECOIN_PROVIDER`
 * (docs/production.md): the sandbox provider stands in for Brale; `none` answers 503
 * `SERVICE_UNAVAILABLE` (`details.notConfigured`: `STABLECOIN_PROVIDER`) on the routes that need a provider. A real adapter is one
 * more branch of the factory.
 */
@Module({
  imports: [LedgerModule, OutboxWriterModule, SecretsModule],
  controllers: [StablecoinProviderAccountsController, StablecoinsController, StablecoinOperationsController],
  providers: [
    StablecoinsService,
    StablecoinOperationsService,
    StablecoinOperationsWorker,
    {
      provide: StablecoinProvider,
      useFactory: (config: AppConfig) =>
        portAdapter(config, 'STABLECOIN_PROVIDER') === 'sandbox'
          ? new SandboxStablecoinProvider()
          : new UnconfiguredStablecoinProvider(),
      inject: [AppConfig],
    },
  ],
  exports: [StablecoinsService, StablecoinOperationsService],
})
export class StablecoinsModule {}
