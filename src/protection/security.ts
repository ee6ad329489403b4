import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import helmet from 'helmet';
import { AppConfig } from '../config/app-config.js';
import type { StaticHeaders } from '../http-pipeline.js';

/**
 * The security headers `helmet`'s defaults set (HSTS, nosniff, frame denial, a strict CSP that the
 * `/docs` UI fits in, no referrer), taken once from helmet itself: with this configuration they
 * are the same on every response (no nonce), so the entry middleware sets this list instead of
 * running helmet's dozen middlewares per request. Throws if helmet ever does more than set headers.
 */
export function securityHeaders(): StaticHeaders {
  const headers: Array<[string, string]> = [];
  let passed = false;
  const res = {
    setHeader: (name: string, value: unknown) => {
      headers.push([name, String(value)]);
    },
    removeHeader: () => undefined, // X-Powered-By: Express never sets it here (disabled)
  };
  helmet()({} as never, res as never, (err?: unknown) => {
    if (err) throw err as Error;
    passed = true;
  });
  if (!passed) throw new Error('helmet did not complete synchronously: its headers cannot be precomputed');
  return headers;
}

/**
 * CORS only when CORS_ORIGINS is set, and the time a client may take to send its request
 * (REQUEST_TIMEOUT_MS; Node answers 408 through the parser-error handler). The security headers
 * are set by the entry middleware (`securityHeaders`).
 */
export function applyProtection(app: INestApplication, config: AppConfig): void {
  if (config.CORS_ORIGINS) {
    const origins = config.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean);
    app.enableCors({
      origin: origins.includes('*') ? true : origins,
      methods: ['GET', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id'],
      exposedHeaders: [
        'X-Request-Id',
        'Retry-After',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
        'Idempotent-Replayed',
        'x-should-retry',
      ],
      maxAge: 600,
    });
  }
  const server = app.getHttpServer() as Server;
  server.requestTimeout = config.REQUEST_TIMEOUT_MS;
  server.headersTimeout = Math.min(server.headersTimeout, config.REQUEST_TIMEOUT_MS);
}
