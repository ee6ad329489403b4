import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { resolveWebhookKey } from '../config/webhook-key.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { OutboxDispatcher } from './outbox.dispatcher.js';
import { OutboxService } from './outbox.service.js';
import { OutboxStore } from './outbox.store.js';
import { WEBHOOK_KEY, WebhookKeysService } from './signing/webhook-keys.service.js';
import { WebhookEventsController } from './webhook-events.controller.js';
import { WebhookEventsService } from './webhook-events.service.js';

/**
 * Events written in the producer's transaction (OutboxService), delivered as signed webhooks by
 * the worker (OutboxDispatcher), and the operator endpoints over them.
 */
@Module({
  controllers: [WebhookEventsController],
  providers: [
    { provide: WEBHOOK_KEY, useFactory: (config: AppConfig) => resolveWebhookKey(config), inject: [AppConfig] },
    OutboxService,
    OutboxStore,
    OutboxDispatcher,
    WebhookSender,
    WebhookKeysService,
    WebhookEventsService,
  ],
  exports: [OutboxService, OutboxDispatcher, WebhookKeysService, WebhookEventsService],
})
export class OutboxModule {}
