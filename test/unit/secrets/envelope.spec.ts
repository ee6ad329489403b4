import { createHash, randomBytes } from 'node:crypto';
import { deriveKeyId, open, seal, sealedBy, sealingKey } from '../../../src/secrets/envelope.js';
import { KeyRing } from '../../../src/secrets/key-ring.js';
import { SecretBox } from '../../../src/secrets/secret-box.js';
import { sealAsV1 } from '../../support/legacy-seal.js';

const flip = (b64: string) => {
  const buf = Buffer.from(b64, 'base64');
  buf[0] ^= 1;
  return buf.toString('base64');
};

describe('sealed values (src/secrets/envelope.ts)', () => {
  const key = sealingKey(randomBytes(32));
  const other = sealingKey(randomBytes(32));

  it('round-trips, with a fresh IV each time', () => {
    const plaintext = 'whsec_abc ✓';
    const a = seal(plaintext, key);
    const b = seal(plaintext, key);
    expect(a).not.toBe(b);
    expect(open(a, [key])).toBe(plaintext);
    expect(open(b, [key])).toBe(plaintext);
    expect(open(seal('', key), [key])).toBe('');
  });

  it('records the id of the key that sealed it: v2.<kid>.<iv>.<tag>.<ciphertext>', () => {
    const sealed = seal('x', key);
    expect(sealed).toMatch(/^v2\.[0-9a-f]{8}\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    expect(sealed.split('.')[1]).toBe(key.id);
    expect(sealedBy(sealed)).toBe(key.id);
    expect(sealedBy(seal('x', sealingKey(key.key, 'k2026-01')))).toBe('k2026-01');
  });

  it('derives the key id from the key: the first 8 hex digits of its SHA-256', () => {
    const bytes = Buffer.alloc(32, 7);
    expect(deriveKeyId(bytes)).toBe(createHash('sha256').update(bytes).digest('hex').slice(0, 8));
    expect(sealingKey(bytes).id).toBe(deriveKeyId(bytes));
    expect(deriveKeyId(randomBytes(32))).not.toBe(deriveKeyId(bytes));
  });

  it('opens with the key its id names, among several', () => {
    const sealed = seal('secret', other);
    expect(open(sealed, [key, other])).toBe('secret');
    expect(() => open(sealed, [key])).toThrow(`names key ${other.id}, which is not configured`);
  });

  it('detects tampering: ciphertext, tag, IV, and the key id (authenticated)', () => {
    const [v, kid, iv, tag, ct] = seal('whsec_abc', key).split('.');
    expect(() => open([v, kid, iv, tag, flip(ct)].join('.'), [key])).toThrow('tampered');
    expect(() => open([v, kid, iv, flip(tag), ct].join('.'), [key])).toThrow('tampered');
    expect(() => open([v, kid, flip(iv), tag, ct].join('.'), [key])).toThrow('tampered');
    // The same key under another id: the id is part of what the tag authenticates.
    const renamed = sealingKey(key.key, 'renamed');
    expect(() => open([v, 'renamed', iv, tag, ct].join('.'), [renamed])).toThrow('tampered');
    // Another key under the right id.
    expect(() => open([v, kid, iv, tag, ct].join('.'), [sealingKey(other.key, key.id)])).toThrow('tampered');
  });

  it('refuses what is not an envelope, and bad keys or ids', () => {
    expect(() => open('not-sealed', [key])).toThrow('unsupported sealed value format');
    expect(() => open('v3.a.b.c.d', [key])).toThrow('unsupported');
    expect(() => open('v2.bad.id.x.y.z', [key])).toThrow('unsupported');
    expect(() => open('v2.abcd1234.AAAA.AAAA.AAAA', [key])).toThrow('malformed');
    expect(() => sealedBy('v1.x')).toThrow('unsupported');
    expect(() => sealingKey(randomBytes(16))).toThrow('32 bytes');
    expect(() => sealingKey(randomBytes(32), 'a.b')).toThrow('key id');
    expect(() => new KeyRing([])).toThrow('at least one key');
    expect(() => new KeyRing([key, sealingKey(other.key, key.id)])).toThrow('key ids must differ');
  });

  describe('values sealed before key ids (v1.<iv>.<tag>.<ciphertext>)', () => {
    it('open with the key that sealed them, and record no key id', () => {
      const old = sealAsV1('whsec_old', key.key);
      expect(sealedBy(old)).toBeNull();
      expect(open(old, [key])).toBe('whsec_old');
      expect(open(old, [other, key])).toBe('whsec_old'); // each key is tried
      expect(() => open(old, [other])).toThrow('does not open with any key');
    });

    it('a value an earlier version stored (fixed vector) still opens', () => {
      // Sealed by the code before key ids under the tests' key (32 bytes of 7), IV of 1s.
      const stored = 'v1.AQEBAQEBAQEBAQEB.4cMFHLcsxvpaQfzPnZ4F/w==.AYn60vPgn2uwuLlFXVUJHMmVOZF55Vd6PUNuFAPGRdKt3A==';
      expect(open(stored, [sealingKey(Buffer.alloc(32, 7))])).toBe('whsec_sealed-by-an-earlier-version');
    });

    it('detect tampering', () => {
      const [v, iv, tag, ct] = sealAsV1('whsec_abc', key.key).split('.');
      expect(() => open([v, iv, tag, flip(ct)].join('.'), [key])).toThrow();
      expect(() => open([v, iv, flip(tag), ct].join('.'), [key])).toThrow();
      expect(() => open([v, flip(iv), tag, ct].join('.'), [key])).toThrow();
    });
  });

  it('SecretBox seals under the ring’s current key and opens what any of its keys sealed', () => {
    const box = new SecretBox(new KeyRing([key, other]));
    const sealed = box.seal('whsec_new');
    expect(box.sealedBy(sealed)).toBe(key.id);
    expect(box.currentKeyId).toBe(key.id);
    expect(box.open(sealed)).toBe('whsec_new');
    expect(box.open(seal('by the other', other))).toBe('by the other');
    expect(box.open(sealAsV1('old', other.key))).toBe('old');
  });
});
