var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
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
let AgentActionsModule = class AgentActionsModule {
};
AgentActionsModule = __decorate([
    Module({
        imports: [CustomersModule, OutboxWriterModule],
        controllers: [AgentOperationsController, AgentApprovalsController],
        providers: [FxRatesService, QuotesService, AgentActionsService],
    })
], AgentActionsModule);
export { AgentActionsModule };
//# sourceMappingURL=agent-actions.module.js.map