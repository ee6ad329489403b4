var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Module } from '@nestjs/common';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
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
let OutboxModule = class OutboxModule {
};
OutboxModule = __decorate([
    Module({
        imports: [OutboxWriterModule, PlatformConfigModule],
        controllers: [WebhookEventsController],
        providers: [OutboxStore, OutboxDispatcher, WebhookSender, WebhookEventsService, OutboxMetrics],
        exports: [OutboxWriterModule, OutboxDispatcher, WebhookEventsService],
    })
], OutboxModule);
export { OutboxModule };
//# sourceMappingURL=outbox.module.js.map