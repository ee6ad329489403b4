import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators.js';
import { ApiError } from '../errors/api-error.js';

/** Kubernetes probes, outside the version prefix and public. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Public()
  @Get('healthz')
  live() {
    return { status: 'ok' };
  }

  @Public()
  @Get('readyz')
  async ready() {
    let pending: boolean;
    try {
      pending = await this.dataSource.showMigrations();
    } catch {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Database unreachable', { retryAfterSeconds: 1 });
    }
    if (pending) throw new ApiError('SERVICE_UNAVAILABLE', 'Database migrations are pending', { retryAfterSeconds: 5 });
    return { status: 'ready' };
  }
}
