import { ambientNow } from '../../common/clock.js';
import { object, required, text } from './dsl.js';
import { ISO_COUNTRIES } from './reference-data.js';
/**
 * Shared field building blocks. Lengths and patterns come from the reference schemas; where the
 * reference gives none (beneficiary details, address lines), the choice is noted next to it.
 */
/** `^[0-9]{n}$` or `^[0-9]{min,max}$` with matching length bounds. */
export function digits(min, max = min) {
    const count = min === max ? `${min}` : `${min},${max}`;
    return text({ minLength: min, maxLength: max, pattern: `^[0-9]{${count}}$` });
}
/** A fixed-length IBAN of one country (pattern from the reference). No mod-97 check: one of the
 *  reference's own examples (DKK `DK5000400040116243`) fails it. */
export function iban(pattern, length) {
    return text({ minLength: length, maxLength: length, pattern, format: 'iban' });
}
/** Any-country IBAN (EUR, SWIFT). */
export const IBAN_ANY = text({
    minLength: 15,
    maxLength: 34,
    pattern: '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{11,30}$',
    format: 'iban',
});
export const SWIFT_CODE = text({
    minLength: 8,
    maxLength: 11,
    pattern: '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$',
    format: 'swift-bic',
});
export const ACCOUNT_NUMBER = text({ minLength: 1, maxLength: 34 });
export const BANK_NAME = text({ minLength: 1, maxLength: 255 });
export const BANK_ACCOUNT_TYPE = text({ enum: ['CHECKING', 'SAVINGS'] });
export const PROVIDER = text({ minLength: 1, maxLength: 255 });
/** INR / PHP `rail`: free text in the reference ("NEFT or RTGS", "INSTAPAY or PESONET"). */
export const RAIL_NAME = text({ minLength: 1, maxLength: 32 });
/** International phone number of an account (mobile money); `pattern` may pin the country. */
export function phone(pattern = '^\\+[0-9]{6,14}$') {
    return text({ minLength: 7, maxLength: 15, pattern, format: 'phone' });
}
export const PHONE_INTL = phone();
/** ISO 3166-1 alpha-2 country, checked against the real code list. */
export const COUNTRY = text({
    minLength: 2,
    maxLength: 2,
    pattern: '^[A-Z]{2}$',
    format: 'iso3166-1-alpha-2',
    check: (v) => (ISO_COUNTRIES.has(v) ? undefined : 'is not an assigned ISO 3166-1 alpha-2 code'),
});
/** Calendar date `YYYY-MM-DD` that exists (no 2023-02-30). */
export const DATE = text({
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    format: 'date',
    check: (v) => (isCalendarDate(v) ? undefined : 'is not a real calendar date'),
});
/** A birth date: a real date, not after today (UTC, one day of slack for time zones). */
export const BIRTH_DATE = {
    ...DATE,
    check: (v) => {
        if (!isCalendarDate(v))
            return 'is not a real calendar date';
        const tomorrow = new Date(ambientNow().getTime() + 86_400_000).toISOString().slice(0, 10);
        if (v > tomorrow)
            return 'must not be in the future';
        return v < '1900-01-01' ? 'must not be before 1900-01-01' : undefined;
    },
};
/** Reference: maxLength 320, no pattern. Chosen: a plain `local@domain.tld` shape. */
export const EMAIL = text({
    maxLength: 320,
    pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
    format: 'email',
});
/** Beneficiary contact phone. Reference: maxLength 50, no pattern. Chosen: digits with the usual
 *  separators and an optional leading `+`. */
export const CONTACT_PHONE = text({
    minLength: 4,
    maxLength: 50,
    pattern: '^\\+?[0-9][0-9 ().-]*$',
    format: 'phone',
});
/** Free text name (legal or full name): reference maxLength 250; must not be blank. */
export const NAME = text({ minLength: 1, maxLength: 250 });
export const IDENTIFIER_100 = text({ minLength: 1, maxLength: 100 });
/** Address (reference: line1, postalCode, country required; no lengths given, these are ours). */
export const ADDRESS = object({
    line1: required(text({ minLength: 1, maxLength: 255 })),
    line2: text({ maxLength: 255 }),
    city: text({ minLength: 1, maxLength: 100 }),
    state: text({ minLength: 1, maxLength: 100 }),
    postalCode: required(text({ minLength: 1, maxLength: 20 })),
    country: required(COUNTRY),
});
/** `accountInfo.platformAccountId` (the spec's USD example carries it; Limits: max 255). */
export const PLATFORM_ACCOUNT_ID = text({ minLength: 1, maxLength: 255 });
export function isCalendarDate(v) {
    const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(v);
    if (!m)
        return false;
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
//# sourceMappingURL=field-rules.js.map