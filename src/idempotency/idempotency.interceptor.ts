import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { from, lastValueFrom, map, Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth.decorators.js';
import { TransactionService } from '../database/transaction.service.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { IdempotencyService } from './idempotency.service.js';

/** Metadata key: the route refuses a request without `Idempotency-Key` (`@Idempotent({ required: true })`). */
export const IDEMPOTENCY_KEY_REQUIRED = 'idempotency:required';

/**
 * Wraps the handler in one transaction together with its idempotency record, so the effects and
 * the record commit (or roll back) together. See IdempotencyService for the rules.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly tx: TransactionService,
    private readonly idempotency: IdempotencyService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<AuthenticatedRequest>();
    const header = req.headers['idempotency-key'];
    if (
      header === undefined &&
      req.principal &&
      this.reflector.get<boolean>(IDEMPOTENCY_KEY_REQUIRED, context.getHandler())
    ) {
      throw invalidInput([
        fieldError('Idempotency-Key', 'the Idempotency-Key header is required on this route', {
          minLength: 1,
          maxLength: 255,
        }),
      ]);
    }
    if (header === undefined || !req.principal) return next.handle();
    if (typeof header !== 'string' || header.length < 1 || header.length > 255) {
      throw invalidInput([
        fieldError('Idempotency-Key', 'must be 1 to 255 characters', { minLength: 1, maxLength: 255 }),
      ]);
    }
    const status = this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
    const platformId = req.principal.platformId;
    const fingerprint = this.idempotency.fingerprint(req.method, req.originalUrl, req.body);

    const outcome = this.tx.run(async (manager) => {
      const replay = await this.idempotency.begin(manager, platformId, header, fingerprint);
      if (replay) return replay;
      const body: unknown = await lastValueFrom(next.handle(), { defaultValue: undefined });
      await this.idempotency.record(manager, platformId, header, fingerprint, status, body);
      return { replayed: false, status, body };
    });
    const res = http.getResponse<Response>();
    return from(outcome).pipe(
      map((result) => {
        if (result.replayed) {
          res.status(result.status);
          res.setHeader('Idempotent-Replayed', 'true');
        }
        return result.body;
      }),
    );
  }
}
