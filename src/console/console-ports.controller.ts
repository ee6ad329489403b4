import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../auth/auth.decorators.js';
import { AppConfig } from '../config/app-config.js';
import { type AdapterKind, portSummary, type PortVariable } from '../config/ports.js';
import { ConsoleSessionGuard } from './console-session.guard.js';

export interface PortsView {
  /** SANDBOX: whether this deployment simulates the outside world. */
  sandbox: boolean;
  /** SANDBOX=true on PostgreSQL (allowed, announced: the console's banner, the start's warning). */
  sandboxOnDatabase: boolean;
  /** Every outside-world port, the adapter it runs and that adapter's kind (docs/production.md). */
  ports: { port: PortVariable; title: string; adapter: string; kind: AdapterKind }[];
}

/**
 * `GET /console/api/ports`: which adapter each outside-world port runs (docs/production.md), for
 * operators only: console sessions (the cookie), any permission. The deployment's configuration,
 * the same for every platform; public routes say only whether it is a sandbox (`/readyz`).
 */
@ApiExcludeController()
@Controller('console/api')
@Public()
@UseGuards(ConsoleSessionGuard)
export class ConsolePortsController {
  constructor(private readonly config: AppConfig) {}

  @Get('ports')
  ports(@Res({ passthrough: true }) res: Response): PortsView {
    res.setHeader('Cache-Control', 'no-store');
    return {
      sandbox: this.config.SANDBOX,
      sandboxOnDatabase: this.config.sandboxOnDatabase,
      ports: portSummary(this.config),
    };
  }
}
