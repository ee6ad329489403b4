import { ConfigError, loadConfig } from '../../../src/config/app-config.js';
import { deriveKeyId, open, seal, sealingKey } from '../../../src/secrets/envelope.js';
import { keyConfigWarnings, loadKeyRing } from '../../../src/secrets/key-encryption-key.js';
import { parseKeyList } from '../../../src/secrets/key-list.js';
import { KeyRing } from '../../../src/secrets/key-ring.js';

const k1 = Buffer.alloc(32, 1);
const k2 = Buffer.alloc(32, 2);

describe('KEY_ENCRYPTION_KEYS', () => {
  it('parses id:key pairs, base64 or hex, in order: the first seals', () => {
    const keys = parseKeyList(`new:${k2.toString('hex')}, old:${k1.toString('base64')}`);
    expect(keys).toEqual([
      { id: 'new', key: k2 },
      { id: 'old', key: k1 },
    ]);
    const ring = loadKeyRing(
      loadConfig({ KEY_ENCRYPTION_KEYS: `new:${k2.toString('hex')},old:${k1.toString('base64')}` }),
    );
    expect(ring.current.id).toBe('new');
    expect(ring.keys.map((k) => k.id)).toEqual(['new', 'old']);
  });

  it('a key without an id goes by its derived id', () => {
    expect(parseKeyList(k1.toString('base64'))).toEqual([{ id: deriveKeyId(k1), key: k1 }]);
  });

  it('refuses bad length, bad encoding and duplicate ids, naming each, never echoing a key', () => {
    const short = Buffer.alloc(16, 3).toString('base64');
    const value = `a:${short},b:not*base64,a:${k1.toString('hex')},c:${k2.toString('base64')},c:${k1.toString('base64')}`;
    expect(() => parseKeyList(value)).toThrow(/entry 1 \("a"\): 16 bytes, a key is 32 bytes/);
    expect(() => parseKeyList(value)).toThrow(/entry 2 \("b"\): not base64 or hex/);
    expect(() => parseKeyList(value)).toThrow(/duplicate key id "a"/);
    expect(() => parseKeyList(value)).toThrow(/duplicate key id "c"/);
    expect(() => parseKeyList('bad.id:' + k1.toString('base64'))).toThrow(/key id is 1 to 64 letters/);

    let error: unknown;
    try {
      loadConfig({ KEY_ENCRYPTION_KEYS: value, LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^KEY_ENCRYPTION_KEYS=\(not shown\): .*duplicate key id "a"/),
        expect.stringMatching(/^LOG_LEVEL=/),
      ]),
    );
    expect(problems).toHaveLength(2);
    expect((error as ConfigError).message).not.toContain(short);
    expect((error as ConfigError).message).not.toContain(k1.toString('hex'));
  });

  it('WEBHOOK_KEY_ENCRYPTION_KEY stays a one-key ring, with a deprecation warning', () => {
    const config = loadConfig({ WEBHOOK_KEY_ENCRYPTION_KEY: k1.toString('base64') });
    expect(loadKeyRing(config).keys).toEqual([{ id: deriveKeyId(k1), key: k1 }]);
    expect(keyConfigWarnings(config)).toEqual([expect.stringMatching(/WEBHOOK_KEY_ENCRYPTION_KEY is deprecated/)]);
    expect(keyConfigWarnings(loadConfig({ KEY_ENCRYPTION_KEYS: `a:${k1.toString('base64')}` }))).toEqual([]);
  });

  it('a key given an explicit id still opens what it sealed under its derived id', () => {
    const before = seal('secret', sealingKey(k1)); // sealed when k1 was WEBHOOK_KEY_ENCRYPTION_KEY
    const ring = new KeyRing([sealingKey(k2, 'k2'), sealingKey(k1, 'k1')]);
    expect(open(before, ring.openers)).toBe('secret');
    expect(ring.ownerOf(deriveKeyId(k1))).toBe('k1');
    expect(ring.ownerOf('k2')).toBe('k2');
    expect(ring.ownerOf('gone')).toBeNull();
    expect(() => open(before, new KeyRing([sealingKey(k2, 'k2')]).openers)).toThrow(/not configured/);
  });
});
