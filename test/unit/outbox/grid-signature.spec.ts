import * as crypto from 'node:crypto';
import { generateWebhookKeyPair, signGridBody } from '../../../src/outbox/signing/grid-signature.js';
import { referenceNodeVerify } from '../../support/signatures.js';

describe('X-Grid-Signature', () => {
  const { publicKeyPem, privateKeyPem } = generateWebhookKeyPair();
  const body = JSON.stringify({
    id: 'Webhook:019542f5-b3e7-1d02-0000-000000000007',
    type: 'TEST',
    timestamp: '2025-08-15T14:32:00Z',
    data: { note: 'café ✓' }, // non-ASCII: hashed as UTF-8 on both sides
  });

  it('generates a P-256 key pair as SPKI / PKCS8 PEM', () => {
    expect(publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const key = crypto.createPublicKey(publicKeyPem);
    expect(key.asymmetricKeyType).toBe('ec');
    expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });

  it('verifies with the reference receiver code', () => {
    const header = signGridBody(body, privateKeyPem);
    expect(referenceNodeVerify(header, body, publicKeyPem)).toBe(true);
  });

  it('verifies with createVerify(...).verify(publicKeyPem, signature, "base64")', () => {
    const header = signGridBody(body, privateKeyPem);
    const verifier = crypto.createVerify('SHA256');
    verifier.update(body);
    verifier.end();
    expect(verifier.verify(publicKeyPem, header, 'base64')).toBe(true);
  });

  it('is a plain base64 DER ECDSA signature (what the Python example checks)', () => {
    const signature = Buffer.from(signGridBody(body, privateKeyPem), 'base64');
    expect(signature[0]).toBe(0x30); // DER SEQUENCE
    const ok = crypto.verify('sha256', Buffer.from(body, 'utf8'), { key: publicKeyPem, dsaEncoding: 'der' }, signature);
    expect(ok).toBe(true);
  });

  it('signs a Buffer body the same way as its string', () => {
    const header = signGridBody(Buffer.from(body, 'utf8'), privateKeyPem);
    expect(referenceNodeVerify(header, body, publicKeyPem)).toBe(true);
  });

  it('fails on a changed body or another key', () => {
    const header = signGridBody(body, privateKeyPem);
    expect(referenceNodeVerify(header, body.replace('TEST', 'TEST '), publicKeyPem)).toBe(false);
    expect(referenceNodeVerify(header, body, generateWebhookKeyPair().publicKeyPem)).toBe(false);
  });
});
