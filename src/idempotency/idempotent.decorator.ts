import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

/** Accepts an `Idempotency-Key` header on this POST route. */
export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiErrors(409),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Up to 255 characters. Retrying with the same key and body replays the first response (header Idempotent-Replayed: true); another body is 409 CONFLICT.',
    }),
  );
