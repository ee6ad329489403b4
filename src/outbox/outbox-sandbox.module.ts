import { Module } from '@nestjs/common';
import { OutboxModule } from './outbox.module.js';
import { WebhooksSandboxController } from './webhooks-sandbox.controller.js';

/** `POST /sandbox/webhooks/test` (and its alias `POST /webhooks/test`): AppModule mounts it only when SANDBOX=true. */
@Module({
  imports: [OutboxModule],
  controllers: [WebhooksSandboxController],
})
export class OutboxSandboxModule {}
