import { Module } from '@nestjs/common';
import { ExternalAccountsSandboxController } from './external-accounts-sandbox.controller.js';
import { ExternalAccountsModule } from './external-accounts.module.js';

/** `/sandbox/external-accounts/...`: AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [ExternalAccountsModule],
  controllers: [ExternalAccountsSandboxController],
})
export class ExternalAccountsSandboxModule {}
