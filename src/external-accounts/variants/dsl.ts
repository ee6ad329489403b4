/**
 * A tiny declarative field-spec language for the accountInfo variants.
 *
 * A spec is plain data (plus an optional semantic `check`): the validator in `validate.ts`
 * walks it, and the same spec drives response rendering (which members exist) and docs.
 * Every field is optional unless wrapped in `required(...)`.
 */

/** Rules for one string member. Constraint names mirror the spec's FieldConstraint. */
export interface StringRule {
  readonly kind: 'string';
  readonly required: boolean;
  readonly enum?: readonly string[];
  readonly minLength?: number;
  readonly maxLength?: number;
  /** ECMAScript regex source, reported as-is in `constraint.pattern`. */
  readonly pattern?: string;
  /** Named format (date, iban, email, ...), reported in `constraint.format`. */
  readonly format?: string;
  /** Semantic check run after the syntactic ones; returns a message when the value is bad. */
  readonly check?: (value: string) => string | undefined;
  /** Compiled `pattern` (kept next to its source so it is compiled once). */
  readonly regex?: RegExp;
}

/** "At least one (or exactly one) of these groups must be fully present". */
export interface GroupRule {
  readonly groups: readonly (readonly string[])[];
  readonly exclusive: boolean;
  /** Human explanation appended to the message, e.g. which rail needs which group. */
  readonly hint?: string;
}

export interface ObjectRule {
  readonly kind: 'object';
  readonly required: boolean;
  readonly fields: Readonly<Record<string, FieldRule>>;
  readonly groups: readonly GroupRule[];
}

/** An object whose shape is chosen by the string value of its `discriminator` member. */
export interface UnionRule {
  readonly kind: 'union';
  readonly required: boolean;
  readonly discriminator: string;
  readonly variants: Readonly<Record<string, ObjectRule>>;
}

export type FieldRule = StringRule | ObjectRule | UnionRule;
export type Fields = Readonly<Record<string, FieldRule>>;

export interface StringOptions {
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  check?: (value: string) => string | undefined;
}

/** An optional string member. */
export function text(opts: StringOptions = {}): StringRule {
  return {
    kind: 'string',
    required: false,
    ...opts,
    ...(opts.pattern !== undefined ? { regex: new RegExp(opts.pattern) } : {}),
  };
}

/** An optional string member restricted to the given values. */
export function oneOf(values: readonly string[]): StringRule {
  return text({ enum: values });
}

/** The same rule, marked required. */
export function required<R extends FieldRule>(rule: R): R {
  return { ...rule, required: true };
}

/** A nested object (optional unless wrapped in `required`). Unknown members are rejected. */
export function object(fields: Fields, groups: readonly GroupRule[] = []): ObjectRule {
  return { kind: 'object', required: false, fields, groups };
}

/** A discriminated object: `variants` keyed by the discriminator value. */
export function union(discriminator: string, variants: Record<string, ObjectRule>): UnionRule {
  return { kind: 'union', required: false, discriminator, variants };
}

/** At least one of the groups must be fully present (e.g. bank-transfer or mobile-money fields). */
export function anyOf(groups: readonly (readonly string[])[], hint?: string): GroupRule {
  return { groups, exclusive: false, ...(hint !== undefined ? { hint } : {}) };
}

/** Exactly one of the groups must be present. */
export function exactlyOne(groups: readonly (readonly string[])[], hint?: string): GroupRule {
  return { groups, exclusive: true, ...(hint !== undefined ? { hint } : {}) };
}
