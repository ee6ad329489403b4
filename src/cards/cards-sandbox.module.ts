import { Module } from '@nestjs/common';
import { CardsSandboxController } from './cards-sandbox.controller.js';
import { CardsModule } from './cards.module.js';

/** `/sandbox/cards/...`: AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [CardsModule],
  controllers: [CardsSandboxController],
})
export class CardsSandboxModule {}
