import { Global, Module } from '@nestjs/common';
import { OutboxModule } from '../outbox/outbox.module.js';
import { HealthController } from './health.controller.js';
import { Lifecycle } from './lifecycle.js';

/** The probes (`/healthz`, `/readyz`) and the process lifecycle they report. */
@Global()
@Module({
  imports: [OutboxModule],
  controllers: [HealthController],
  providers: [Lifecycle],
  exports: [Lifecycle],
})
export class HealthModule {}
