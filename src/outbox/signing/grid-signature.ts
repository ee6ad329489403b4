import { createSign, generateKeyPairSync, KeyObject } from 'node:crypto';

/**
 * `X-Grid-Signature`: ECDSA P-256 over SHA-256 of the exact raw body, DER-encoded, base64.
 * Receivers verify with `crypto.createVerify('SHA256')` + the SPKI PEM public key
 * (see shared/reference/grid-webhook-signatures.mdx).
 */
export interface WebhookKeyPair {
  /** SPKI PEM: handed to receivers. */
  publicKeyPem: string;
  /** PKCS8 PEM: keep secret (stored sealed by `SecretBox`, src/secrets/). */
  privateKeyPem: string;
}

export function generateWebhookKeyPair(): WebhookKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

/** The `X-Grid-Signature` header value: base64 of the DER ECDSA signature of the raw body bytes. */
export function signGridBody(rawBody: string | Buffer, privateKey: string | KeyObject): string {
  const signer = createSign('SHA256');
  signer.update(rawBody); // strings are hashed as their UTF-8 bytes, as the receiver does
  signer.end();
  return signer.sign(privateKey, 'base64'); // DER is Node's default ECDSA encoding
}
