import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { Public } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { ConsoleSessionsService, CSRF_HEADER, readCookie, SESSION_COOKIE } from '../auth/console-sessions.service.js';
import type { ConsoleSession } from '../auth/console-sessions.service.js';
import { TokensService } from '../auth/tokens.service.js';
import { formatId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { ApiError } from '../errors/api-error.js';
import { clientAddress } from '../common/client-address.js';
import { ConsoleSignInRequest, ConsoleSessionView } from './console-session.dto.js';

/** One answer for every failed sign-in, whatever failed (unknown id, wrong secret, revoked token). */
const SIGN_IN_FAILED = 'Sign-in failed: check the client ID and client secret';
const FAILURE_WINDOW_SECONDS = 15 * 60;
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[?::1\]?|[a-z0-9-]+\.localhost)$/i;

/**
 * The console's sign-in, who-am-I and sign-out, outside the API's version prefix (they are the
 * console's, not the API's). Everything else the console does goes through the REST routes with
 * the session cookie (src/auth/auth.guard.ts).
 */
@ApiExcludeController()
@Controller('console/api/session')
export class ConsoleSessionController {
  /** Failed sign-ins per client address (rate-limiter-flexible, in memory: per replica). */
  private readonly failures: RateLimiterMemory;

  constructor(
    private readonly sessions: ConsoleSessionsService,
    private readonly tokens: TokensService,
    private readonly config: AppConfig,
  ) {
    this.failures = new RateLimiterMemory({
      points: config.CONSOLE_SIGNIN_FAILURES,
      duration: FAILURE_WINDOW_SECONDS,
    });
  }

  /** Sign in with an API token: a new session (a new id every time; the presented one, if any, ends). */
  @Post()
  @Public()
  @HttpCode(200)
  async signIn(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @Body() body: ConsoleSignInRequest,
  ): Promise<ConsoleSessionView> {
    const address = clientAddress(req);
    const state = await this.failures.get(address);
    if (state && state.consumedPoints >= this.config.CONSOLE_SIGNIN_FAILURES) {
      const retryAfterSeconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
      throw new ApiError('RATE_LIMITED', `Too many failed sign-ins; retry in ${retryAfterSeconds} s`, {
        retryAfterSeconds,
      });
    }
    const principal = await this.tokens.authenticate(body.clientId, body.clientSecret);
    if (!principal) {
      await this.failures.penalty(address, 1);
      throw new ApiError('UNAUTHORIZED', SIGN_IN_FAILED);
    }
    const previous = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (previous !== undefined) await this.sessions.revoke(previous);
    const { sessionId, csrfToken } = await this.sessions.create(principal);
    res.setHeader('Set-Cookie', this.cookie(req, sessionId, this.config.CONSOLE_SESSION_MAX_SECONDS));
    res.setHeader('Cache-Control', 'no-store');
    return this.view(principal, csrfToken);
  }

  /** The signed-in token (and the CSRF token, for a page that was reloaded); 401 when the session ended. */
  @Get()
  @Public()
  async current(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ConsoleSessionView> {
    const session = await this.session(req);
    res.setHeader('Cache-Control', 'no-store');
    return this.view(session.principal, session.csrfToken);
  }

  /** Sign out: the session ends on the server and the cookie is cleared. A write: the CSRF token is required. */
  @Delete()
  @Public()
  @HttpCode(204)
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    const sessionId = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (sessionId !== undefined) {
      const session = await this.sessions.find(sessionId);
      if (session) {
        const presented = req.headers[CSRF_HEADER];
        if (!this.sessions.csrfMatches(session, typeof presented === 'string' ? presented : undefined)) {
          throw new ApiError('FORBIDDEN', 'Missing or wrong X-CSRF-Token for this console session');
        }
        await this.sessions.revoke(sessionId);
      }
    }
    res.setHeader('Set-Cookie', this.cookie(req, '', 0));
  }

  private async session(req: Request): Promise<ConsoleSession> {
    const sessionId = readCookie(req.headers.cookie, SESSION_COOKIE);
    const session = sessionId === undefined ? null : await this.sessions.find(sessionId);
    if (!session) throw new ApiError('UNAUTHORIZED', 'Not signed in to the console');
    return session;
  }

  private async view(principal: PlatformPrincipal, csrfToken: string): Promise<ConsoleSessionView> {
    const token = await this.tokens.get(principal.platformId, principal.tokenId);
    return {
      platformId: formatId('Platform', principal.platformId),
      token: { id: token.id, name: token.name, permissions: principal.permissions },
      csrfToken,
      sandbox: this.config.SANDBOX,
      sandboxOnDatabase: this.config.sandboxOnDatabase,
      idleTimeoutSeconds: this.config.CONSOLE_SESSION_IDLE_SECONDS,
    };
  }

  /** `Secure` everywhere but plain HTTP on a loopback host (a developer's machine). */
  private cookie(req: Request, value: string, maxAgeSeconds: number): string {
    const secure = req.secure || !LOOPBACK.test(req.hostname ?? '');
    return [
      `${SESSION_COOKIE}=${value}`,
      'Path=/',
      `Max-Age=${maxAgeSeconds}`,
      'HttpOnly',
      'SameSite=Strict',
      ...(secure ? ['Secure'] : []),
    ].join('; ');
  }
}
