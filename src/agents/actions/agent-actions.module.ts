import { Module } from '@nestjs/common';
import { CustomersModule } from '../../customers/customers.module.js';
import { OutboxWriterModule } from '../../outbox/outbox-writer.module.js';
import { FxRatesService } from '../../quotes/fx-rates.service.js';
import { QuotesService } from '../../quotes/quotes.service.js';
import { AgentActionsService } from './agent-actions.service.js';
import { AgentApprovalsController, AgentOperationsController } from './agent-actions.controller.js';

/**
 * Agent quotes and actions: quotes priced from the rate table, execution under the agent's policy,
 * the platform's approvals, and the agent's views of its actions and transactions.
 */
@Module({
  imports: [CustomersModule, OutboxWriterModule],
  controllers: [AgentOperationsController, AgentApprovalsController],
  providers: [FxRatesService, QuotesService, AgentActionsService],
})
export class AgentActionsModule {}
