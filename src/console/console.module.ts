import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ConsoleNamesService } from './console-names.service.js';
import { ConsoleOverviewController } from './console-overview.controller.js';
import { ConsolePortsController } from './console-ports.controller.js';
import { ConsoleOverviewService } from './console-overview.service.js';
import { ConsoleSearchService } from './console-search.service.js';
import { PaymentsModule } from '../payments/payments.module.js';
import { UmaModule } from '../uma/uma.module.js';
import { EmbeddedWalletsModule } from '../embedded-wallets/embedded-wallets.module.js';
import { ConsoleWalletsController } from './console-wallets.controller.js';
import { ConsoleAttentionController } from './console-attention.controller.js';
import { ConsoleAttentionService } from './console-attention.service.js';
import { ConsoleSessionController } from './console-session.controller.js';
import { ConsoleSessionGuard } from './console-session.guard.js';
import { ConsoleTransactionsController } from './console-transactions.controller.js';
import { ConsoleTransactionsService } from './console-transactions.service.js';

/**
 * The operator console's server side (CONSOLE=true): sign-in, who-am-I and sign-out; and its own
 * routes for what the REST API does not answer: the overview's panels, names for ids, the
 * transaction search and its CSV, a transaction's timeline and ledger postings, and the Needs
 * attention page's list and actions (console-attention.*), and a customer's Wallet panel
 * (console-wallets.controller.ts: credentials, sessions, the operator's revocation), and which
 * adapter each outside-world port runs (console-ports.controller.ts). Its pages are static files
 * (console-static.ts); everything else it does is the REST API itself.
 */
@Module({
  imports: [AuthModule, PaymentsModule, UmaModule, EmbeddedWalletsModule],
  controllers: [
    ConsoleSessionController,
    ConsoleTransactionsController,
    ConsoleOverviewController,
    ConsoleAttentionController,
    ConsoleWalletsController,
    ConsolePortsController,
  ],
  providers: [
    ConsoleTransactionsService,
    ConsoleSearchService,
    ConsoleOverviewService,
    ConsoleNamesService,
    ConsoleAttentionService,
    ConsoleSessionGuard,
  ],
})
export class ConsoleModule {}
