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
import { CardProvisioningService } from './card-provisioning.service.js';
import { CardsController } from './cards.controller.js';
import { CardsRepository } from './cards.repository.js';
import { CardsService } from './cards.service.js';
import { CardIssuer } from './issuer/card-issuer.js';
import { SandboxCardIssuer } from './issuer/sandbox-card-issuer.js';
/**
 * Cards: issuance, the PATCH state machine, status history, provisioning (worker). The card issuer
 * is the `CardIssuer` adapter, bound to the sandbox issuer here.
 */
let CardsModule = class CardsModule {
};
CardsModule = __decorate([
    Module({
        imports: [PlatformConfigModule, OutboxModule, CustomersModule],
        controllers: [CardsController],
        providers: [
            CardsRepository,
            CardsService,
            CardProvisioningService,
            { provide: CardIssuer, useClass: SandboxCardIssuer },
        ],
        exports: [CardsRepository, CardsService, CardProvisioningService, CardIssuer],
    })
], CardsModule);
export { CardsModule };
//# sourceMappingURL=cards.module.js.map