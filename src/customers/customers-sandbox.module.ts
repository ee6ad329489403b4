import { Module } from '@nestjs/common';
import { CustomersSandboxController } from './customers-sandbox.controller.js';
import { CustomersModule } from './customers.module.js';

/** `/sandbox/customers/...`: AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [CustomersModule],
  controllers: [CustomersSandboxController],
})
export class CustomersSandboxModule {}
