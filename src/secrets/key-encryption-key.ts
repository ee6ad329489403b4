import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AppConfig, ConfigError } from '../config/app-config.js';
import { sealingKey } from './envelope.js';
import { KeyRing } from './key-ring.js';
import { parseKeyList } from './key-list.js';

/**
 * The key-encryption key: seals every secret at rest (AES-256-GCM, see envelope.ts): webhook
 * private keys, `whsec_` secrets, stored idempotent replays, customers' SSN / ITIN.
 * - `WEBHOOK_KEY_ENCRYPTION_KEY` when set (32 bytes, base64 or hex).
 * - Embedded engine without it: generated once and kept beside the data dir (`<real dir>.webhook-key`,
 *   mode 0600), so it survives restarts with the data; `memory://` gets a throwaway key. Resolve
 *   it only once the data dir is locked (after openDatabase), so a refused start creates no file.
 * - PostgreSQL without it: a ConfigError at boot (a key generated per replica would make each
 *   replica unable to read what the others wrote).
 */
export function resolveKeyEncryptionKey(config: AppConfig): Buffer {
  let key = resolved.get(config);
  if (!key) {
    key = readKey(config);
    resolved.set(config, key);
  }
  return key;
}

const resolved = new WeakMap<AppConfig, Buffer>();

/**
 * The keys that seal and open secrets (the one place deciding them): KEY_ENCRYPTION_KEYS when set
 * (first seals, every one opens); else the one key-encryption key (WEBHOOK_KEY_ENCRYPTION_KEY, or
 * the embedded engine's key file) under the id derived from it (envelope.ts `deriveKeyId`).
 */
export function loadKeyRing(config: AppConfig): KeyRing {
  if (config.KEY_ENCRYPTION_KEYS) return new KeyRing(parseKeyList(config.KEY_ENCRYPTION_KEYS));
  return new KeyRing([sealingKey(resolveKeyEncryptionKey(config))]);
}

/** Lines an entry point logs as warnings at start: deprecated or ignored key settings. */
export function keyConfigWarnings(config: AppConfig): string[] {
  if (config.KEY_ENCRYPTION_KEYS && config.WEBHOOK_KEY_ENCRYPTION_KEY) {
    return ['WEBHOOK_KEY_ENCRYPTION_KEY is ignored: KEY_ENCRYPTION_KEYS is set (remove it; see docs/key-rotation.md)'];
  }
  if (config.WEBHOOK_KEY_ENCRYPTION_KEY) {
    return [
      'WEBHOOK_KEY_ENCRYPTION_KEY is deprecated: set KEY_ENCRYPTION_KEYS=<id>:<the same key> instead (see docs/key-rotation.md)',
    ];
  }
  return [];
}

export function parseKeyEncryptionKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}

/**
 * Where the embedded engine keeps its generated key: beside the data dir's real path, so every
 * path that names the dir (a symlink too) finds the one key; one an older version kept beside a
 * symlinked path is still read.
 */
export function embeddedKeyFilePath(dataDir: string): string {
  const named = resolve(dataDir);
  let real = named;
  try {
    real = realpathSync(named);
  } catch {
    // Not created yet: it will be created at this path.
  }
  const path = `${real}.webhook-key`;
  if (real !== named && !existsSync(path) && existsSync(`${named}.webhook-key`)) return `${named}.webhook-key`;
  return path;
}

/**
 * Fails fast, without touching any file, when the key cannot be had: PostgreSQL without
 * WEBHOOK_KEY_ENCRYPTION_KEY. Entry points call it before opening the database.
 */
export function checkKeyEncryptionKeyConfig(config: AppConfig): void {
  if (!config.KEY_ENCRYPTION_KEYS && !config.WEBHOOK_KEY_ENCRYPTION_KEY && !config.embedded) readKey(config);
}

function readKey(config: AppConfig): Buffer {
  if (config.WEBHOOK_KEY_ENCRYPTION_KEY) return parseKeyEncryptionKey(config.WEBHOOK_KEY_ENCRYPTION_KEY);
  if (!config.embedded) {
    throw new ConfigError([
      'KEY_ENCRYPTION_KEYS=null: required with DATABASE_URL (id:key pairs, each key 32 bytes as base64 or hex, the ' +
        'same on every replica; for example `k1:$(openssl rand -base64 32)`). It encrypts secrets at rest.',
    ]);
  }
  if (config.PGLITE_DATA_DIR.startsWith('memory://')) return randomBytes(32);
  return readOrCreateKeyFile(embeddedKeyFilePath(config.PGLITE_DATA_DIR));
}

/** Reads the key file, creating it atomically (write a temp file, then link: never half-written). */
function readOrCreateKeyFile(path: string): Buffer {
  const existing = tryRead(path);
  if (existing) return existing;
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(temp, path); // fails with EEXIST if another process won the race: read theirs
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  const key = tryRead(path);
  if (!key) throw new Error(`could not read the webhook key file ${path}`);
  return key;
}

function tryRead(path: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const key = parseKeyEncryptionKey(text);
  if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key`);
  return key;
}
