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
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokensService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (this.reflector.getAllAndOverride<boolean>(AGENT_AUTH_KEY, targets)) {
      throw new ApiError('UNAUTHORIZED', 'Agent credentials are not accepted yet');
    }
    const credentials = parseBasic(req.headers.authorization);
    if (!credentials) throw unauthorized('Missing or malformed HTTP Basic credentials');
    const principal = await this.tokens.authenticate(credentials.id, credentials.secret);
    if (!principal) throw unauthorized('Invalid API credentials');
    req.principal = principal;

    const required =
      this.reflector.getAllAndOverride<Permission>(PERMISSION_KEY, targets) ??
      (req.method === 'GET' || req.method === 'HEAD' ? 'VIEW' : 'MANAGE');
    if (!principal.permissions.includes(required)) {
      throw new ApiError('FORBIDDEN', `This API token lacks the ${required} permission`);
    }
    return true;
  }
}
