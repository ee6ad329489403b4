var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Catch, HttpException, Logger } from '@nestjs/common';
import { ApiError } from './api-error.js';
import { sendApiError } from './error-response.js';
const HTTP_STATUS_CODES = {
    400: 'INVALID_REQUEST_FORMAT', // the framework's own 400s (e.g. a path that does not decode); FieldErrors are ApiErrors
    401: 'UNAUTHORIZED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    405: 'METHOD_NOT_ALLOWED',
    409: 'CONFLICT',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    429: 'RATE_LIMITED',
    503: 'SERVICE_UNAVAILABLE',
};
/** Connection-level failures of the database: answered 503 so clients and load balancers retry. */
const DB_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '53300']);
function isDatabaseUnavailable(error) {
    if (!error || typeof error !== 'object')
        return false;
    const e = error;
    if (typeof e.code === 'string' && DB_UNAVAILABLE.has(e.code))
        return true;
    if (typeof e.message === 'string' && /Connection terminated|timeout exceeded when trying to connect/i.test(e.message))
        return true;
    return e.driverError ? isDatabaseUnavailable(e.driverError) : false;
}
/** The one place every error becomes an HTTP response in the spec's `{code, reason, details}` shape. */
let AllExceptionsFilter = class AllExceptionsFilter {
    logger = new Logger('http');
    catch(exception, host) {
        const ctx = host.switchToHttp();
        const req = ctx.getRequest();
        const res = ctx.getResponse();
        if (res.headersSent) {
            // Already answered (a handler finishing after its request's deadline was answered 503):
            // nothing can be sent, and this is not a failure of the request.
            this.logger.debug({ requestId: req.id, err: describe(exception) }, 'error after the response was sent');
            return;
        }
        sendApiError(res, this.toApiError(exception, req));
    }
    toApiError(exception, req) {
        if (exception instanceof ApiError)
            return exception;
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
};
AllExceptionsFilter = __decorate([
    Catch()
], AllExceptionsFilter);
export { AllExceptionsFilter };
function describe(error) {
    if (error instanceof Error)
        return { type: error.name, message: error.message, stack: error.stack };
    return { value: String(error) };
}
//# sourceMappingURL=all-exceptions.filter.js.map