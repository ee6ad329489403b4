import { Module } from '@nestjs/common';
import { CardSimulationsController } from './card-simulations.controller.js';
import { CardTransactionsModule } from './card-transactions.module.js';
import { CardsSandboxController } from './cards-sandbox.controller.js';
import { CardsModule } from './cards.module.js';

/** `/sandbox/cards/...` (provisioning, and the card transaction simulations): AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [CardsModule, CardTransactionsModule],
  controllers: [CardsSandboxController, CardSimulationsController],
})
export class CardsSandboxModule {}
