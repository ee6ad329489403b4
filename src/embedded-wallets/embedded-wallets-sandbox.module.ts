import { Module } from '@nestjs/common';
import { EmbeddedWalletsSandboxController } from './embedded-wallets-sandbox.controller.js';
import { EmbeddedWalletsModule } from './embedded-wallets.module.js';

/** The sandbox OIDC issuer's routes: AppModule mounts them only when SANDBOX=true. */
@Module({ imports: [EmbeddedWalletsModule], controllers: [EmbeddedWalletsSandboxController] })
export class EmbeddedWalletsSandboxModule {}
