import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, ErrorCode } from './api-error.js';
import { sendApiError } from './error-response.js';

const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'INVALID_REQUEST_FORMAT', // the framework's own 400s (e.g. a path that does not decode); FieldErrors are ApiErrors
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'INVALID_REQUEST_FORMAT', // the reference lists no 413/415 codes: a body it cannot take is a request format it cannot read
  415: 'INVALID_REQUEST_FORMAT',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Connection-level failures of the database: answered 503 so clients and load balancers retry. */
const DB_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '53300']);

function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; message?: unknown; driverError?: unknown };
  if (typeof e.code === 'string' && DB_UNAVAILABLE.has(e.code)) return true;
  if (typeof e.message === 'string' && /Connection terminated|timeout exceeded when trying to connect/i.test(e.message))
    return true;
  return e.driverError ? isDatabaseUnavailable(e.driverError) : false;
}

/** The one place every error becomes an HTTP response in the spec's `{code, reason, details}` shape. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  /** `beforeSend`: awaited before the error is sent (the audit trail records the refusal); must not throw. */
  constructor(private readonly beforeSend?: (req: Request, error: ApiError) => Promise<void>) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request & { id?: unknown }>();
    const res = ctx.getResponse<Response>();
    if (res.headersSent) {
      // Already answered (a handler finishing after its request's deadline was answered 503):
      // nothing can be sent, and this is not a failure of the request.
      this.logger.debug({ requestId: req.id, err: describe(exception) }, 'error after the response was sent');
      return;
    }
    const error = this.toApiError(exception, req);
    if (!this.beforeSend) return sendApiError(res, error);
    void this.beforeSend(req, error).then(() => {
      if (!res.headersSent) sendApiError(res, error);
    });
  }

  private toApiError(exception: unknown, req: Request & { id?: unknown }): ApiError {
    if (exception instanceof ApiError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = HTTP_STATUS_CODES[status];
      if (code) {
        const reason = status === 404 ? `No route ${req.method} ${req.originalUrl.split('?')[0]}` : exception.message;
        return new ApiError(code, reason);
      }
    }
    const requestId = typeof req.id === 'string' ? req.id : '';
    if (isDatabaseUnavailable(exception)) {
      this.logger.error({ requestId, err: describe(exception) }, 'database unavailable');
      return new ApiError('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable; retry later', {
        retryAfterSeconds: 1,
        details: { requestId },
      });
    }
    this.logger.error({ requestId, err: describe(exception) }, 'unhandled error');
    return new ApiError('INTERNAL_ERROR', 'An internal error occurred', { details: { requestId } });
  }
}

function describe(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { type: error.name, message: error.message, stack: error.stack };
  return { value: String(error) };
}
