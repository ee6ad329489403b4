import { CanActivate, ExecutionContext, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { ClockOffsets, enterPlatformClock } from '../common/clock.js';
import { ApiError } from '../errors/api-error.js';
import { clientAddress } from '../common/client-address.js';
import { AuthFailures } from './auth-failures.js';
import type { Permission } from './api-token.entity.js';
import {
  AGENT_AUTH_KEY,
  AGENT_AUTHENTICATOR,
  AgentAuthenticator,
  AgentAuthRequirement,
  AgentPrincipal,
  AuthenticatedRequest,
  PERMISSION_KEY,
  PlatformPrincipal,
  PUBLIC_KEY,
} from './auth.decorators.js';
import { AppConfig } from '../config/app-config.js';
import { ConsoleSessionsService, CSRF_HEADER, readCookie, SESSION_COOKIE } from './console-sessions.service.js';
import { parseBasic, parseBearer } from './secrets.js';
import { TokensService } from './tokens.service.js';

const unauthorized = (reason: string) =>
  new ApiError('UNAUTHORIZED', reason, { headers: { 'WWW-Authenticate': 'Basic realm="api"' } });

const unauthorizedAgent = (reason: string) =>
  new ApiError('UNAUTHORIZED', reason, { headers: { 'WWW-Authenticate': 'Bearer realm="agents"' } });

/** A route's auth metadata (read once per route). */
interface RouteAuth {
  isPublic: boolean;
  agentAuth: AgentAuthRequirement | undefined;
  permission: Permission | undefined;
}

/**
 * Global guard, deny by default. One guard, two schemes: a route is either platform (HTTP Basic
 * API token, the default), agent (`@AgentAuth()`: the agent's Bearer access token, verified by
 * the `AGENT_AUTHENTICATOR` the agents module provides) or `@Public()`. Each scheme's credentials
 * open only its own routes: a platform token on an agent route, or an agent token on a platform
 * route, is 401 UNAUTHORIZED.
 *
 * The operator console's session cookie (CONSOLE on) stands for the API token it was signed in
 * with, on the same platform routes with the same permission checks; only when the request carries
 * no `Authorization` header. A cookie-authenticated request other than GET/HEAD must carry the
 * session's CSRF token in `X-CSRF-Token` (403 otherwise).
 */
@Injectable()
export class AuthGuard implements CanActivate, OnApplicationBootstrap {
  private agents: AgentAuthenticator | null = null;
  private readonly routes = new WeakMap<object, WeakMap<object, RouteAuth>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokensService,
    private readonly moduleRef: ModuleRef,
    private readonly sessions: ConsoleSessionsService,
    private readonly config: AppConfig,
    private readonly failures: AuthFailures,
    /** SANDBOX=true only: each request reads its platform's test clock offset once, here. */
    @Optional() private readonly clockOffsets?: ClockOffsets,
  ) {}

  /** The agents module's authenticator, when that module is part of the app (else agent routes are 401). */
  onApplicationBootstrap(): void {
    try {
      this.agents = this.moduleRef.get<AgentAuthenticator>(AGENT_AUTHENTICATOR, { strict: false });
    } catch {
      this.agents = null;
    }
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.route(context);
    if (route.isPublic) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const agentRoute = route.agentAuth;
    if (agentRoute) {
      req.principal = await this.authenticateAgent(req, agentRoute);
      enterPlatformClock(this.clockOffsets, req.principal.platformId);
      return true;
    }

    const principal = await this.authenticatePlatform(req);
    req.principal = principal;
    enterPlatformClock(this.clockOffsets, principal.platformId);

    const required = route.permission ?? (req.method === 'GET' || req.method === 'HEAD' ? 'VIEW' : 'MANAGE');
    if (!principal.permissions.includes(required)) {
      throw new ApiError('FORBIDDEN', `This API token lacks the ${required} permission`);
    }
    return true;
  }

  /** HTTP Basic API token; or, without an Authorization header, a console session cookie. */
  private async authenticatePlatform(req: AuthenticatedRequest): Promise<PlatformPrincipal> {
    const header = req.headers.authorization;
    if (header === undefined && this.config.CONSOLE) {
      const sessionId = readCookie(req.headers.cookie, SESSION_COOKIE);
      if (sessionId !== undefined) {
        const address = clientAddress(req);
        await this.failures.check(address);
        const session = await this.sessions.find(sessionId);
        // No Basic challenge: a browser would answer it with its own credentials prompt.
        if (!session) {
          await this.failures.failed(address);
          throw new ApiError('UNAUTHORIZED', 'The console session has ended: sign in again');
        }
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          const presented = req.headers[CSRF_HEADER];
          if (!this.sessions.csrfMatches(session, typeof presented === 'string' ? presented : undefined)) {
            throw new ApiError('FORBIDDEN', 'Missing or wrong X-CSRF-Token for this console session');
          }
        }
        return session.principal;
      }
    }
    const credentials = parseBasic(header);
    if (!credentials) {
      // A script's request (the console after its cookie expired) gets no Basic challenge either.
      if (header === undefined && req.headers['x-requested-with'] !== undefined) {
        throw new ApiError('UNAUTHORIZED', 'Not signed in: missing credentials');
      }
      throw unauthorized('Missing or malformed HTTP Basic credentials');
    }
    // A token the cache verified costs no database work; anything else is a lookup, refused before
    // it when the address has used up its failed authentications.
    const cached = this.tokens.cached(credentials.id, credentials.secret);
    if (cached) return cached;
    const address = clientAddress(req);
    await this.failures.check(address);
    const principal = await this.tokens.authenticate(credentials.id, credentials.secret);
    if (!principal) {
      await this.failures.failed(address);
      throw unauthorized('Invalid API credentials');
    }
    return principal;
  }

  /** Bearer token → agent; then the route's requirement: not paused when it initiates, the permission. */
  private async authenticateAgent(
    req: AuthenticatedRequest,
    requirement: AgentAuthRequirement,
  ): Promise<AgentPrincipal> {
    const token = parseBearer(req.headers.authorization);
    if (!token) throw unauthorizedAgent('Missing or malformed Bearer agent access token');
    const address = clientAddress(req);
    await this.failures.check(address);
    const principal = this.agents ? await this.agents.authenticate(token) : null;
    if (!principal) {
      await this.failures.failed(address);
      throw unauthorizedAgent('Invalid agent access token');
    }
    if (requirement.initiates && principal.isPaused) {
      throw new ApiError('FORBIDDEN', 'This agent is paused: it can read but cannot initiate anything until resumed');
    }
    if (requirement.permission !== undefined && !principal.permissions.includes(requirement.permission)) {
      throw new ApiError('FORBIDDEN', `This agent's policy lacks the ${requirement.permission} permission`, {
        details: { permission: requirement.permission },
      });
    }
    return principal;
  }

  /** The route's auth metadata, read once per handler and controller (metadata is fixed at boot). */
  private route(context: ExecutionContext): RouteAuth {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byHandler = this.routes.get(controller);
    if (!byHandler) this.routes.set(controller, (byHandler = new WeakMap()));
    let route = byHandler.get(handler);
    if (!route) {
      const targets = [handler, controller];
      route = {
        isPublic: this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets) === true,
        agentAuth: this.reflector.getAllAndOverride<AgentAuthRequirement | undefined>(AGENT_AUTH_KEY, targets),
        permission: this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION_KEY, targets),
      };
      byHandler.set(handler, route);
    }
    return route;
  }
}
