import { Module } from '@nestjs/common';
import { CardSimulationsController } from './card-simulations.controller.js';
import { CardTransactionsModule } from './card-transactions.module.js';

/** `/sandbox/cards/...`: AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [CardTransactionsModule],
  controllers: [CardSimulationsController],
})
export class CardsSandboxModule {}
