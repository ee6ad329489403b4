import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { PaymentsModule } from '../payments/payments.module.js';
import { UmaModule } from '../uma/uma.module.js';
import { ConsoleAttentionController } from './console-attention.controller.js';
import { ConsoleAttentionService } from './console-attention.service.js';
import { ConsoleSessionController } from './console-session.controller.js';
import { ConsoleTransactionsController } from './console-transactions.controller.js';
import { ConsoleTransactionsService } from './console-transactions.service.js';

/**
 * The operator console's server side (CONSOLE=true): sign-in, who-am-I and sign-out, and a
 * transaction's timeline and ledger postings (which the REST API does not show), and the Needs
 * attention page's list and actions (console-attention.*). Its pages are
 * static files (console-static.ts); the rest of what it does is the REST API itself.
 */
@Module({
  imports: [AuthModule, PaymentsModule, UmaModule],
  controllers: [ConsoleSessionController, ConsoleTransactionsController, ConsoleAttentionController],
  providers: [ConsoleTransactionsService, ConsoleAttentionService],
})
export class ConsoleModule {}
