import { canonicalAccountType, variantFor } from './registry.js';
const NORMALISERS = {
    digits: (v) => v.replace(/[^0-9]/g, ''),
    alnum: (v) => v.toUpperCase().replace(/[^A-Z0-9]/g, ''),
    iban: (v) => v.replace(/\s+/g, '').toUpperCase(),
    bic: (v) => {
        const bic = v.replace(/\s+/g, '').toUpperCase();
        return bic.length === 11 && bic.endsWith('XXX') ? bic.slice(0, 8) : bic;
    },
    text: (v) => v.trim().replace(/\s+/g, ' ').toLowerCase(),
    phone: (v) => (v.trim().startsWith('+') ? '+' : '') + v.replace(/[^0-9]/g, ''),
    lower: (v) => v.trim().toLowerCase(),
    exact: (v) => v.trim(),
    pix: (v) => {
        const key = v.trim();
        if (key.includes('@'))
            return key.toLowerCase();
        if (/^[+0-9 ().\-/]+$/.test(key))
            return (key.startsWith('+') ? '+' : '') + key.replace(/[^0-9]/g, '');
        return key.toLowerCase();
    },
};
export function normaliseIdentifier(kind, value) {
    return NORMALISERS[kind](value);
}
/**
 * Normalised identity of an account for duplicate detection: the canonical accountType plus its
 * identifying members after normalisation, e.g.
 * `USD_ACCOUNT|routingNumber=021000021|accountNumber=12345678901`. Inputs that denote the same
 * account give the same string (IBAN spacing/case, EVM checksum case, BIC with or without XXX,
 * LIGHTNING vs LIGHTNING_ACCOUNT). Non-identifying members (beneficiary, bankName of IBAN
 * accounts, platformAccountId, ...) are not part of it.
 */
export function accountIdentity(accountInfo) {
    const raw = accountInfo.accountType;
    const accountType = typeof raw === 'string' ? canonicalAccountType(raw) : String(raw);
    const variant = variantFor(accountType);
    if (!variant)
        return `${accountType}|${stableJson(accountInfo)}`;
    const parts = [];
    for (const [member, kind] of Object.entries(variant.identity)) {
        const value = accountInfo[member];
        if (typeof value !== 'string')
            continue;
        const normalised = NORMALISERS[kind](value);
        if (normalised !== '')
            parts.push(`${member}=${normalised}`);
    }
    return [accountType, ...parts].join('|');
}
function stableJson(value) {
    if (Array.isArray(value))
        return `[${value.map(stableJson).join(',')}]`;
    if (typeof value === 'object' && value !== null) {
        const entries = Object.entries(value)
            .filter(([key]) => key !== 'accountType')
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
}
//# sourceMappingURL=identity.js.map