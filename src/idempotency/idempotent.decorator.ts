import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IDEMPOTENT_OPTIONS, IdempotencyInterceptor, type IdempotentOptions } from './idempotency.interceptor.js';

export type { IdempotentOptions };

/** Accepts an `Idempotency-Key` header on this POST route. */
export const Idempotent = (options: IdempotentOptions = {}) =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_OPTIONS, options),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Up to 255 characters. Retrying with the same key and body replays the first response (header Idempotent-Replayed: true); another body is 409 CONFLICT.',
    }),
  );
