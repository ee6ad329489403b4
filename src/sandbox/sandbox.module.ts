import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { SandboxWebhooksController } from './sandbox-webhooks.controller.js';
import { SandboxController } from './sandbox.controller.js';
import { SandboxService } from './sandbox.service.js';

/** Sandbox-only routes (`/sandbox/...`). AppModule imports this module only when SANDBOX=true. */
@Module({
  imports: [CustomersModule, OutboxModule],
  controllers: [SandboxController, SandboxWebhooksController],
  providers: [SandboxService],
})
export class SandboxModule {}
