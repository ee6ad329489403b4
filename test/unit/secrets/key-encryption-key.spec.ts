import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config/app-config.js';
import { deriveKeyId } from '../../../src/secrets/envelope.js';
import {
  checkKeyEncryptionKeyConfig,
  embeddedKeyFilePath,
  loadKeyRing,
  resolveKeyEncryptionKey,
} from '../../../src/secrets/key-encryption-key.js';

describe('resolveKeyEncryptionKey', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pps-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('decodes a configured key, base64 or hex', () => {
    const key = Buffer.alloc(32, 9);
    expect(resolveKeyEncryptionKey(loadConfig({ WEBHOOK_KEY_ENCRYPTION_KEY: key.toString('base64') }))).toEqual(key);
    expect(resolveKeyEncryptionKey(loadConfig({ WEBHOOK_KEY_ENCRYPTION_KEY: key.toString('hex') }))).toEqual(key);
  });

  it('fails fast on PostgreSQL without a key, with a message that says what to set', () => {
    expect(() => resolveKeyEncryptionKey(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }))).toThrow(ConfigError);
    expect(() => resolveKeyEncryptionKey(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }))).toThrow(
      /KEY_ENCRYPTION_KEYS.*required with DATABASE_URL/,
    );
  });

  it('embedded: generates the key once beside the data dir (0600) and reads it back after a restart', () => {
    const dataDir = join(dir, 'pglite');
    const first = resolveKeyEncryptionKey(loadConfig({ PGLITE_DATA_DIR: dataDir }));
    expect(first).toHaveLength(32);
    const path = embeddedKeyFilePath(dataDir);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')).toEqual(first);
    expect(resolveKeyEncryptionKey(loadConfig({ PGLITE_DATA_DIR: dataDir }))).toEqual(first); // a new process
  });

  it('embedded: every path naming the data dir (a symlink too) finds the one key, beside its real path', () => {
    const dataDir = join(dir, 'pglite');
    mkdirSync(dataDir);
    symlinkSync(dataDir, join(dir, 'link'));
    const viaLink = resolveKeyEncryptionKey(loadConfig({ PGLITE_DATA_DIR: join(dir, 'link') }));
    expect(resolveKeyEncryptionKey(loadConfig({ PGLITE_DATA_DIR: dataDir }))).toEqual(viaLink);
    expect(readdirSync(dir).sort()).toEqual(['link', 'pglite', 'pglite.webhook-key']);
  });

  it('the entry points’ early check fails on PostgreSQL without a key and creates no file', () => {
    expect(() => checkKeyEncryptionKeyConfig(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }))).toThrow(ConfigError);
    checkKeyEncryptionKeyConfig(loadConfig({ PGLITE_DATA_DIR: join(dir, 'pglite') }));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('embedded in memory: a throwaway key, stable within the process config', () => {
    const config = loadConfig({ PGLITE_DATA_DIR: 'memory://' });
    expect(resolveKeyEncryptionKey(config)).toHaveLength(32);
    expect(resolveKeyEncryptionKey(config)).toBe(resolveKeyEncryptionKey(config));
  });

  it('the key ring holds the one key, under the id derived from it', () => {
    const key = Buffer.alloc(32, 9);
    const ring = loadKeyRing(loadConfig({ WEBHOOK_KEY_ENCRYPTION_KEY: key.toString('base64') }));
    expect(ring.keys).toEqual([{ id: deriveKeyId(key), key }]);
    expect(ring.current.id).toMatch(/^[0-9a-f]{8}$/);
  });
});
