import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { AppConfig, ConfigError } from './app-config.js';

/**
 * The server key that encrypts webhook private keys and `whsec_` secrets at rest (AES-256-GCM).
 * - `WEBHOOK_KEY_ENCRYPTION_KEY` when set (32 bytes, base64 or hex).
 * - Embedded engine without it: generated once and kept beside the data dir (`<dir>.webhook-key`,
 *   mode 0600), so it survives restarts with the data; `memory://` gets a throwaway key.
 * - PostgreSQL without it: a ConfigError at boot (a key generated per replica would make each
 *   replica unable to read what the others wrote).
 */
export function resolveWebhookKey(config: AppConfig): Buffer {
  let key = resolved.get(config);
  if (!key) {
    key = readKey(config);
    resolved.set(config, key);
  }
  return key;
}

const resolved = new WeakMap<AppConfig, Buffer>();

export function parseWebhookKey(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}

/** Where the embedded engine keeps its generated key. */
export function embeddedWebhookKeyPath(dataDir: string): string {
  return `${resolve(dataDir)}.webhook-key`;
}

function readKey(config: AppConfig): Buffer {
  if (config.WEBHOOK_KEY_ENCRYPTION_KEY) return parseWebhookKey(config.WEBHOOK_KEY_ENCRYPTION_KEY);
  if (!config.embedded) {
    throw new ConfigError([
      'WEBHOOK_KEY_ENCRYPTION_KEY=null: required with DATABASE_URL (32 bytes as base64 or hex, the same on every ' +
        'replica; for example `openssl rand -base64 32`). It encrypts webhook signing keys at rest.',
    ]);
  }
  if (config.PGLITE_DATA_DIR.startsWith('memory://')) return randomBytes(32);
  return readOrCreateKeyFile(embeddedWebhookKeyPath(config.PGLITE_DATA_DIR));
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
  const key = parseWebhookKey(text);
  if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key`);
  return key;
}
