import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../errors/api-error.js';
import type { Permission } from './api-token.entity.js';
import { AGENT_AUTH_KEY, AuthenticatedRequest, PERMISSION_KEY, PUBLIC_KEY } from './auth.decorators.js';
import { parseBasic } from './secrets.js';
import { TokensService } from './tokens.service.js';

const unauthorized = (reason: string) =>
  new ApiError('UNAUTHORIZED', reason, { headers: { 'WWW-Authenticate': 'Basic realm="api"' } });

/**
 * Global guard, deny by default: every route needs platform Basic credentials unless it is
 * marked @Public() (or @AgentAuth(), which the agents module's Bearer check serves).
 */
interface RouteAuth {
  isPublic: boolean;
  agentAuth: boolean;
  permission: Permission | undefined;
}

@Injectable()
export class AuthGuard implements CanActivate {
  private readonly routes = new WeakMap<object, WeakMap<object, RouteAuth>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokensService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const route = this.route(context);
    if (route.isPublic) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (route.agentAuth) {
      throw new ApiError('UNAUTHORIZED', 'Agent credentials are not accepted yet');
    }
    const credentials = parseBasic(req.headers.authorization);
    if (!credentials) throw unauthorized('Missing or malformed HTTP Basic credentials');
    const principal = await this.tokens.authenticate(credentials.id, credentials.secret);
    if (!principal) throw unauthorized('Invalid API credentials');
    req.principal = principal;

    const required = route.permission ?? (req.method === 'GET' || req.method === 'HEAD' ? 'VIEW' : 'MANAGE');
    if (!principal.permissions.includes(required)) {
      throw new ApiError('FORBIDDEN', `This API token lacks the ${required} permission`);
    }
    return true;
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
        agentAuth: this.reflector.getAllAndOverride<boolean>(AGENT_AUTH_KEY, targets) === true,
        permission: this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION_KEY, targets),
      };
      byHandler.set(handler, route);
    }
    return route;
  }
}
