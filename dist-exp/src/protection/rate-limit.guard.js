var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/app-config.js';
import { ApiError } from '../errors/api-error.js';
import { MetricsService } from '../metrics/metrics.service.js';
/**
 * Whose budget a request spends, from the principal the auth guards set on `req.principal`:
 * a principal carrying `agentId` is an agent's own credential, one carrying `tokenId` an API
 * token. No principal (public routes): not limited.
 */
export function rateLimitKey(principal) {
    if (!principal || typeof principal !== 'object')
        return null;
    const p = principal;
    if (typeof p.agentId === 'string')
        return { kind: 'agent', id: p.agentId };
    if (typeof p.tokenId === 'string')
        return { kind: 'token', id: p.tokenId };
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
let RateLimitGuard = class RateLimitGuard {
    metrics;
    limiters;
    windowSeconds;
    constructor(config, metrics) {
        this.metrics = metrics;
        this.windowSeconds = config.RATE_LIMIT_WINDOW_MS / 1000;
        const limiter = (points) => points > 0 ? { limiter: new RateLimiterMemory({ points, duration: this.windowSeconds }), points } : null;
        this.limiters = { token: limiter(config.RATE_LIMIT_REQUESTS), agent: limiter(config.RATE_LIMIT_AGENT_REQUESTS) };
    }
    async canActivate(context) {
        const http = context.switchToHttp();
        const key = rateLimitKey(http.getRequest().principal);
        const limit = key && this.limiters[key.kind];
        if (!key || !limit)
            return true;
        const res = http.getResponse();
        await limit.limiter.consume(`${key.kind}:${key.id}`).then((state) => this.setHeaders(res, limit.points, state), (state) => {
            if (!(state instanceof RateLimiterRes))
                throw state;
            this.setHeaders(res, limit.points, state);
            this.metrics.rateLimited.inc({ kind: key.kind });
            const retryAfterSeconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
            throw new ApiError('RATE_LIMITED', `Too many requests for this credential; retry in ${retryAfterSeconds} s`, {
                retryAfterSeconds,
                details: { limit: limit.points, windowMs: this.windowSeconds * 1000 },
            });
        });
        return true;
    }
    setHeaders(res, points, state) {
        res.setHeader('RateLimit-Limit', String(points));
        res.setHeader('RateLimit-Remaining', String(state.remainingPoints));
        res.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(state.msBeforeNext / 1000))));
        res.setHeader('RateLimit-Policy', `${points};w=${this.windowSeconds}`);
    }
};
RateLimitGuard = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [AppConfig,
        MetricsService])
], RateLimitGuard);
export { RateLimitGuard };
//# sourceMappingURL=rate-limit.guard.js.map