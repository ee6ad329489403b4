import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { fieldError } from '../errors/field-error.js';
import { toFieldErrors } from '../errors/validation-errors.js';
import { isRecord } from './objects.js';
/** The one set of class-validator options: the global pipe and every service-side validation use it. */
export const VALIDATOR_OPTIONS = {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
};
/** The FieldError of a body that is not a JSON object. */
export const bodyNotAnObject = () => fieldError('body', 'the request body must be a JSON object');
/**
 * Validates a body against a DTO class exactly as the global pipe does, but returns the
 * FieldErrors instead of throwing, so a service can add the errors of rules validated elsewhere
 * (e.g. a polymorphic member) and report every invalid field in one response. `options` loosens
 * the defaults (e.g. `forbidNonWhitelisted: false` to check only the members a class knows).
 */
export function validateBody(dto, body, options = {}) {
    if (!isRecord(body))
        return { value: new dto(), errors: [bodyNotAnObject()] };
    const value = plainToInstance(dto, body);
    return { value, errors: toFieldErrors(validateSync(value, { ...VALIDATOR_OPTIONS, ...options })) };
}
//# sourceMappingURL=validate-body.js.map