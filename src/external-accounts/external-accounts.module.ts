import { Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { CustomersModule } from '../customers/customers.module.js';
import {
  CustomerExternalAccountsController,
  PlatformExternalAccountsController,
} from './external-accounts.controller.js';
import { ExternalAccountsService } from './external-accounts.service.js';

@Module({
  imports: [PlatformConfigModule, CustomersModule, OutboxModule],
  controllers: [PlatformExternalAccountsController, CustomerExternalAccountsController],
  providers: [ExternalAccountsService],
  exports: [ExternalAccountsService],
})
export class ExternalAccountsModule {}
