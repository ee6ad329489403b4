import * as crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';

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

/**
 * Both signatures of one received webhook, as a receiver checks them: X-Grid-Signature with the
 * reference's Node code and the platform's public key, and the Standard Webhooks headers with the
 * `standardwebhooks` library and the platform's `whsec_` secret (which also checks the timestamp).
 */
export function verifyWebhook(
  received: { rawBody: string; headers: Record<string, string | string[] | undefined> },
  keys: { webhookPublicKey: string; webhookSecret: string },
): { gridSignature: boolean; standardWebhooks: boolean } {
  const gridSignature = referenceNodeVerify(
    String(received.headers['x-grid-signature']),
    received.rawBody,
    keys.webhookPublicKey,
  );
  let standardWebhooks = true;
  try {
    new Webhook(keys.webhookSecret).verify(received.rawBody, received.headers as Record<string, string>);
  } catch {
    standardWebhooks = false;
  }
  return { gridSignature, standardWebhooks };
}
