import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { OutboxWriterModule } from '../outbox/outbox-writer.module.js';
import { PaymentDocumentsModule } from '../payment-documents/payment-documents.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { ScaModule } from '../sca/sca.module.js';
import { QuoteAuthorizationService } from './quote-authorization.service.js';
import { ExchangeRatesService } from './exchange-rates.service.js';
import { INCOMING_SETTLEMENT_HOOK, IncomingPaymentsService, NO_SETTLEMENT_HOOK } from './incoming-payments.service.js';
import { IncomingPaymentsWorker } from './incoming-payments.worker.js';
import { ConfigRateProvider, FxRatesService, RateProvider } from './fx-rates.service.js';
import { PaymentsService } from './payments.service.js';
import {
  ExchangeRatesController,
  QuotesController,
  TransactionsController,
  TransfersController,
} from './quotes.controller.js';
import { QuotesService } from './quotes.service.js';
import { Rail } from './rail/rail.js';
import { RailWorker } from './rail/rail-worker.service.js';
import { SandboxRail } from './rail/sandbox-rail.js';
import { TransactionsService } from './transactions.service.js';
import { UmaDestinations } from './uma-destination.js';

/**
 * Money movement (issue #29): quotes, their execution and outgoing transactions, the rail and its
 * lifecycle, incoming transfers, exchange rates. Imports no agent code: agents call QuotesService
 * and PaymentsService with their policy check beside them. Incoming payments with the platform's
 * approval (IncomingPaymentsService, the contract the UMA area calls; its worker) live here too.
 */
@Module({
  imports: [CustomersModule, OutboxWriterModule, OutboxModule, PaymentDocumentsModule, PlatformConfigModule, ScaModule],
  controllers: [QuotesController, TransactionsController, TransfersController, ExchangeRatesController],
  providers: [
    { provide: RateProvider, useClass: ConfigRateProvider },
    FxRatesService,
    { provide: Rail, useClass: SandboxRail },
    PaymentsService,
    QuoteAuthorizationService,
    QuotesService,
    TransactionsService,
    ExchangeRatesService,
    RailWorker,
    { provide: INCOMING_SETTLEMENT_HOOK, useValue: NO_SETTLEMENT_HOOK },
    IncomingPaymentsService,
    IncomingPaymentsWorker,
    UmaDestinations,
  ],
  exports: [
    FxRatesService,
    QuotesService,
    PaymentsService,
    TransactionsService,
    IncomingPaymentsService,
    IncomingPaymentsWorker,
    UmaDestinations,
  ],
})
export class QuotesModule {}
