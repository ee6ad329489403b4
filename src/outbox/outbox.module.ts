import { Module } from '@nestjs/common';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { DirectDelivery } from './delivery/direct-delivery.js';
import { WebhookSender } from './delivery/webhook-sender.js';
import { OutboxWriterModule } from './outbox-writer.module.js';
import { OutboxDispatcher } from './outbox.dispatcher.js';
import { OutboxMetrics } from './outbox.metrics.js';
import { OutboxStore } from './outbox.store.js';
import { WebhookEventsController } from './webhook-events.controller.js';
import { WebhookEventsService } from './webhook-events.service.js';

/**
 * Events written in the producer's transaction (OutboxService), delivered as signed webhooks by
 * the worker (OutboxDispatcher), and the operator endpoints over them. Endpoints and signing keys
 * are platform settings: read through PlatformConfigService.
 */
@Module({
  imports: [OutboxWriterModule, PlatformConfigModule],
  controllers: [WebhookEventsController],
  providers: [OutboxStore, OutboxDispatcher, WebhookSender, WebhookEventsService, OutboxMetrics, DirectDelivery],
  exports: [OutboxWriterModule, OutboxDispatcher, WebhookEventsService, DirectDelivery],
})
export class OutboxModule {}
