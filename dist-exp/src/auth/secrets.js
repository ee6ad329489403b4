import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
/** 256-bit random secret, URL-safe. */
export function newSecret() {
    return randomBytes(32).toString('base64url');
}
/** Opaque client id: 128 random bits as hex (no colon, safe as an HTTP Basic username). */
export function newClientId() {
    return randomBytes(16).toString('hex');
}
/** A fast hash is enough for 256-bit random secrets (no dictionary to guess from). */
export function hashSecret(secret) {
    return createHash('sha256').update(secret, 'utf8').digest();
}
export function secretMatches(secret, hash) {
    const candidate = hashSecret(secret);
    return candidate.length === hash.length && timingSafeEqual(candidate, hash);
}
/**
 * Parses `Authorization: Basic base64(id:secret)`; null when malformed. A NUL anywhere in the
 * decoded credentials is malformed (401): it must never reach the database.
 */
export function parseBasic(header) {
    if (!header)
        return null;
    const match = /^Basic ([A-Za-z0-9+/=_-]+)$/i.exec(header.trim());
    if (!match)
        return null;
    const decoded = Buffer.from(match[1], 'base64').toString('utf8');
    if (decoded.includes('\u0000'))
        return null;
    const colon = decoded.indexOf(':');
    if (colon <= 0 || colon === decoded.length - 1)
        return null;
    return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
/** Parses `Authorization: Bearer <token>`; null when absent or malformed (no NUL, bounded length). */
export function parseBearer(header) {
    if (!header)
        return null;
    const match = /^Bearer ([\x21-\x7e]{1,512})$/i.exec(header.trim());
    return match ? match[1] : null;
}
//# sourceMappingURL=secrets.js.map