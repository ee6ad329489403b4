/**
 * A tiny declarative field-spec language for the accountInfo variants.
 *
 * A spec is plain data (plus an optional semantic `check`): the validator in `validate.ts`
 * walks it, and the same spec drives response rendering (which members exist) and docs.
 * Every field is optional unless wrapped in `required(...)`.
 */
/** An optional string member. */
export function text(opts = {}) {
    return {
        kind: 'string',
        required: false,
        ...opts,
        ...(opts.pattern !== undefined ? { regex: new RegExp(opts.pattern) } : {}),
    };
}
/** An optional string member restricted to the given values. */
export function oneOf(values) {
    return text({ enum: values });
}
/** The same rule, marked required. */
export function required(rule) {
    return { ...rule, required: true };
}
/** A nested object (optional unless wrapped in `required`). Unknown members are rejected. */
export function object(fields, groups = []) {
    return { kind: 'object', required: false, fields, groups };
}
/** A discriminated object: `variants` keyed by the discriminator value. */
export function union(discriminator, variants) {
    return { kind: 'union', required: false, discriminator, variants };
}
/** At least one of the groups must be fully present (e.g. bank-transfer or mobile-money fields). */
export function anyOf(groups, hint) {
    return { groups, exclusive: false, ...(hint !== undefined ? { hint } : {}) };
}
/** Exactly one of the groups must be present. */
export function exactlyOne(groups, hint) {
    return { groups, exclusive: true, ...(hint !== undefined ? { hint } : {}) };
}
//# sourceMappingURL=dsl.js.map