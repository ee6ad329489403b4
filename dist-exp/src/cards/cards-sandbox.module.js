var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { CardSimulationsController } from './card-simulations.controller.js';
import { CardTransactionsModule } from './card-transactions.module.js';
import { CardsSandboxController } from './cards-sandbox.controller.js';
import { CardsModule } from './cards.module.js';
/** `/sandbox/cards/...` (provisioning, and the card transaction simulations): AppModule mounts it only when SANDBOX=true. */
let CardsSandboxModule = class CardsSandboxModule {
};
CardsSandboxModule = __decorate([
    Module({
        imports: [CardsModule, CardTransactionsModule],
        controllers: [CardsSandboxController, CardSimulationsController],
    })
], CardsSandboxModule);
export { CardsSandboxModule };
//# sourceMappingURL=cards-sandbox.module.js.map