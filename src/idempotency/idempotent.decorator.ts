import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

export const IDEMPOTENT_KEY = 'idempotent';

/** Accepts an `Idempotency-Key` header on this POST route. */
export const Idempotent = () =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_KEY, true),
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Up to 255 characters. Retrying with the same key and body replays the first response (header Idempotent-Replayed: true); another body is 409 CONFLICT.',
    }),
  );
