import { Module } from '@nestjs/common';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { LedgerService } from './ledger.service.js';

/**
 * The double-entry ledger: `LedgerService` (movements, holds) over `ledger_entries`, `ledger_holds`
 * and the balance columns of `internal_accounts`. The ledger depends on customers (it posts to their
 * internal accounts and announces balance changes); customers never import the ledger.
 */
@Module({
  imports: [OutboxWriterModule],
  providers: [LedgerService],
  exports: [LedgerService],
})
export class LedgerModule {}
