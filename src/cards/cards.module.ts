import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { CardsRepository } from './cards.repository.js';

/** Cards: issuance, the PATCH state machine, status history, provisioning. */
@Module({
  imports: [PlatformConfigModule, OutboxModule, CustomersModule],
  providers: [CardsRepository],
  exports: [CardsRepository],
})
export class CardsModule {}
