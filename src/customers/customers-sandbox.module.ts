import { Module } from '@nestjs/common';
import { CustomersSandboxController } from './customers-sandbox.controller.js';
import { CustomersSandboxService } from './customers-sandbox.service.js';
import { CustomersModule } from './customers.module.js';

/** `/sandbox/customers/...` and `/sandbox/internal-accounts/...`: AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [CustomersModule],
  controllers: [CustomersSandboxController],
  providers: [CustomersSandboxService],
})
export class CustomersSandboxModule {}
