import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Permission } from './api-token.entity.js';

export const PUBLIC_KEY = 'auth:public';
export const PERMISSION_KEY = 'auth:permission';
export const AGENT_AUTH_KEY = 'auth:agent';
/** Marks a public operation in the generated document (src/openapi/openapi.ts makes it `security: []`). */
export const PUBLIC_OPERATION = 'x-public';

/**
 * Opens a route to unauthenticated callers. Everything else is denied by default. The OpenAPI
 * document says so with `security: []` on the operation (the reference's way), whatever the
 * controller's own security.
 */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_KEY, true), ApiExtension(PUBLIC_OPERATION, true));

/**
 * The permission a platform token needs. Without it: VIEW for reads, MANAGE for writes
 * (the strictest, so a forgotten decorator never opens a write).
 */
export const RequirePermission = (permission: Permission) => SetMetadata(PERMISSION_KEY, permission);

/**
 * What an `@AgentAuth()` route asks of the calling agent, checked by the guard after the agent's
 * Bearer token was verified: a policy permission (e.g. `VIEW_TRANSACTIONS`), and whether the
 * route initiates something (a paused agent may read but not initiate: 403 FORBIDDEN).
 */
export interface AgentAuthRequirement {
  /** A permission the agent's policy must grant (the agents area's `AgentPermission`). */
  permission?: string;
  /** The route starts something (quote, execution, external-account change): refused while paused. */
  initiates?: boolean;
}

/**
 * Marks a route as called by an agent with its own Bearer credential (the AgentAuth scheme).
 * Platform credentials never open such a route, and an agent token opens no other route (401).
 * The agents module serves the scheme (`AGENT_AUTHENTICATOR`).
 */
export const AgentAuth = (requirement: AgentAuthRequirement = {}) => SetMetadata(AGENT_AUTH_KEY, requirement);

/** A platform calling with an API token (HTTP Basic). */
export interface PlatformPrincipal {
  kind: 'platform';
  platformId: string;
  tokenId: string;
  permissions: Permission[];
}

/** An agent calling with its own access token (Bearer), always for one customer of one platform. */
export interface AgentPrincipal {
  kind: 'agent';
  platformId: string;
  /** uuid of the agent */
  agentId: string;
  /** uuid of the customer the agent acts for */
  customerId: string;
  isPaused: boolean;
  /** The policy's permissions (`VIEW_TRANSACTIONS` always among them). */
  permissions: readonly string[];
}

/** Who is calling: set by the auth guard. */
export type Principal = PlatformPrincipal | AgentPrincipal;

export type AuthenticatedRequest = Request & { principal?: Principal };

/**
 * Verifies an agent access token (the part after `Bearer `). Provided by the agents module under
 * `AGENT_AUTHENTICATOR`; the guard finds it at bootstrap. Null when the token is unknown,
 * superseded, revoked or its agent deleted. Read fresh on every request (or from a cache that is
 * invalidated at once), so pausing, deleting and policy changes take effect on the next call.
 */
export interface AgentAuthenticator {
  authenticate(token: string): Promise<AgentPrincipal | null>;
}

export const AGENT_AUTHENTICATOR = Symbol('AGENT_AUTHENTICATOR');

export const CurrentPlatform = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (principal?.kind !== 'platform') throw new Error('CurrentPlatform used on a route without platform auth');
  return principal;
});

/** The calling agent, on `@AgentAuth()` routes. */
export const CurrentAgent = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (principal?.kind !== 'agent') throw new Error('CurrentAgent used on a route without @AgentAuth()');
  return principal;
});
