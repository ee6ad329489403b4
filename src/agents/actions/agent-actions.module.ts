import { Module } from '@nestjs/common';
import { OutboxWriterModule } from '../../outbox/outbox-writer.module.js';
import { PaymentsModule } from '../../payments/payments.module.js';
import { AgentActionsService } from './agent-actions.service.js';
import { AgentApprovalsController, AgentOperationsController } from './agent-actions.controller.js';
import { AgentPolicyCheck } from './agent-policy-check.js';

/**
 * Agent quotes and actions: the quotes area's quotes and execution with the agent's policy beside
 * them, the platform's approvals, and the agent's views of its actions and transactions.
 */
@Module({
  imports: [PaymentsModule, OutboxWriterModule],
  controllers: [AgentOperationsController, AgentApprovalsController],
  providers: [AgentActionsService, AgentPolicyCheck],
})
export class AgentActionsModule {}
