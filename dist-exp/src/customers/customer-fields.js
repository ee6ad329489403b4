import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsIP, IsISO8601, IsString, Matches, ValidateBy, ValidateIf, } from 'class-validator';
import { ambientNow } from '../common/clock.js';
import { presence, StringField } from '../common/validation.js';
import { isCalendarDate } from '../external-accounts/variants/field-rules.js';
import { ISO_COUNTRIES } from '../external-accounts/variants/reference-data.js';
const COUNTRY_LIST = [...ISO_COUNTRIES].sort();
const COUNTRY_FORMAT = 'iso3166-1-alpha-2';
function doc(opts, schema) {
    const clean = Object.fromEntries(Object.entries({ ...schema, description: opts.description, example: opts.example, nullable: opts.nullable }).filter(([, v]) => v !== undefined));
    return (opts.required ?? true) ? ApiProperty(clean) : ApiPropertyOptional(clean);
}
const notBlank = () => ValidateBy({ name: 'notBlank', validator: { validate: (v) => typeof v !== 'string' || v.trim().length > 0 } }, { message: '$property must not be blank' });
/** A free-text string: 1..max characters, not blank; optional pattern/format. */
export function Text(opts) {
    return applyDecorators(StringField({
        required: opts.required ?? true,
        nullable: opts.nullable,
        minLength: 1,
        maxLength: opts.max,
        pattern: opts.pattern,
        format: opts.format,
        description: opts.description,
        example: typeof opts.example === 'string' ? opts.example : undefined,
    }), ...(opts.allowBlank ? [] : [notBlank()]));
}
/** ISO 3166-1 alpha-2 country code, checked against the assigned codes. */
export function CountryField(opts = {}) {
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), IsString({ message: '$property must be a string' }), IsIn(COUNTRY_LIST, {
        context: { format: COUNTRY_FORMAT },
        message: '$property must be an ISO 3166-1 alpha-2 country code (e.g. US)',
    }), doc(opts, { type: String, format: COUNTRY_FORMAT, pattern: '^[A-Z]{2}$', example: opts.example ?? 'US' }));
}
/** An array of ISO 3166-1 alpha-2 country codes. */
export function CountryListField(opts = {}) {
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), IsArray({ message: '$property must be an array' }), ArrayMaxSize(COUNTRY_LIST.length, { message: `$property must list at most ${COUNTRY_LIST.length} countries` }), IsIn(COUNTRY_LIST, {
        each: true,
        context: { format: COUNTRY_FORMAT },
        message: '$property must contain only ISO 3166-1 alpha-2 country codes',
    }), doc(opts, { type: String, isArray: true, format: COUNTRY_FORMAT, example: ['US'] }));
}
/** An array of values from an enumeration (each at most once is not enforced; order kept). */
export function EnumListField(values, opts = {}) {
    const list = [...values];
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), IsArray({ message: '$property must be an array' }), ArrayMaxSize(list.length, { message: `$property must list at most ${list.length} values` }), IsIn(list, { each: true, context: { enum: list }, message: `$property must contain only: ${list.join(', ')}` }), doc(opts, { enum: list, isArray: true }));
}
/** ISO 4217 currency codes (at least one, at most 50, no repeats). */
export function CurrencyListField(opts = {}) {
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), IsArray({ message: '$property must be an array' }), ArrayMinSize(1, { message: '$property must list at least one currency' }), ArrayMaxSize(50, { message: '$property must list at most 50 currencies' }), Matches(/^[A-Z]{3}$/, {
        each: true,
        context: { format: 'iso4217', pattern: '^[A-Z]{3}$' },
        message: '$property must contain only ISO 4217 currency codes (e.g. USD)',
    }), ValidateBy({
        name: 'noRepeats',
        validator: { validate: (v) => !Array.isArray(v) || new Set(v).size === v.length },
    }, { message: '$property must not list a currency twice' }), doc(opts, { type: String, isArray: true, format: 'iso4217', example: ['USD'] }));
}
/**
 * A calendar date `YYYY-MM-DD` that exists; `notFuture` also refuses dates after today (UTC, one
 * day of slack for time zones) and before 1900.
 */
export function DateField(opts = {}) {
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), IsString({ message: '$property must be a string' }), ValidateBy({
        name: 'calendarDate',
        validator: {
            validate: (v) => typeof v === 'string' && isCalendarDate(v),
        },
    }, { context: { format: 'date' }, message: '$property must be a real calendar date YYYY-MM-DD' }), ...(opts.notFuture
        ? [
            ValidateBy({
                name: 'pastDate',
                validator: {
                    validate: (v) => {
                        if (typeof v !== 'string' || !isCalendarDate(v))
                            return true;
                        const tomorrow = new Date(ambientNow().getTime() + 86_400_000).toISOString().slice(0, 10);
                        return v <= tomorrow && v >= '1900-01-01';
                    },
                },
            }, { context: { format: 'date' }, message: '$property must not be in the future or before 1900-01-01' }),
        ]
        : []), doc(opts, { type: String, format: 'date', example: opts.example ?? '1990-01-15' }));
}
/** An ISO 8601 date-time with a time zone. */
export function DateTimeField(opts = {}) {
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), IsString({ message: '$property must be a string' }), IsISO8601({ strict: true }, { context: { format: 'date-time' }, message: '$property must be an ISO 8601 date-time' }), doc(opts, { type: String, format: 'date-time' }));
}
export function IpAddressField(opts = {}) {
    return applyDecorators(...presence(opts.required ?? true, opts.nullable ?? false), IsString({ message: '$property must be a string' }), IsIP(undefined, { context: { format: 'ip', maxLength: 45 }, message: '$property must be an IPv4 or IPv6 address' }), doc(opts, { type: String, format: 'ip', maxLength: 45, example: '198.51.100.24' }));
}
/** A member the reference lists on the resource but that a client may not set. */
export function ReadOnlyField(hint) {
    return applyDecorators(ValidateIf((_o, v) => v !== undefined), ValidateBy({ name: 'readOnly', validator: { validate: () => false } }, { message: `$property is read-only: ${hint}` }));
}
/** A boolean query parameter: `true` or `false`. */
export function BoolQuery(description) {
    return applyDecorators(Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)), ...presence(false, false), IsBoolean({ message: '$property must be true or false' }), ApiPropertyOptional({ type: Boolean, description }));
}
//# sourceMappingURL=customer-fields.js.map