import { Module } from '@nestjs/common';
import { OneTimeCodeLimits } from '../common/one-time-code-limits.js';
import { CustomersModule } from '../customers/customers.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { EnclaveKeys } from './enclave-keys.service.js';
import { SandboxOidc } from './sandbox-oidc.js';
import { WalletAccountsController } from './wallet-accounts.controller.js';
import { WalletAccountsService } from './wallet-accounts.service.js';
import { WalletContactsService } from './wallet-contacts.service.js';
import { WalletExportService } from './wallet-export.service.js';
import { WalletSealedColumns } from './wallet-sealed-columns.js';
import { DelegatedKeysController } from './delegated-keys.controller.js';
import { DelegatedKeysService } from './delegated-keys.service.js';
import { WalletSignatures } from './wallet-signatures.service.js';
import { WalletsController } from './wallets.controller.js';
import { WalletsService } from './wallets.service.js';

/**
 * Embedded wallets (docs/embedded-wallets.md): provisioning, credentials, sessions, the enclave
 * key, and the one signed-retry implementation (`WalletSignatures`), exported for every route that
 * the wallet owner must authorize (quote execution from a wallet, wallet settings, ...).
 */
@Module({
  imports: [CustomersModule, PlatformConfigModule, SecretsModule, MessagingModule, OutboxWriterModule],
  controllers: [WalletsController, WalletAccountsController, DelegatedKeysController],
  providers: [
    OneTimeCodeLimits,
    EnclaveKeys,
    WalletSignatures,
    WalletsService,
    WalletAccountsService,
    WalletContactsService,
    WalletExportService,
    DelegatedKeysService,
    SandboxOidc,
    WalletSealedColumns,
  ],
  exports: [EnclaveKeys, WalletSignatures, WalletsService, DelegatedKeysService, SandboxOidc],
})
export class EmbeddedWalletsModule {}
