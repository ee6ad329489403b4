import { randomBytes, randomInt } from 'node:crypto';
import { hashSecret } from '../auth/secrets.js';
/**
 * Device codes and access tokens. Both are random, shown once, and stored only as SHA-256 hashes
 * (src/auth/secrets.ts), so a database read reveals neither.
 */
/** No 0/O, 1/I/L: a code read aloud or typed from a screen cannot be mistaken. */
export const DEVICE_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const DEVICE_CODE = new RegExp(`^GRID-AGENT-[${DEVICE_CODE_ALPHABET}]{4}-[${DEVICE_CODE_ALPHABET}]{4}$`);
/** `GRID-AGENT-X7K9-M2P4` (the reference's form): 8 characters of 31, about 40 bits. */
export function newDeviceCode() {
    const group = () => Array.from({ length: 4 }, () => DEVICE_CODE_ALPHABET[randomInt(DEVICE_CODE_ALPHABET.length)]).join('');
    return `GRID-AGENT-${group()}-${group()}`;
}
/** The code as typed (any case, surrounding blanks) in its canonical form, or null when it cannot be one. */
export function canonicalDeviceCode(input) {
    const code = input.trim().toUpperCase();
    return DEVICE_CODE.test(code) ? code : null;
}
export const hashDeviceCode = (canonical) => hashSecret(canonical);
const ACCESS_TOKEN = /^gat_[0-9a-f]{40}$/;
/** `gat_` + 40 random hex characters (160 bits), the reference's form. */
export function newAccessToken() {
    return `gat_${randomBytes(20).toString('hex')}`;
}
export const isAccessTokenFormat = (token) => ACCESS_TOKEN.test(token);
//# sourceMappingURL=agent-credentials.js.map