import { Global, Module } from '@nestjs/common';
import { MetricsServer } from './metrics.server.js';
import { MetricsService } from './metrics.service.js';

/** Prometheus metrics: `MetricsService` (injectable everywhere) and its own listener. */
@Global()
@Module({
  providers: [MetricsService, MetricsServer],
  exports: [MetricsService],
})
export class MetricsModule {}
