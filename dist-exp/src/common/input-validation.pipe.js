var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Injectable, ValidationPipe } from '@nestjs/common';
import { ApiError } from '../errors/api-error.js';
import { invalidInput } from '../errors/validation-errors.js';
const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
/**
 * A member named `constructor` is never part of the API, and class-transformer (which builds
 * nested objects from `value.constructor`) throws on one whose value is not a class: refused here,
 * before any transformation.
 */
const RESERVED_KEY = 'constructor';
const RESERVED_MESSAGE = `field name "${RESERVED_KEY}" is not allowed`;
/**
 * Every string member (and object key) of `value` that contains a NUL, and every member named
 * `constructor`, as FieldErrors on their dot paths (`accountInfo.beneficiary.fullName`,
 * `currencies.0`). PostgreSQL refuses NUL in text and JSON, so no such string may get past
 * validation.
 */
export function nulFieldErrors(value, root = '') {
    const errors = [];
    const join = (path, key) => (path ? `${path}.${key}` : key);
    const stack = [[value, root]];
    while (stack.length > 0) {
        const [node, path] = stack.pop();
        if (typeof node === 'string') {
            if (node.includes(NUL))
                errors.push({ field: path || 'body', message: NUL_MESSAGE });
        }
        else if (Array.isArray(node)) {
            node.forEach((item, i) => stack.push([item, join(path, String(i))]));
        }
        else if (node !== null && typeof node === 'object') {
            for (const [key, item] of Object.entries(node)) {
                if (key.includes(NUL))
                    errors.push({ field: join(path, key), message: `field name ${NUL_MESSAGE}` });
                else if (key === RESERVED_KEY)
                    errors.push({ field: join(path, key), message: RESERVED_MESSAGE });
                else
                    stack.push([item, join(path, key)]);
            }
        }
    }
    return errors.reverse();
}
/** Adds `extra` to `errors`, one FieldError per field (messages joined). */
function merge(errors, extra) {
    const out = errors.map((e) => ({ ...e }));
    for (const error of extra) {
        const same = out.find((e) => e.field === error.field);
        if (same)
            same.message = same.message ? `${same.message}; ${error.message}` : error.message;
        else
            out.push(error);
    }
    return out;
}
/**
 * The global pipe: class-validator DTO validation (Nest's ValidationPipe) plus the one check every
 * string that enters through a body, a query or a path parameter gets: no NUL. Both kinds of
 * FieldError come in one 400 INVALID_INPUT. Bodies a service validates itself (no DTO class) are
 * checked here too, before the service sees them.
 */
let InputValidationPipe = class InputValidationPipe extends ValidationPipe {
    async transform(value, metadata) {
        if (metadata.type === 'custom')
            return super.transform(value, metadata);
        const nul = nulFieldErrors(value, metadata.type === 'param' ? (metadata.data ?? 'id') : '');
        if (nul.length === 0)
            return super.transform(value, metadata);
        // class-transformer cannot be given a `constructor` member: report these alone.
        if (nul.some((e) => e.message === RESERVED_MESSAGE))
            throw invalidInput(nul);
        let errors = nul;
        try {
            await super.transform(value, metadata);
        }
        catch (error) {
            if (!(error instanceof ApiError) || error.code !== 'INVALID_INPUT')
                throw error;
            errors = merge(error.details?.errors ?? [], nul);
        }
        throw invalidInput(errors);
    }
};
InputValidationPipe = __decorate([
    Injectable()
], InputValidationPipe);
export { InputValidationPipe };
//# sourceMappingURL=input-validation.pipe.js.map