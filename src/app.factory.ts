import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppModule } from './app.module.js';
import { AuditTrail } from './audit/audit-trail.js';
import { VALIDATOR_OPTIONS } from './common/validate-body.js';
import { AppConfig } from './config/app-config.js';
import type { AppOptions } from './config/config.module.js';
import { AllExceptionsFilter } from './errors/all-exceptions.filter.js';
import { ApiError } from './errors/api-error.js';
import { sendApiError } from './errors/error-response.js';
import { invalidInput, toFieldErrors } from './errors/validation-errors.js';
import { answerParserErrors, JsonBodyGuard, RequestDeadlines, requestEntry } from './http-pipeline.js';
import { InputValidationPipe } from './common/input-validation.pipe.js';
import { Lifecycle } from './health/lifecycle.js';
import { httpObserver } from './metrics/http-metrics.js';
import { MetricsServer } from './metrics/metrics.server.js';
import { MetricsService } from './metrics/metrics.service.js';
import { RateLimitGuard } from './protection/rate-limit.guard.js';
import { applyProtection, securityHeaders } from './protection/security.js';
import { PinoNestLogger } from './logging/logger.js';
import { setupOpenApi } from './openapi/openapi.js';
import { consoleStatic } from './console/console-static.js';
import { sortRoutes } from './route-order.js';

/** A ROLE=worker process serves only the health probes; the API is served by ROLE=api or all. */
function workerOnly(req: Request, res: Response, next: () => void): void {
  if (req.path === '/healthz' || req.path === '/readyz') return next();
  sendApiError(res, new ApiError('NOT_FOUND', 'This process runs ROLE=worker: it serves only /healthz and /readyz'));
}

/** The spec's version segment: every API path is appended to it. */
export const API_VERSION = '2025-10-13';

/** Builds the HTTP application exactly as production runs it (used by main.ts and the e2e tests). */
export async function createApp(
  config: AppConfig,
  databaseUrl: string,
  logger: Logger,
  options: AppOptions = {},
): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, databaseUrl, options), {
    bodyParser: false,
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  answerParserErrors(app.getHttpServer(), logger);
  app.disable('x-powered-by');
  // Whose X-Forwarded-For / X-Forwarded-Proto count (TRUST_PROXY; off: none). Every reader of the
  // client's address goes through clientAddress(req) (src/common/client-address.ts).
  app.set('trust proxy', config.trustProxy);
  // No ETag: the API promises no conditional requests, and hashing every response body costs ~3% of a request.
  app.set('etag', false);
  app.set('query parser', 'extended');
  const metrics = app.get(MetricsService);
  const lifecycle = app.get(Lifecycle);
  const deadlines = new RequestDeadlines(config.REQUEST_TIMEOUT_MS);
  app.getHttpServer().once('close', () => deadlines.stop());
  app.use(
    requestEntry({
      logger,
      headers: securityHeaders(),
      observer: httpObserver(metrics),
      // Draining (SIGTERM): every answer asks keep-alive clients to reconnect (to another replica).
      draining: () => lifecycle.draining,
      deadlines,
    }),
  );
  applyProtection(app, config);
  if (config.ROLE === 'worker') app.use(workerOnly);
  else if (config.CONSOLE) app.use('/console', consoleStatic());
  app.setGlobalPrefix(API_VERSION, {
    exclude: [
      'healthz',
      'readyz',
      'docs',
      'docs/{*path}',
      '.well-known/lnurlpubkey',
      '.well-known/lnurlp/{*path}',
      '.well-known/uma-settlement',
      // Payout rail providers' webhooks (src/payments/rail/rail-webhooks.controller.ts).
      'webhooks/rails/{*path}',
      // The console's own routes (src/console/): sign-in, and its reads the REST API does not answer.
      ...(config.CONSOLE ? ['console/api/{*path}'] : []),
    ],
  });
  const audit = app.get(AuditTrail);
  if (options.audit === false) audit.enabled = false;
  app.useGlobalFilters(new AllExceptionsFilter((req, error) => audit.recordFailure(req, error.status, error.code)));
  // Guards after the auth guard (an APP_GUARD), in this order: the rate limit (the credential is
  // known) before the body is read. No global interceptor: a route without its own runs without
  // an interceptor chain (the request timeout is the entry middleware's RequestDeadlines).
  app.useGlobalGuards(new RateLimitGuard(config, metrics), new JsonBodyGuard());
  app.useGlobalPipes(
    new InputValidationPipe({
      ...VALIDATOR_OPTIONS,
      transform: true,
      exceptionFactory: (errors) => invalidInput(toFieldErrors(errors)),
    }),
  );
  audit.useOperations(setupOpenApi(app, API_VERSION), API_VERSION);
  // Another deployment's signed settlement callback moves money here: audited like an API call.
  audit.usePublicOperation('POST', '/.well-known/uma-settlement', 'receiveUmaSettlement', 200);
  await app.init();
  await app.get(MetricsServer).start();
  // Literal segments before parameters, whatever the module import order: reorders Express 5's
  // router stack (src/route-order.ts names the versions it relies on).
  sortRoutes(app.getHttpAdapter().getInstance());
  // Paths outside the version prefix that no route matched: same error shape as everywhere.
  app.use((req: Request, res: Response) =>
    sendApiError(res, new ApiError('NOT_FOUND', `No route ${req.method} ${req.path}`)),
  );
  return app;
}
