import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { EnclaveKeys } from './enclave-keys.service.js';
import { SandboxOidc } from './sandbox-oidc.js';
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
  controllers: [WalletsController],
  providers: [EnclaveKeys, WalletSignatures, WalletsService, SandboxOidc],
  exports: [EnclaveKeys, WalletSignatures, WalletsService, SandboxOidc],
})
export class EmbeddedWalletsModule {}
