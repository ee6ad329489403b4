import { Injectable, OnModuleInit } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { RealClock } from '../common/clock.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { OUTBOX_RECORDED, type OutboxRecorded } from './outbox.dispatcher.js';
import { OutboxStore } from './outbox.store.js';

/**
 * The outbox's metrics: pending count and age of the oldest pending event (read at scrape time,
 * one query over the pending rows), and recorded delivery attempts by outcome (counted from the
 * worker's `outbox.recorded` events).
 */
@Injectable()
export class OutboxMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly store: OutboxStore,
    private readonly clock: RealClock,
  ) {}

  onModuleInit(): void {
    this.metrics.onCollect(async () => {
      const { count, oldest } = await this.store.pendingStats();
      this.metrics.outboxPendingEvents.set(count);
      const age = oldest ? Math.max(0, (this.clock.now().getTime() - new Date(oldest).getTime()) / 1000) : 0;
      this.metrics.outboxOldestPendingAge.set(age);
    });
  }

  @OnEvent(OUTBOX_RECORDED)
  recorded({ outcomes }: OutboxRecorded): void {
    for (const { status } of outcomes) this.metrics.webhookDeliveries.inc({ outcome: status.toLowerCase() });
  }
}
