import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';
import type { Permission } from './api-token.entity.js';

export const PUBLIC_KEY = 'auth:public';
export const PERMISSION_KEY = 'auth:permission';
export const AGENT_AUTH_KEY = 'auth:agent';

/** Opens a route to unauthenticated callers. Everything else is denied by default. */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/**
 * The permission a platform token needs. Without it: VIEW for reads, MANAGE for writes
 * (the strictest, so a forgotten decorator never opens a write).
 */
export const RequirePermission = (permission: Permission) => SetMetadata(PERMISSION_KEY, permission);

/** Marks a route as called by an agent with its own Bearer credential (AgentAuth scheme). */
export const AgentAuth = () => SetMetadata(AGENT_AUTH_KEY, true);

/** Who is calling: set by the auth guard. */
export interface PlatformPrincipal {
  platformId: string;
  tokenId: string;
  permissions: Permission[];
}

export type AuthenticatedRequest = Request & { principal?: PlatformPrincipal };

export const CurrentPlatform = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPlatform used on a route without platform auth');
  return principal;
});
