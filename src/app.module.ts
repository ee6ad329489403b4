import { DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AgentActionsModule } from './agents/actions/agent-actions.module.js';
import { PaymentsModule } from './payments/payments.module.js';
import { AgentsModule } from './agents/agents.module.js';
import { AuditModule } from './audit/audit.module.js';
import { AuthModule } from './auth/auth.module.js';
import { BeneficialOwnersModule } from './beneficial-owners/beneficial-owners.module.js';
import { BulkImportModule } from './bulk-import/bulk-import.module.js';
import { DocumentsModule } from './documents/documents.module.js';
import { CardTransactionsModule } from './cards/card-transactions.module.js';
import { CardsSandboxModule } from './cards/cards-sandbox.module.js';
import { CardsModule } from './cards/cards.module.js';
import { AppConfig } from './config/app-config.js';
import { AppOptions, ConfigModule } from './config/config.module.js';
import { ConsoleModule } from './console/console.module.js';
import { CustomersSandboxModule } from './customers/customers-sandbox.module.js';
import { LedgerSandboxModule } from './ledger/ledger-sandbox.module.js';
import { CustomersModule } from './customers/customers.module.js';
import { DatabaseModule } from './database/database.module.js';
import './error-catalogue.js'; // installs the one error catalogue (every area's codes) before any error is answered
import { HealthModule } from './health/health.module.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { IdempotencyModule } from './idempotency/idempotency.module.js';
import { ExternalAccountsSandboxModule } from './external-accounts/external-accounts-sandbox.module.js';
import { ExternalAccountsModule } from './external-accounts/external-accounts.module.js';
import { ScaModule } from './sca/sca.module.js';
import { EmbeddedWalletsModule } from './embedded-wallets/embedded-wallets.module.js';
import { EmbeddedWalletsSandboxModule } from './embedded-wallets/embedded-wallets-sandbox.module.js';
import { PlatformConfigModule } from './platform-config/platform-config.module.js';
import { OutboxSandboxModule } from './outbox/outbox-sandbox.module.js';
import { OutboxModule } from './outbox/outbox.module.js';
import { PlatformsModule } from './platforms/platforms.module.js';
import { PaymentsSandboxModule } from './payments/payments-sandbox.module.js';
import { SandboxClockModule } from './sandbox-clock/sandbox-clock.module.js';
import { StablecoinsSandboxModule } from './stablecoins/stablecoins-sandbox.module.js';
import { StablecoinsModule } from './stablecoins/stablecoins.module.js';
import { DirectoriesModule } from './directories/directories.module.js';
import { UmaModule } from './uma/uma.module.js';
import { VerificationsSandboxModule } from './verifications/verifications-sandbox.module.js';
import { VerificationsModule } from './verifications/verifications.module.js';

@Module({})
export class AppModule {
  /** `databaseUrl`: DATABASE_URL, or the embedded engine's loopback URL. */
  static forRoot(config: AppConfig, databaseUrl: string, options: AppOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, options),
        EventEmitterModule.forRoot(),
        DatabaseModule.forRoot(databaseUrl, config.DB_POOL_SIZE, config.DB_ACQUIRE_TIMEOUT_MS),
        MetricsModule,
        HealthModule,
        IdempotencyModule,
        AuditModule,
        AuthModule,
        PlatformsModule,
        PlatformConfigModule,
        // Import order does not decide route order: createApp sorts the routes (src/route-order.ts).
        CustomersModule,
        ExternalAccountsModule,
        ScaModule,
        OutboxModule,
        CardsModule,
        CardTransactionsModule,
        AgentsModule,
        AgentActionsModule,
        UmaModule,
        BeneficialOwnersModule,
        DocumentsModule,
        VerificationsModule,
        BulkImportModule,
        PaymentsModule,
        StablecoinsModule,
        DirectoriesModule,
        EmbeddedWalletsModule,
        // The operator console (its sign-in routes; its pages are served by createApp).
        ...(config.CONSOLE ? [ConsoleModule] : []),
        // Each area's sandbox-only routes (its <area>-sandbox.module.ts): with SANDBOX=false they do not exist (404).
        ...(config.SANDBOX
          ? [
              CustomersSandboxModule,
              LedgerSandboxModule,
              ExternalAccountsSandboxModule,
              OutboxSandboxModule,
              CardsSandboxModule,
              SandboxClockModule,
              VerificationsSandboxModule,
              PaymentsSandboxModule,
              StablecoinsSandboxModule,
              EmbeddedWalletsSandboxModule,
            ]
          : []),
      ],
    };
  }
}
