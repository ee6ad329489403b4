import { ConfigError, loadConfig } from '../../../src/config/app-config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      PORT: 3000,
      PGLITE_DATA_DIR: './.data/pglite',
      LOG_LEVEL: 'info',
      ROLE: 'all',
      SANDBOX: true,
      DB_POOL_SIZE: 10,
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.embedded).toBe(true);
  });

  it('parses typed values', () => {
    const c = loadConfig({ PORT: '8080', SANDBOX: 'false', ROLE: 'worker', DATABASE_URL: 'postgres://u@h/db' });
    expect(c).toMatchObject({ PORT: 8080, SANDBOX: false, ROLE: 'worker', embedded: false });
  });

  it('fails fast naming every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        ROLE: 'boss',
        SANDBOX: 'maybe',
        DATABASE_URL: 'mysql://x',
        DB_POOL_SIZE: '0',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = (error as ConfigError).problems.map((p) => p.split('=')[0]).sort();
    expect(names).toEqual(['DATABASE_URL', 'DB_POOL_SIZE', 'LOG_LEVEL', 'PORT', 'ROLE', 'SANDBOX']);
  });
});

describe('WEBHOOK_ALLOW_PRIVATE_TARGETS (no readable SSRF by default)', () => {
  const pg = 'postgres://u@h/db';
  it('defaults to on only on the embedded engine with SANDBOX', () => {
    expect(loadConfig({}).allowPrivateWebhookTargets).toBe(true);
    expect(loadConfig({ SANDBOX: 'false' }).allowPrivateWebhookTargets).toBe(false);
    expect(loadConfig({ DATABASE_URL: pg }).allowPrivateWebhookTargets).toBe(false);
    expect(loadConfig({ DATABASE_URL: pg, SANDBOX: 'true' }).allowPrivateWebhookTargets).toBe(false);
  });

  it('an explicit value wins on either engine', () => {
    expect(loadConfig({ DATABASE_URL: pg, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).allowPrivateWebhookTargets).toBe(
      true,
    );
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).allowPrivateWebhookTargets).toBe(false);
  });
});
