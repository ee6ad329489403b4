import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../openapi/api-errors.js';
import { IDEMPOTENCY_KEY_REQUIRED, IDEMPOTENT_OPTIONS, IdempotencyInterceptor, } from './idempotency.interceptor.js';
/** Accepts (or, with `required`, requires) an `Idempotency-Key` header on this POST route. */
export const Idempotent = (options = {}) => applyDecorators(SetMetadata(IDEMPOTENT_OPTIONS, options), UseInterceptors(IdempotencyInterceptor), ApiErrors(409), SetMetadata(IDEMPOTENCY_KEY_REQUIRED, options.required === true), ApiHeader({
    name: 'Idempotency-Key',
    required: options.required === true,
    schema: { type: 'string', minLength: 1, maxLength: 255 },
    description: (options.required ? 'Required. ' : '') +
        'Up to 255 characters. Retrying with the same key and body replays the first response (header Idempotent-Replayed: true); another body is 409 CONFLICT.',
}));
//# sourceMappingURL=idempotent.decorator.js.map