import { EmbeddedWalletsModule } from '../embedded-wallets/embedded-wallets.module.js';
import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { CardTransactionsController } from './card-transactions.controller.js';
import { CardTransactionsService } from './card-transactions.service.js';
import { CardsModule } from './cards.module.js';

/**
 * Card transactions: authorization decisioning, limits, holds on the funding source, clearings,
 * reversals, expiries and returns (driven by the issuer; in the sandbox by CardsSandboxModule's
 * simulations), and `GET /cards/{id}/transactions`.
 */
@Module({
  imports: [CardsModule, CustomersModule, EmbeddedWalletsModule, LedgerModule, PlatformConfigModule, OutboxModule],
  controllers: [CardTransactionsController],
  providers: [CardTransactionsService],
  exports: [CardTransactionsService],
})
export class CardTransactionsModule {}
