import { Module } from '@nestjs/common';
import { PaymentsSandboxController } from './payments-sandbox.controller.js';
import { PaymentsModule } from './payments.module.js';

/** `POST /sandbox/send`: AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [PaymentsModule],
  controllers: [PaymentsSandboxController],
})
export class PaymentsSandboxModule {}
