var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { Clock } from '../common/clock.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { OUTBOX_RECORDED } from './outbox.dispatcher.js';
import { OutboxStore } from './outbox.store.js';
/**
 * The outbox's metrics: pending count and age of the oldest pending event (read at scrape time,
 * one query over the pending rows), and recorded delivery attempts by outcome (counted from the
 * worker's `outbox.recorded` events).
 */
let OutboxMetrics = class OutboxMetrics {
    metrics;
    store;
    clock;
    constructor(metrics, store, clock) {
        this.metrics = metrics;
        this.store = store;
        this.clock = clock;
    }
    onModuleInit() {
        this.metrics.onCollect(async () => {
            const { count, oldest } = await this.store.pendingStats();
            this.metrics.outboxPendingEvents.set(count);
            const age = oldest ? Math.max(0, (this.clock.now().getTime() - new Date(oldest).getTime()) / 1000) : 0;
            this.metrics.outboxOldestPendingAge.set(age);
        });
    }
    recorded({ outcomes }) {
        for (const { status } of outcomes)
            this.metrics.webhookDeliveries.inc({ outcome: status.toLowerCase() });
    }
};
__decorate([
    OnEvent(OUTBOX_RECORDED),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], OutboxMetrics.prototype, "recorded", null);
OutboxMetrics = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [MetricsService,
        OutboxStore,
        Clock])
], OutboxMetrics);
export { OutboxMetrics };
//# sourceMappingURL=outbox.metrics.js.map