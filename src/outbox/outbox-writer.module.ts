import { Module } from '@nestjs/common';
import { OutboxService } from './outbox.service.js';

/**
 * Only the outbox writer (`OutboxService.write`), for producers that the delivery side depends on
 * (platform config queues a TEST webhook; the worker reads platform settings): no import cycle.
 */
@Module({ providers: [OutboxService], exports: [OutboxService] })
export class OutboxWriterModule {}
