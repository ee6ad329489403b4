import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config/app-config.js';
import { checkWebhookKeyConfig, embeddedWebhookKeyPath, resolveWebhookKey } from '../../../src/config/webhook-key.js';

describe('webhook config', () => {
  it('defaults: concurrency 16 (8 per endpoint), poll 1 s, lease 15 s, private targets on only on the embedded engine with SANDBOX', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      OUTBOX_CONCURRENCY: 16,
      OUTBOX_ENDPOINT_CONCURRENCY: 8,
      OUTBOX_POLL_INTERVAL_MS: 1000,
      OUTBOX_LEASE_MS: 15_000,
    });
    expect(c.allowPrivateWebhookTargets).toBe(true);
    expect(loadConfig({ SANDBOX: 'false' }).allowPrivateWebhookTargets).toBe(false);
    expect(loadConfig({ SANDBOX: 'false', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).allowPrivateWebhookTargets).toBe(
      true,
    );
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).allowPrivateWebhookTargets).toBe(false);
  });

  it('rejects bad values, naming each variable', () => {
    let error: unknown;
    try {
      loadConfig({
        WEBHOOK_KEY_ENCRYPTION_KEY: 'too-short',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'perhaps',
        OUTBOX_CONCURRENCY: '0',
        OUTBOX_POLL_INTERVAL_MS: '5000',
        OUTBOX_ENDPOINT_CONCURRENCY: '0',
        OUTBOX_LEASE_MS: '999',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.split('=')[0]).sort()).toEqual([
      'OUTBOX_CONCURRENCY',
      'OUTBOX_ENDPOINT_CONCURRENCY',
      'OUTBOX_LEASE_MS',
      'OUTBOX_POLL_INTERVAL_MS',
      'WEBHOOK_ALLOW_PRIVATE_TARGETS',
      'WEBHOOK_KEY_ENCRYPTION_KEY',
    ]);
  });
});

describe('resolveWebhookKey', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pps-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('decodes a configured key, base64 or hex', () => {
    const key = Buffer.alloc(32, 9);
    expect(resolveWebhookKey(loadConfig({ WEBHOOK_KEY_ENCRYPTION_KEY: key.toString('base64') }))).toEqual(key);
    expect(resolveWebhookKey(loadConfig({ WEBHOOK_KEY_ENCRYPTION_KEY: key.toString('hex') }))).toEqual(key);
  });

  it('fails fast on PostgreSQL without a key, with a message that says what to set', () => {
    expect(() => resolveWebhookKey(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }))).toThrow(ConfigError);
    expect(() => resolveWebhookKey(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }))).toThrow(
      /WEBHOOK_KEY_ENCRYPTION_KEY.*required with DATABASE_URL/,
    );
  });

  it('embedded: generates the key once beside the data dir (0600) and reads it back after a restart', () => {
    const dataDir = join(dir, 'pglite');
    const first = resolveWebhookKey(loadConfig({ PGLITE_DATA_DIR: dataDir }));
    expect(first).toHaveLength(32);
    const path = embeddedWebhookKeyPath(dataDir);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')).toEqual(first);
    expect(resolveWebhookKey(loadConfig({ PGLITE_DATA_DIR: dataDir }))).toEqual(first); // a new process
  });

  it('embedded: every path naming the data dir (a symlink too) finds the one key, beside its real path', () => {
    const dataDir = join(dir, 'pglite');
    mkdirSync(dataDir);
    symlinkSync(dataDir, join(dir, 'link'));
    const viaLink = resolveWebhookKey(loadConfig({ PGLITE_DATA_DIR: join(dir, 'link') }));
    expect(resolveWebhookKey(loadConfig({ PGLITE_DATA_DIR: dataDir }))).toEqual(viaLink);
    expect(readdirSync(dir).sort()).toEqual(['link', 'pglite', 'pglite.webhook-key']);
  });

  it('the entry points’ early check fails on PostgreSQL without a key and creates no file', () => {
    expect(() => checkWebhookKeyConfig(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }))).toThrow(ConfigError);
    checkWebhookKeyConfig(loadConfig({ PGLITE_DATA_DIR: join(dir, 'pglite') }));
    expect(readdirSync(dir)).toEqual([]);
  });

  it('embedded in memory: a throwaway key, stable within the process config', () => {
    const config = loadConfig({ PGLITE_DATA_DIR: 'memory://' });
    expect(resolveWebhookKey(config)).toHaveLength(32);
    expect(resolveWebhookKey(config)).toBe(resolveWebhookKey(config));
  });
});
