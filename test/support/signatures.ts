import * as crypto from 'node:crypto';

/**
 * The receiver side of X-Grid-Signature exactly as the reference's Node example does it
 * (grid-webhook-signatures.mdx): JSON `{v, s}` or plain base64, `createVerify('SHA256')` over the
 * raw body, the PEM SPKI public key.
 */
export function referenceNodeVerify(signatureHeader: string, payload: string, publicKeyPem: string): boolean {
  let signature: Buffer;
  try {
    const signatureObj = JSON.parse(signatureHeader) as { v?: string; s?: string };
    if (signatureObj.v && signatureObj.s) {
      signature = Buffer.from(signatureObj.s, 'base64');
    } else {
      throw new Error('Invalid JSON signature format');
    }
  } catch {
    signature = Buffer.from(signatureHeader, 'base64');
  }
  const verifier = crypto.createVerify('SHA256');
  verifier.update(payload);
  verifier.end();
  return verifier.verify({ key: publicKeyPem, format: 'pem', type: 'spki' }, signature);
}
