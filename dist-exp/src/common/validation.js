import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsObject, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested, } from 'class-validator';
import { idPattern } from './ids.js';
/**
 * Composite decorators: one place for each repeated rule. Each puts the broken rule in the
 * validator `context`, which becomes the FieldError `constraint` (enum, pattern, min/maxLength).
 */
export const MAX_SAFE_MINOR_UNITS = 9007199254740991;
export function StringField(opts = {}) {
    const decorators = [IsString({ message: '$property must be a string' })];
    if (opts.minLength !== undefined)
        decorators.push(MinLength(opts.minLength, {
            context: { minLength: opts.minLength },
            message: `$property must be at least ${opts.minLength} characters`,
        }));
    if (opts.maxLength !== undefined)
        decorators.push(MaxLength(opts.maxLength, {
            context: { maxLength: opts.maxLength },
            message: `$property must be at most ${opts.maxLength} characters`,
        }));
    if (opts.pattern)
        decorators.push(Matches(opts.pattern, {
            context: { pattern: opts.pattern.source, ...(opts.format ? { format: opts.format } : {}) },
            message: opts.format
                ? `$property must be a valid ${opts.format}`
                : `$property must match ${opts.pattern.source}`,
        }));
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), ...decorators, doc(opts.required ?? true, {
        type: String,
        description: opts.description,
        example: opts.example,
        minLength: opts.minLength,
        maxLength: opts.maxLength,
        pattern: opts.pattern?.source,
        format: opts.format,
        nullable: opts.nullable,
    }));
}
export function EnumField(values, opts = {}) {
    const list = [...values];
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), IsIn(list, {
        each: opts.each,
        context: { enum: list },
        message: `$property must be one of: ${list.join(', ')}`,
    }), doc(opts.required ?? true, {
        enum: list,
        isArray: opts.each,
        description: opts.description,
        nullable: opts.nullable,
    }));
}
export function IntField(opts) {
    const decorators = [
        IsInt({ message: '$property must be an integer' }),
        Min(opts.min, { message: `$property must be at least ${opts.min}` }),
        Max(opts.max, { message: `$property must be at most ${opts.max}` }),
    ];
    if (opts.fromQuery)
        decorators.unshift(Type(() => Number));
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), ...decorators, doc(opts.required ?? true, {
        type: Number,
        minimum: opts.min,
        maximum: opts.max,
        description: opts.description,
        nullable: opts.nullable,
    }));
}
/** A `<Type>:<uuid>` identifier. */
export function IdField(type, opts = {}) {
    const pattern = idPattern(type);
    return applyDecorators(...presence(opts.required ?? true, false), IsString({ message: '$property must be a string' }), Matches(new RegExp(pattern), {
        context: { pattern },
        message: `$property must be a ${type} id (${type}:<uuid>)`,
    }), doc(opts.required ?? true, {
        type: String,
        pattern,
        description: opts.description,
        example: `${type}:019542f5-b3e7-1d02-0000-000000000001`,
    }));
}
/**
 * Optional fields may be omitted; `nullable` fields may also be null (meaning "clear").
 * Required fields must be present and not null.
 */
export function presence(required, nullable) {
    if (!required && nullable)
        return [ValidateIf((_o, v) => v !== undefined && v !== null)];
    if (!required)
        return [ValidateIf((_o, v) => v !== undefined)];
    if (nullable)
        return [ValidateIf((_o, v) => v !== null)];
    return [IsDefined({ message: '$property is required' })];
}
function doc(required, options) {
    const clean = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    return required ? ApiProperty(clean) : ApiPropertyOptional(clean);
}
export function BoolField(opts = {}) {
    return applyDecorators(...presence(opts.required ?? true, false), IsBoolean({ message: '$property must be a boolean' }), doc(opts.required ?? true, { type: Boolean, description: opts.description }));
}
/** A nested object (or array of them, with `each`) validated field by field; paths become `parent.child`. */
export function NestedField(type, opts = {}) {
    const decorators = [
        ValidateNested({ each: opts.each, message: '$property must be an object' }),
        Type(type),
    ];
    // IsObject each: ValidateNested alone lets an array element that is itself an array (`[[]]`) through.
    if (opts.each)
        decorators.unshift(IsArray({ message: '$property must be an array' }), IsObject({ each: true, message: 'each element of $property must be an object' }));
    else
        decorators.unshift(IsObject({ message: '$property must be an object' }));
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), ...decorators, doc(opts.required ?? true, {
        type: type(),
        isArray: opts.each,
        description: opts.description,
        nullable: opts.nullable,
    }));
}
//# sourceMappingURL=validation.js.map