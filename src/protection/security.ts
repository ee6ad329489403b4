import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import helmet from 'helmet';
import { AppConfig } from '../config/app-config.js';

/**
 * Security headers (`helmet`'s defaults: HSTS, nosniff, frame denial, a strict CSP that the
 * `/docs` UI fits in, no referrer), CORS only when CORS_ORIGINS is set, and the time a client
 * may take to send its request (REQUEST_TIMEOUT_MS; Node answers 408 through the parser-error
 * handler).
 */
export function applyProtection(app: INestApplication, config: AppConfig): void {
  app.use(helmet());
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
