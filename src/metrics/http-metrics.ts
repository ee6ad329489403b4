import type { NextFunction, Request, Response } from 'express';
import { MetricsService } from './metrics.service.js';

/**
 * Counts every HTTP request: in flight while served, then its duration by method, route
 * template (`/2025-10-13/customers/:customerId`, never the raw path: bounded label values) and
 * status. A request no route matched is `route="unmatched"`.
 */
export function httpMetrics(metrics: MetricsService) {
  const { httpRequestDuration: duration, httpRequestsInFlight: inFlight } = metrics;
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = performance.now();
    inFlight.inc();
    res.once('close', () => {
      inFlight.dec();
      const route = (req.route as { path?: unknown } | undefined)?.path;
      duration.observe(
        { method: req.method, route: typeof route === 'string' ? route : 'unmatched', status: String(res.statusCode) },
        (performance.now() - start) / 1000,
      );
    });
    next();
  };
}
