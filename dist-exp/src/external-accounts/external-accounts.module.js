var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import { CustomerExternalAccountsController, PlatformExternalAccountsController, } from './external-accounts.controller.js';
import { ExternalAccountsService } from './external-accounts.service.js';
let ExternalAccountsModule = class ExternalAccountsModule {
};
ExternalAccountsModule = __decorate([
    Module({
        imports: [PlatformConfigModule, CustomersModule, OutboxModule],
        controllers: [PlatformExternalAccountsController, CustomerExternalAccountsController],
        providers: [ExternalAccountsService],
        exports: [ExternalAccountsService],
    })
], ExternalAccountsModule);
export { ExternalAccountsModule };
//# sourceMappingURL=external-accounts.module.js.map