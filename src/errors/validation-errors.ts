import type { ValidationError } from 'class-validator';
import { ApiError } from './api-error.js';
import { fieldError, type FieldConstraint, type FieldError } from './field-error.js';

const CONSTRAINT_KEYS = ['format', 'pattern', 'enum', 'minLength', 'maxLength'] as const;

/** Picks the FieldConstraint members that composite decorators put in the validator's `context`. */
function constraintOf(error: ValidationError): FieldConstraint | undefined {
  const out: FieldConstraint = {};
  for (const ctx of Object.values(error.contexts ?? {})) {
    for (const key of CONSTRAINT_KEYS) {
      if (ctx && typeof ctx === 'object' && key in ctx) {
        (out as Record<string, unknown>)[key] = (ctx as Record<string, unknown>)[key];
      }
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Flattens class-validator's tree into one FieldError per invalid field, with dot paths. */
export function toFieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints && Object.keys(error.constraints).length > 0) {
      const { whitelistValidation, isDefined, ...rest } = error.constraints;
      const messages = whitelistValidation ? ['unknown field'] : isDefined ? [isDefined] : Object.values(rest);
      out.push(fieldError(field, messages.join('; '), constraintOf(error)));
    }
    if (error.children?.length) out.push(...toFieldErrors(error.children, field));
  }
  return out;
}

export function invalidInput(errors: FieldError[], reason = 'Request validation failed'): ApiError {
  return new ApiError('INVALID_INPUT', reason, { details: { errors } });
}
