import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators.js';
import { AppConfig } from '../config/app-config.js';
import { ApiError } from '../errors/api-error.js';
import { OutboxDispatcher } from '../outbox/outbox.dispatcher.js';
import { Lifecycle } from './lifecycle.js';

/**
 * Kubernetes probes, outside the version prefix and public. Liveness never touches the database
 * (a database outage must not restart every replica); readiness does, and for a process running
 * the worker it also needs the worker's LISTEN connection (PostgreSQL). A sandbox deployment says so
 * in its readiness answer (`sandbox: true`, docs/production.md); which adapter each port runs is
 * for operators only (`GET /console/api/ports`), never on this public route.
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lifecycle: Lifecycle,
    private readonly dispatcher: OutboxDispatcher,
    private readonly config: AppConfig,
  ) {}

  @Public()
  @Get('healthz')
  live() {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  async ready() {
    if (this.lifecycle.draining)
      throw new ApiError('SERVICE_UNAVAILABLE', 'Shutting down', { retryAfterSeconds: 1, retryable: false });
    let pending: boolean;
    try {
      pending = await this.dataSource.showMigrations();
    } catch {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Database unreachable', { retryAfterSeconds: 1 });
    }
    if (pending) throw new ApiError('SERVICE_UNAVAILABLE', 'Database migrations are pending', { retryAfterSeconds: 5 });
    if (this.dispatcher.listening === false)
      throw new ApiError('SERVICE_UNAVAILABLE', 'The worker has lost its LISTEN connection (reconnecting)', {
        retryAfterSeconds: 1,
      });
    return this.config.SANDBOX ? { status: 'ready', sandbox: true } : { status: 'ready' };
  }
}
