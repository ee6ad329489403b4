import { variantFor } from './registry.js';
/**
 * A valid create `accountInfo` for each type (used by e2e tests to create one account of each of
 * the 49 types). `seed` > 0 varies every identifying member (keeping it valid: IBAN check digits
 * are recomputed), so several accounts of one type do not collide as duplicates.
 */
export function exampleAccountInfo(accountType, seed = 0) {
    const variant = variantFor(accountType);
    if (!variant)
        throw new Error(`unknown accountType ${accountType}`);
    const example = structuredClone(variant.example);
    if (seed > 0)
        for (const [member, kind] of Object.entries(variant.identity)) {
            const value = example[member];
            if (typeof value === 'string')
                example[member] = vary(kind, value, seed);
        }
    return example;
}
/** The currency to create `exampleAccountInfo(accountType)` in. */
export function exampleCurrency(accountType) {
    const variant = variantFor(accountType);
    if (!variant)
        throw new Error(`unknown accountType ${accountType}`);
    return variant.exampleCurrency;
}
const BECH32_DIGITS = 'qpzry9x8gf'; // bech32 has no '1', 'b', 'i', 'o'
const BASE58_DIGITS = '123456789a'; // base58 has no '0'
function vary(kind, value, seed) {
    const tag = String(seed % 1_000_000).padStart(6, '0');
    switch (kind) {
        case 'digits':
        case 'alnum':
        case 'phone':
            return replaceTail(value, tag);
        case 'iban':
            return withIbanCheckDigits(replaceTail(value, tag));
        case 'pix':
        case 'lower':
            if (value.includes('@'))
                return value.replace('@', `.${tag}@`);
            if (value.startsWith('0x'))
                return replaceTail(value, tag);
            return replaceTail(value, mapDigits(tag, BECH32_DIGITS));
        case 'exact':
            return replaceTail(value, mapDigits(tag, BASE58_DIGITS));
        case 'bic':
        case 'text':
            return value; // bank / BIC / provider names are shared by many accounts
    }
}
/** Replaces the last characters (at most all but one) with `tail`. */
function replaceTail(value, tail) {
    const n = Math.min(tail.length, value.length - 1);
    return value.slice(0, value.length - n) + tail.slice(tail.length - n);
}
function mapDigits(digits, alphabet) {
    return [...digits].map((d) => alphabet[Number(d)] ?? d).join('');
}
/** Recomputes ISO 13616 mod-97 check digits (positions 3-4). */
function withIbanCheckDigits(iban) {
    const rearranged = iban.slice(4) + iban.slice(0, 2) + '00';
    let remainder = 0;
    for (const ch of rearranged) {
        const code = Number.parseInt(ch, 36);
        for (const digit of String(code))
            remainder = (remainder * 10 + Number(digit)) % 97;
    }
    return iban.slice(0, 2) + String(98 - remainder).padStart(2, '0') + iban.slice(4);
}
//# sourceMappingURL=examples.js.map