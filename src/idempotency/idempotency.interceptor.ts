import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { from, lastValueFrom, map, Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth.decorators.js';
import { TransactionService } from '../database/transaction.service.js';
import type { ErrorCode } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { IdempotencyService, IdempotentOutcome, inProgress, PriorRecord } from './idempotency.service.js';

export interface IdempotentOptions {
  /**
   * The handler's whole effect is one statement that writes the request's idempotency record
   * itself (`IdempotencyService.statement()` and `withIdempotencyRecord`): no transaction is opened
   * around it and the key costs no statement of its own. Without it (the default), the interceptor
   * runs the handler in one transaction opened by a key lock and lookup and closed by the record.
   */
  oneStatement?: boolean;
  /**
   * The header is required (e.g. `POST /cards`, whose effect is fee-bearing and cannot be
   * reversed): without it the request is 400 INVALID_INPUT with a FieldError on `Idempotency-Key`.
   */
  required?: boolean;
  /**
   * The code of the 409 when the key was used for another request (default `CONFLICT`), chosen
   * from the request's body: `POST /quotes` to an UMA address answers `DUPLICATE_PAY_REQUEST`
   * (the quote sends a pay request).
   */
  conflictCode?: (body: unknown) => ErrorCode | undefined;
}

export const IDEMPOTENT_OPTIONS = 'idempotency:options';

interface KeyedCall {
  platformId: string;
  /** The 409's code when the key was used for another request. */
  conflict: ErrorCode;
  key: string;
  fingerprint: string;
  status: number;
  handle: () => Promise<unknown>;
}

/** Metadata key: the route refuses a request without `Idempotency-Key` (`@Idempotent({ required: true })`). */
export const IDEMPOTENCY_KEY_REQUIRED = 'idempotency:required';

/**
 * Runs an `@Idempotent()` handler so that its effects and its idempotency record commit (or roll
 * back) together: in one transaction opened by the key's lock and lookup, or, on a
 * `oneStatement` route, in the handler's own statement. See IdempotencyService for the rules.
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
    const handler = context.getHandler();
    const options = this.reflector.get<IdempotentOptions | undefined>(IDEMPOTENT_OPTIONS, handler) ?? {};
    const call: KeyedCall = {
      platformId: req.principal.platformId,
      conflict: options.conflictCode?.(req.body) ?? 'CONFLICT',
      // An agent's keys are its own: prefixed with a control character no HTTP header can carry, so
      // no key the platform (or another agent) sends can name them.
      key: req.principal.kind === 'agent' ? `\u0001agent:${req.principal.agentId}:${header}` : header,
      fingerprint: this.idempotency.fingerprint(req.method, req.originalUrl, req.body),
      status: this.reflector.get<number>(HTTP_CODE_METADATA, handler) ?? HttpStatus.CREATED,
      handle: () => lastValueFrom(next.handle(), { defaultValue: undefined }),
    };
    const outcome = options.oneStatement ? this.oneStatement(call) : this.inTransaction(call);
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

  private inTransaction(call: KeyedCall): Promise<IdempotentOutcome> {
    const { platformId, key, fingerprint, status } = call;
    return this.tx.run(async (manager) => {
      const replay = await this.idempotency.begin(manager, platformId, key, fingerprint, call.conflict);
      if (replay) return replay;
      const body = await call.handle();
      await this.idempotency.record(manager, platformId, key, fingerprint, status, body);
      return { replayed: false, status, body };
    });
  }

  /**
   * The handler's statement writes the record, or finds the key's prior record (thrown as
   * `PriorRecord`). Any other failure may stem from a request with this key that committed
   * meanwhile (the record's unique violation, or the effect finding that request's row): the record
   * is read anew and answers when there is one. An expired record is deleted and the handler runs
   * once more.
   */
  private async oneStatement(call: KeyedCall): Promise<IdempotentOutcome> {
    const { platformId, key, fingerprint, status } = call;
    for (let attempt = 0; ; attempt++) {
      try {
        const { value, recorded } = await this.idempotency.keyed({ platformId, key, fingerprint, status }, call.handle);
        if (!recorded) throw new Error('A oneStatement idempotent handler answered without writing its record');
        return { replayed: false, status, body: value };
      } catch (err) {
        const prior =
          err instanceof PriorRecord
            ? err
            : await this.idempotency.find(this.tx.manager, platformId, key).catch(() => null);
        if (!prior) throw err;
        const outcome = this.idempotency.answer(prior, fingerprint, call.conflict);
        if (outcome) return outcome;
        if (attempt > 0) throw err instanceof PriorRecord ? inProgress() : err;
        await this.idempotency.forget(this.tx.manager, platformId, key, prior);
      }
    }
  }
}
