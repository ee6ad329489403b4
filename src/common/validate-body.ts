import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { FieldError } from '../errors/field-error.js';
import { toFieldErrors } from '../errors/validation-errors.js';

/**
 * Validates a body against a DTO class exactly as the global pipe does, but returns the
 * FieldErrors instead of throwing, so a service can add the errors of rules validated elsewhere
 * (e.g. a polymorphic member) and report every invalid field in one response.
 */
export function validateBody<T extends object>(dto: new () => T, body: unknown): { value: T; errors: FieldError[] } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return { value: new dto(), errors: [{ field: 'body', message: 'request body must be a JSON object' }] };
  }
  const value = plainToInstance(dto, body);
  const errors = validateSync(value, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  });
  return { value, errors: toFieldErrors(errors) };
}
