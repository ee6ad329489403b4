import * as crypto from 'node:crypto';
import {
  decryptSecret,
  encryptSecret,
  generateWebhookKeyPair,
  signGridBody,
} from '../../../src/outbox/signing/grid-signature.js';
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

describe('encryptSecret / decryptSecret', () => {
  const key = crypto.randomBytes(32);

  it('round-trips, with a fresh IV each time', () => {
    const plaintext = generateWebhookKeyPair().privateKeyPem;
    const a = encryptSecret(plaintext, key);
    const b = encryptSecret(plaintext, key);
    expect(a).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(decryptSecret(a, key)).toBe(plaintext);
    expect(decryptSecret(b, key)).toBe(plaintext);
  });

  it('round-trips an empty string', () => {
    expect(decryptSecret(encryptSecret('', key), key)).toBe('');
  });

  it('throws on tampered ciphertext, tag or IV', () => {
    const [v, iv, tag, ct] = encryptSecret('whsec_abc', key).split('.');
    const flip = (b64: string) => {
      const buf = Buffer.from(b64, 'base64');
      buf[0] ^= 1;
      return buf.toString('base64');
    };
    expect(() => decryptSecret([v, iv, tag, flip(ct)].join('.'), key)).toThrow();
    expect(() => decryptSecret([v, iv, flip(tag), ct].join('.'), key)).toThrow();
    expect(() => decryptSecret([v, flip(iv), tag, ct].join('.'), key)).toThrow();
  });

  it('throws with the wrong key, a malformed value or a bad key length', () => {
    const encrypted = encryptSecret('whsec_abc', key);
    expect(() => decryptSecret(encrypted, crypto.randomBytes(32))).toThrow();
    expect(() => decryptSecret('v2' + encrypted.slice(2), key)).toThrow();
    expect(() => decryptSecret('not-encrypted', key)).toThrow();
    expect(() => encryptSecret('x', crypto.randomBytes(16))).toThrow('32 bytes');
  });
});
