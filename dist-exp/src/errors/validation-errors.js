import { ApiError } from './api-error.js';
import { fieldError } from './field-error.js';
const CONSTRAINT_KEYS = ['format', 'pattern', 'enum', 'minLength', 'maxLength'];
/** Picks the FieldConstraint members that composite decorators put in the validator's `context`. */
function constraintOf(error) {
    const out = {};
    for (const ctx of Object.values(error.contexts ?? {})) {
        for (const key of CONSTRAINT_KEYS) {
            if (ctx && typeof ctx === 'object' && key in ctx) {
                out[key] = ctx[key];
            }
        }
    }
    return Object.keys(out).length > 0 ? out : undefined;
}
/** Flattens class-validator's tree into one FieldError per invalid field, with dot paths. */
export function toFieldErrors(errors, parent = '') {
    const out = [];
    for (const error of errors) {
        const field = parent ? `${parent}.${error.property}` : error.property;
        if (error.constraints && Object.keys(error.constraints).length > 0) {
            const { whitelistValidation, isDefined, ...rest } = error.constraints;
            const messages = whitelistValidation ? ['unknown field'] : isDefined ? [isDefined] : Object.values(rest);
            out.push(fieldError(field, messages.join('; '), constraintOf(error)));
        }
        if (error.children?.length)
            out.push(...toFieldErrors(error.children, field));
    }
    return out;
}
export function invalidInput(errors, reason = 'Request validation failed') {
    return new ApiError('INVALID_INPUT', reason, { details: { errors } });
}
//# sourceMappingURL=validation-errors.js.map