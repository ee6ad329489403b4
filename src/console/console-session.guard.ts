import { CanActivate, createParamDecorator, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import type { Request } from 'express';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { ConsoleSessionsService, readCookie, SESSION_COOKIE } from '../auth/console-sessions.service.js';
import { ClockOffsets, enterPlatformClock } from '../common/clock.js';
import { ApiError } from '../errors/api-error.js';

type ConsoleRequest = Request & { consolePrincipal?: PlatformPrincipal };

/**
 * The console's own read routes (`/console/api/...`, marked `@Public()` so the API's guard leaves
 * them alone) answer a console session only: the session cookie, never HTTP Basic (401 otherwise).
 * Any permission may read them, as every console page. The request then runs on the session's
 * platform clock (a sandbox platform's test clock), as the API's routes do.
 */
@Injectable()
export class ConsoleSessionGuard implements CanActivate {
  constructor(
    private readonly sessions: ConsoleSessionsService,
    @Optional() private readonly clockOffsets?: ClockOffsets,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ConsoleRequest>();
    const sessionId = readCookie(req.headers.cookie, SESSION_COOKIE);
    const session = sessionId === undefined ? null : await this.sessions.find(sessionId);
    if (!session) throw new ApiError('UNAUTHORIZED', 'Not signed in to the console');
    req.consolePrincipal = session.principal;
    enterPlatformClock(this.clockOffsets, session.principal.platformId);
    return true;
  }
}

/** The platform (uuid) of the console session `ConsoleSessionGuard` let in. */
export const ConsolePlatform = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const principal = context.switchToHttp().getRequest<ConsoleRequest>().consolePrincipal;
  if (!principal) throw new ApiError('UNAUTHORIZED', 'Not signed in to the console');
  return principal.platformId;
});
