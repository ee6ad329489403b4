import type { ExecutionContext } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../../src/config/app-config.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { MetricsService } from '../../../src/metrics/metrics.service.js';
import { RateLimitGuard, rateLimitKey } from '../../../src/protection/rate-limit.guard.js';

/** The key is the principal the guards set: agents (added by the agents area) spend their own budget. */
describe('rate limit key and budgets', () => {
  it('keys on the principal: agentId as an agent, tokenId as an API token, nothing otherwise', () => {
    expect(rateLimitKey({ platformId: 'p', agentId: 'a1' })).toEqual({ kind: 'agent', id: 'a1' });
    expect(rateLimitKey({ platformId: 'p', tokenId: 't1', permissions: [] })).toEqual({ kind: 'token', id: 't1' });
    expect(rateLimitKey(undefined)).toBeNull();
    expect(rateLimitKey({ platformId: 'p' })).toBeNull();
  });

  it('gives agents RATE_LIMIT_AGENT_REQUESTS and tokens RATE_LIMIT_REQUESTS, each credential its own', async () => {
    const config = loadConfig({
      RATE_LIMIT_REQUESTS: '3',
      RATE_LIMIT_AGENT_REQUESTS: '1',
      RATE_LIMIT_WINDOW_MS: '60000',
    });
    const metrics = new MetricsService({} as DataSource);
    const guard = new RateLimitGuard(config, metrics);
    const call = (principal: object) => {
      const headers: Record<string, string> = {};
      const context = {
        switchToHttp: () => ({
          getRequest: () => ({ principal }),
          getResponse: () => ({ setHeader: (name: string, value: string) => (headers[name] = value) }),
        }),
      } as unknown as ExecutionContext;
      return guard.canActivate(context).then(
        (allowed) => ({ value: allowed ? 'served' : 'refused', headers }),
        (error: unknown) => ({ value: error instanceof ApiError ? error.code : error, headers }),
      );
    };
    const agent = { platformId: 'p', agentId: 'agent-1' };
    expect(await call(agent)).toMatchObject({ value: 'served', headers: { 'RateLimit-Limit': '1' } });
    expect(await call(agent)).toMatchObject({ value: 'RATE_LIMITED', headers: { 'RateLimit-Remaining': '0' } });
    expect(await call({ platformId: 'p', agentId: 'agent-2' })).toMatchObject({ value: 'served' });
    const token = { platformId: 'p', tokenId: 'token-1', permissions: [] };
    for (let i = 0; i < 3; i++)
      expect(await call(token)).toMatchObject({ value: 'served', headers: { 'RateLimit-Limit': '3' } });
    expect(await call(token)).toMatchObject({ value: 'RATE_LIMITED' });
    const text = await metrics.registry.getSingleMetricAsString('http_rate_limited_total');
    expect(text).toContain('http_rate_limited_total{kind="agent"} 1');
    expect(text).toContain('http_rate_limited_total{kind="token"} 1');
  });
});
