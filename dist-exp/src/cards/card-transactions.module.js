var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
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
let CardTransactionsModule = class CardTransactionsModule {
};
CardTransactionsModule = __decorate([
    Module({
        imports: [CardsModule, CustomersModule, PlatformConfigModule, OutboxModule],
        controllers: [CardTransactionsController],
        providers: [CardTransactionsService],
        exports: [CardTransactionsService],
    })
], CardTransactionsModule);
export { CardTransactionsModule };
//# sourceMappingURL=card-transactions.module.js.map