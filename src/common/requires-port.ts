import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ApiError } from '../errors/api-error.js';
import { notConfigured } from '../errors/not-configured.js';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_DESCRIPTIONS, errorSchemaName } from '../openapi/api-errors.js';
import { AppConfig } from '../config/app-config.js';
import { PORTS, portAdapter, type PortVariable } from '../config/ports.js';

const REQUIRED_PORTS = Symbol('requiredPorts');

/** The 503 a route answers when the port it needs runs adapter `none` (docs/production.md). */
export function portNotConfigured(variable: PortVariable): ApiError {
  return notConfigured(
    variable,
    `No ${PORTS[variable].title} is configured in this environment (${variable}=none, see docs/production.md)`,
  );
}

/** Throws the port's 503 (`details.notConfigured`) when it runs adapter `none`: for services that check inside. */
export function requirePort(config: AppConfig, variable: PortVariable): void {
  if (portAdapter(config, variable) === 'none') throw portNotConfigured(variable);
}

@Injectable()
export class PortConfiguredGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const ports =
      this.reflector.getAllAndMerge<PortVariable[]>(REQUIRED_PORTS, [context.getHandler(), context.getClass()]) ?? [];
    for (const variable of ports) requirePort(this.config, variable);
    return true;
  }
}

/**
 * The route needs this port: with its adapter `none` it answers the port's 503 `SERVICE_UNAVAILABLE` (`details.notConfigured`)
 * before the handler runs (after authentication, before the idempotency record or anything else is
 * written). On a controller, every route of it.
 */
export const RequiresPort = (...variables: PortVariable[]) =>
  applyDecorators(
    SetMetadata(REQUIRED_PORTS, variables),
    UseGuards(PortConfiguredGuard),
    // JSON even on a route that produces something else (a document download).
    ApiResponse({
      status: 503,
      description: `${ERROR_DESCRIPTIONS[503]}; or not configured here (\`details.notConfigured\`: ${variables.join(', ')}; docs/production.md)`,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchemaName(503)}` } } },
    }),
  );
