import { EmbeddedWalletsModule } from '../embedded-wallets/embedded-wallets.module.js';
import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { LedgerModule } from '../ledger/ledger.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { PaymentDocumentsModule } from '../payment-documents/payment-documents.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { ScaModule } from '../sca/sca.module.js';
import { ExchangeRatesController } from './exchange-rates/exchange-rates.controller.js';
import { ExchangeRatesService } from './exchange-rates/exchange-rates.service.js';
import { FxRatesService } from './exchange-rates/fx-rates.service.js';
import { RATE_SOURCE_PROVIDERS } from './exchange-rates/rate-source.js';
import { IncomingPaymentsController } from './incoming/incoming-payments.controller.js';
import {
  INCOMING_SETTLEMENT_HOOK,
  IncomingPaymentsService,
  NO_SETTLEMENT_HOOK,
} from './incoming/incoming-payments.service.js';
import { IncomingPaymentsWorker } from './incoming/incoming-payments.worker.js';
import { QuoteAuthorizationService } from './quotes/quote-authorization.service.js';
import { QuoteExecutionService } from './quotes/quote-execution.service.js';
import { QuotesController } from './quotes/quotes.controller.js';
import { QuotesService } from './quotes/quotes.service.js';
import { UmaDestinations } from './quotes/uma-destination.js';
import { railAdapterProvider } from './rail/rail-adapter.provider.js';
import { RailNewsApplier } from './rail/rail-news.service.js';
import { RailWebhooksController } from './rail/rail-webhooks.controller.js';
import { RailWorker } from './rail/rail-worker.service.js';
import { RailOverdue } from './transactions/rail-overdue.service.js';
import { TransactionsController } from './transactions/transactions.controller.js';
import { TransactionsService } from './transactions/transactions.service.js';
import { TransfersController } from './transfers/transfers.controller.js';
import { TransfersService } from './transfers/transfers.service.js';

/**
 * Money movement: quotes and their execution (quotes/), transactions of both directions
 * (transactions/), the deprecated same-currency transfers (transfers/), incoming payments with the
 * platform's approval and its window's worker (incoming/: IncomingPaymentsService is the contract
 * the UMA area calls), the payout rail port, its adapter (PAYOUT_RAIL), worker, news applier and webhook route (rail/), exchange rates and pricing
 * (exchange-rates/). Imports no agent, UMA or card code: agents call QuotesService and
 * QuoteExecutionService with their policy check beside them; UMA fills UmaDestinations and the
 * incoming settlement hook (docs/architecture.md, the import direction test).
 */
@Module({
  imports: [
    CustomersModule,
    EmbeddedWalletsModule,
    LedgerModule,
    OutboxWriterModule,
    OutboxModule,
    PaymentDocumentsModule,
    PlatformConfigModule,
    ScaModule,
  ],
  controllers: [
    QuotesController,
    TransactionsController,
    IncomingPaymentsController,
    TransfersController,
    ExchangeRatesController,
    RailWebhooksController,
  ],
  providers: [
    ...RATE_SOURCE_PROVIDERS,
    FxRatesService,
    railAdapterProvider,
    RailNewsApplier,
    QuoteExecutionService,
    QuoteAuthorizationService,
    QuotesService,
    TransactionsService,
    TransfersService,
    ExchangeRatesService,
    RailWorker,
    RailOverdue,
    { provide: INCOMING_SETTLEMENT_HOOK, useValue: NO_SETTLEMENT_HOOK },
    IncomingPaymentsService,
    IncomingPaymentsWorker,
    UmaDestinations,
  ],
  exports: [
    RailOverdue,
    FxRatesService,
    QuotesService,
    QuoteExecutionService,
    TransactionsService,
    IncomingPaymentsService,
    IncomingPaymentsWorker,
    UmaDestinations,
    TransfersService,
  ],
})
export class PaymentsModule {}
