import { isRecord } from '../../common/objects.js';
import { fieldError } from '../../errors/field-error.js';
/**
 * Walks a spec and collects every FieldError (one per invalid field), never throwing.
 * `null` is treated like an absent member.
 */
export function validateRule(rule, value, path, errors) {
    if (value === undefined || value === null) {
        if (rule.required)
            errors.push(missing(rule, path));
        return;
    }
    switch (rule.kind) {
        case 'string':
            return validateString(rule, value, path, errors);
        case 'object':
            return validateObject(rule, value, path, errors);
        case 'union':
            return validateUnion(rule, value, path, errors);
    }
}
export function hasOwn(obj, key) {
    return Object.prototype.hasOwnProperty.call(obj, key);
}
/** `null` / `undefined` / empty-after-trim count as absent for presence rules. */
export function isPresent(value) {
    if (value === undefined || value === null)
        return false;
    return typeof value !== 'string' || value.trim().length > 0;
}
function validateString(rule, value, path, errors) {
    const name = leaf(path);
    if (typeof value !== 'string') {
        errors.push(fieldError(path, `${name} must be a string, got ${typeOf(value)}`));
        return;
    }
    if (rule.enum) {
        if (!rule.enum.includes(value))
            errors.push(fieldError(path, `${name} must be one of: ${rule.enum.join(', ')}`, { enum: [...rule.enum] }));
        return;
    }
    const length = Array.from(value).length;
    const blank = rule.required && value.trim().length === 0;
    if ((rule.minLength !== undefined && length < rule.minLength) || blank) {
        const min = Math.max(rule.minLength ?? 1, 1);
        errors.push(fieldError(path, blank ? `${name} must not be blank` : `${name} must be at least ${min} characters`, {
            ...withFormat(rule),
            minLength: min,
        }));
        return;
    }
    if (rule.maxLength !== undefined && length > rule.maxLength) {
        errors.push(fieldError(path, `${name} must be at most ${rule.maxLength} characters`, {
            ...withFormat(rule),
            maxLength: rule.maxLength,
        }));
        return;
    }
    if (rule.regex && !rule.regex.test(value)) {
        errors.push(fieldError(path, rule.format ? `${name} must be a valid ${rule.format}` : `${name} must match ${rule.pattern}`, formatConstraint(rule)));
        return;
    }
    const problem = rule.check?.(value);
    if (problem !== undefined)
        errors.push(fieldError(path, `${name} ${problem}`, formatConstraint(rule)));
}
function validateObject(rule, value, path, errors) {
    if (!isRecord(value)) {
        errors.push(fieldError(path, `${leaf(path)} must be an object, got ${typeOf(value)}`));
        return;
    }
    for (const key of Object.keys(value))
        if (!hasOwn(rule.fields, key))
            errors.push(fieldError(`${path}.${key}`, `unknown field '${key}'`));
    for (const [key, fieldRule] of Object.entries(rule.fields))
        validateRule(fieldRule, value[key], `${path}.${key}`, errors);
    for (const group of rule.groups)
        validateGroup(group, value, path, errors);
}
function validateUnion(rule, value, path, errors) {
    if (!isRecord(value)) {
        errors.push(fieldError(path, `${leaf(path)} must be an object, got ${typeOf(value)}`));
        return;
    }
    const tag = value[rule.discriminator];
    const tagPath = `${path}.${rule.discriminator}`;
    const allowed = Object.keys(rule.variants);
    const variant = typeof tag === 'string' && hasOwn(rule.variants, tag) ? rule.variants[tag] : undefined;
    if (variant)
        return validateObject(variant, value, path, errors);
    if (tag === undefined || tag === null)
        errors.push(fieldError(tagPath, `${rule.discriminator} is required`, { enum: allowed }));
    else if (typeof tag !== 'string')
        errors.push(fieldError(tagPath, `${rule.discriminator} must be a string, got ${typeOf(tag)}`, { enum: allowed }));
    else
        errors.push(fieldError(tagPath, `${rule.discriminator} must be one of: ${allowed.join(', ')}`, { enum: allowed }));
}
function validateGroup(group, value, path, errors) {
    const complete = group.groups.filter((g) => g.every((key) => isPresent(value[key])));
    const alternatives = group.groups.map((g) => g.join(' + ')).join(' or ');
    const hint = group.hint ? ` (${group.hint})` : '';
    if (complete.length === 0) {
        const first = group.groups[0] ?? [];
        const missingKey = first.find((key) => !isPresent(value[key])) ?? first[0] ?? '';
        errors.push(fieldError(`${path}.${missingKey}`, `${alternatives} is required${hint}`));
    }
    else if (group.exclusive && complete.length > 1) {
        for (const extra of complete.slice(1))
            errors.push(fieldError(`${path}.${extra[0] ?? ''}`, `only one of ${alternatives} may be provided${hint}`));
    }
}
function missing(rule, path) {
    const message = `${leaf(path)} is required`;
    return rule.kind === 'string' && rule.enum
        ? fieldError(path, message, { enum: [...rule.enum] })
        : fieldError(path, message);
}
function formatConstraint(rule) {
    const constraint = {};
    if (rule.format !== undefined)
        constraint.format = rule.format;
    if (rule.pattern !== undefined)
        constraint.pattern = rule.pattern;
    return constraint;
}
/** A formatted field names its format in every constraint, whichever rule broke. */
function withFormat(rule) {
    return rule.format !== undefined ? { format: rule.format } : {};
}
function leaf(path) {
    const dot = path.lastIndexOf('.');
    return dot === -1 ? path : path.slice(dot + 1);
}
function typeOf(value) {
    if (value === null)
        return 'null';
    if (Array.isArray(value))
        return 'array';
    return typeof value;
}
//# sourceMappingURL=validate.js.map