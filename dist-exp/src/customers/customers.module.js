var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { CustomersController } from './customers.controller.js';
import { CustomersService } from './customers.service.js';
import { IdentifierSeal } from './identifier-seal.js';
import { InternalAccountsController } from './internal-accounts.controller.js';
import { InternalAccountsService } from './internal-accounts.service.js';
import { LedgerService } from './ledger.service.js';
/**
 * Customers, internal accounts and the ledger. Other modules (cards, agents) import it for
 * `CustomersService.requireActive`, `InternalAccountsService.find` and `LedgerService.post`.
 */
let CustomersModule = class CustomersModule {
};
CustomersModule = __decorate([
    Module({
        imports: [PlatformConfigModule, OutboxModule],
        // InternalAccountsController first: its `customers/internal-accounts` must be matched before `customers/:customerId`.
        controllers: [InternalAccountsController, CustomersController],
        providers: [CustomersService, InternalAccountsService, LedgerService, IdentifierSeal],
        exports: [CustomersService, InternalAccountsService, LedgerService],
    })
], CustomersModule);
export { CustomersModule };
//# sourceMappingURL=customers.module.js.map