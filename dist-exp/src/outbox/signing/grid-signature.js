import { createCipheriv, createDecipheriv, createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
export function generateWebhookKeyPair() {
    const { publicKey, privateKey } = generateKeyPairSync('ec', {
        namedCurve: 'prime256v1',
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}
/** The `X-Grid-Signature` header value: base64 of the DER ECDSA signature of the raw body bytes. */
export function signGridBody(rawBody, privateKey) {
    const signer = createSign('SHA256');
    signer.update(rawBody); // strings are hashed as their UTF-8 bytes, as the receiver does
    signer.end();
    return signer.sign(privateKey, 'base64'); // DER is Node's default ECDSA encoding
}
// --- At-rest encryption of secrets (private keys, whsec_ secrets): AES-256-GCM ---
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
function checkKey(key) {
    if (key.length !== 32)
        throw new Error('secret encryption key must be 32 bytes');
}
/** Returns `v1.<iv b64>.<tag b64>.<ciphertext b64>`, with a fresh random IV each call. */
export function encryptSecret(plaintext, key) {
    checkKey(key);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64'), tag.toString('base64'), ct.toString('base64')].join('.');
}
/** Inverse of `encryptSecret`; throws on a malformed, tampered or wrong-key input. */
export function decryptSecret(ciphertext, key) {
    checkKey(key);
    const parts = ciphertext.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION)
        throw new Error('unsupported encrypted secret format');
    const [iv, tag, ct] = parts.slice(1).map((p) => Buffer.from(p, 'base64'));
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
        throw new Error('malformed encrypted secret');
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8'); // final() throws if tampered
}
//# sourceMappingURL=grid-signature.js.map