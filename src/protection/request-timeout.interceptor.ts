import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, throwError, timeout } from 'rxjs';
import { ApiError } from '../errors/api-error.js';

/**
 * A request whose handler has not answered within REQUEST_TIMEOUT_MS gets 503
 * `SERVICE_UNAVAILABLE` (retryable, `Retry-After: 1`). The work already started is not undone
 * (its transaction may still commit): a retry with the same `Idempotency-Key` is safe.
 * Receiving the request is bounded by the same value (Node's `requestTimeout`, answered 408).
 */
@Injectable()
export class RequestTimeoutInterceptor implements NestInterceptor {
  constructor(private readonly ms: number) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      timeout({
        first: this.ms,
        with: () =>
          throwError(
            () =>
              new ApiError('SERVICE_UNAVAILABLE', `The request was not served within ${this.ms} ms; retry later`, {
                retryAfterSeconds: 1,
              }),
          ),
      }),
    );
  }
}
