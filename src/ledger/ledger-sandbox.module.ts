import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { LedgerSandboxController } from './ledger-sandbox.controller.js';
import { LedgerSandboxService } from './ledger-sandbox.service.js';
import { LedgerModule } from './ledger.module.js';

/** `POST /sandbox/internal-accounts/{id}/fund`: AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [CustomersModule, LedgerModule],
  controllers: [LedgerSandboxController],
  providers: [LedgerSandboxService],
})
export class LedgerSandboxModule {}
