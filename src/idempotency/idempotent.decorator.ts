import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.js';
import { IDEMPOTENCY_KEY_REQUIRED, IdempotencyInterceptor } from './idempotency.interceptor.js';

export interface IdempotentOptions {
  /**
   * The header is required (e.g. `POST /cards`, whose effect is fee-bearing and cannot be
   * reversed): without it the request is 400 INVALID_INPUT with a FieldError on `Idempotency-Key`.
   */
  required?: boolean;
}

/** Accepts (or, with `required`, requires) an `Idempotency-Key` header on this POST route. */
export const Idempotent = (options: IdempotentOptions = {}) =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiErrors(409),
    SetMetadata(IDEMPOTENCY_KEY_REQUIRED, options.required === true),
    ApiHeader({
      name: 'Idempotency-Key',
      required: options.required === true,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      description:
        (options.required ? 'Required. ' : '') +
        'Up to 255 characters. Retrying with the same key and body replays the first response (header Idempotent-Replayed: true); another body is 409 CONFLICT.',
    }),
  );
