import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config.js';
import { ApiError } from '../errors/api-error.js';
import { MetricsService } from '../metrics/metrics.service.js';

export type CredentialKind = 'token' | 'agent';

/**
 * Whose budget a request spends, from the principal the auth guards set on `req.principal`:
 * a principal carrying `agentId` is an agent's own credential, one carrying `tokenId` an API
 * token. No principal (public routes): not limited.
 */
export function rateLimitKey(principal: unknown): { kind: CredentialKind; id: string } | null {
  if (!principal || typeof principal !== 'object') return null;
  const p = principal as { agentId?: unknown; tokenId?: unknown };
  if (typeof p.agentId === 'string') return { kind: 'agent', id: p.agentId };
  if (typeof p.tokenId === 'string') return { kind: 'token', id: p.tokenId };
  return null;
}

/**
 * Per-credential rate limiting (`rate-limiter-flexible`, in memory, so per replica): a fixed
 * window of RATE_LIMIT_WINDOW_MS with RATE_LIMIT_REQUESTS per API token and
 * RATE_LIMIT_AGENT_REQUESTS per agent. A global guard registered after the auth guard (an
 * APP_GUARD, so the credential is known) and before JsonBodyGuard (so a limited request costs no
 * body parse). Every limited response carries
 * `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds) and `RateLimit-Policy`;
 * over the limit: 429 `RATE_LIMITED` with `Retry-After`.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limiters: Record<CredentialKind, { limiter: RateLimiterMemory; points: number } | null>;
  private readonly windowSeconds: number;

  constructor(
    config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    this.windowSeconds = config.RATE_LIMIT_WINDOW_MS / 1000;
    const limiter = (points: number) =>
      points > 0 ? { limiter: new RateLimiterMemory({ points, duration: this.windowSeconds }), points } : null;
    this.limiters = { token: limiter(config.RATE_LIMIT_REQUESTS), agent: limiter(config.RATE_LIMIT_AGENT_REQUESTS) };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const key = rateLimitKey(http.getRequest<Request & { principal?: unknown }>().principal);
    const limit = key && this.limiters[key.kind];
    if (!key || !limit) return true;
    const res = http.getResponse<Response>();
    await limit.limiter.consume(`${key.kind}:${key.id}`).then(
      (state) => this.setHeaders(res, limit.points, state),
      (state: unknown) => {
        if (!(state instanceof RateLimiterRes)) throw state;
        this.setHeaders(res, limit.points, state);
        this.metrics.rateLimited.inc({ kind: key.kind });
        const retryAfterSeconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
        throw new ApiError('RATE_LIMITED', `Too many requests for this credential; retry in ${retryAfterSeconds} s`, {
          retryAfterSeconds,
          details: { limit: limit.points, windowMs: this.windowSeconds * 1000 },
        });
      },
    );
    return true;
  }

  private setHeaders(res: Response, points: number, state: RateLimiterRes): void {
    res.setHeader('RateLimit-Limit', String(points));
    res.setHeader('RateLimit-Remaining', String(state.remainingPoints));
    res.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(state.msBeforeNext / 1000))));
    res.setHeader('RateLimit-Policy', `${points};w=${this.windowSeconds}`);
  }
}
