import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from './app-config.js';
/**
 * The key-encryption key: encrypts every secret at rest (AES-256-GCM): webhook private keys,
 * `whsec_` secrets, stored idempotent replays.
 * - `WEBHOOK_KEY_ENCRYPTION_KEY` when set (32 bytes, base64 or hex).
 * - Embedded engine without it: generated once and kept beside the data dir (`<real dir>.webhook-key`,
 *   mode 0600), so it survives restarts with the data; `memory://` gets a throwaway key. Resolve
 *   it only once the data dir is locked (after openDatabase), so a refused start creates no file.
 * - PostgreSQL without it: a ConfigError at boot (a key generated per replica would make each
 *   replica unable to read what the others wrote).
 */
export function resolveWebhookKey(config) {
    let key = resolved.get(config);
    if (!key) {
        key = readKey(config);
        resolved.set(config, key);
    }
    return key;
}
const resolved = new WeakMap();
export function parseWebhookKey(value) {
    return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}
/**
 * Where the embedded engine keeps its generated key: beside the data dir's real path, so every
 * path that names the dir (a symlink too) finds the one key; one an older version kept beside a
 * symlinked path is still read.
 */
export function embeddedWebhookKeyPath(dataDir) {
    const named = resolve(dataDir);
    let real = named;
    try {
        real = realpathSync(named);
    }
    catch {
        // Not created yet: it will be created at this path.
    }
    const path = `${real}.webhook-key`;
    if (real !== named && !existsSync(path) && existsSync(`${named}.webhook-key`))
        return `${named}.webhook-key`;
    return path;
}
/**
 * Fails fast, without touching any file, when the key cannot be had: PostgreSQL without
 * WEBHOOK_KEY_ENCRYPTION_KEY. Entry points call it before opening the database.
 */
export function checkWebhookKeyConfig(config) {
    if (!config.WEBHOOK_KEY_ENCRYPTION_KEY && !config.embedded)
        readKey(config);
}
function readKey(config) {
    if (config.WEBHOOK_KEY_ENCRYPTION_KEY)
        return parseWebhookKey(config.WEBHOOK_KEY_ENCRYPTION_KEY);
    if (!config.embedded) {
        throw new ConfigError([
            'WEBHOOK_KEY_ENCRYPTION_KEY=null: required with DATABASE_URL (32 bytes as base64 or hex, the same on every ' +
                'replica; for example `openssl rand -base64 32`). It encrypts secrets at rest.',
        ]);
    }
    if (config.PGLITE_DATA_DIR.startsWith('memory://'))
        return randomBytes(32);
    return readOrCreateKeyFile(embeddedWebhookKeyPath(config.PGLITE_DATA_DIR));
}
/** Reads the key file, creating it atomically (write a temp file, then link: never half-written). */
function readOrCreateKeyFile(path) {
    const existing = tryRead(path);
    if (existing)
        return existing;
    mkdirSync(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    try {
        linkSync(temp, path); // fails with EEXIST if another process won the race: read theirs
    }
    catch (error) {
        if (error.code !== 'EEXIST')
            throw error;
    }
    finally {
        rmSync(temp, { force: true });
    }
    const key = tryRead(path);
    if (!key)
        throw new Error(`could not read the webhook key file ${path}`);
    return key;
}
function tryRead(path) {
    let text;
    try {
        text = readFileSync(path, 'utf8').trim();
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return null;
        throw error;
    }
    const key = parseWebhookKey(text);
    if (key.length !== 32)
        throw new Error(`${path} does not hold a 32-byte base64 key`);
    return key;
}
//# sourceMappingURL=webhook-key.js.map