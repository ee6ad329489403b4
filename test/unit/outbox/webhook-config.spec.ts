import { ConfigError, loadConfig } from '../../../src/config/app-config.js';

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
