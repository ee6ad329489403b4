import { ConfigError, loadConfig } from '../../../src/config/app-config.js';
import { PORT_VARIABLES, PORTS, portAdapter, portAdapters } from '../../../src/config/ports.js';

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

describe('SANDBOX and the outside world (docs/production.md)', () => {
  const pg = 'postgres://u@h/db';
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('defaults to true only on the embedded engine; with DATABASE_URL to false unless set', () => {
    expect(loadConfig({}).SANDBOX).toBe(true);
    expect(loadConfig({ DATABASE_URL: pg }).SANDBOX).toBe(false);
    expect(loadConfig({ DATABASE_URL: pg, SANDBOX: 'true' })).toMatchObject({ SANDBOX: true, sandboxOnDatabase: true });
    expect(loadConfig({ SANDBOX: 'false' }).SANDBOX).toBe(false);
    expect(loadConfig({}).sandboxOnDatabase).toBe(false);
  });

  it('every port defaults to its sandbox adapter with SANDBOX=true, to none (or its real default) without', () => {
    expect(portAdapters(loadConfig({}))).toEqual({
      PAYOUT_RAIL: 'sandbox',
      CARD_ISSUER: 'sandbox',
      STABLECOIN_PROVIDER: 'sandbox',
      BANK_LINK_PROVIDER: 'sandbox',
      KYC_PROVIDER: 'sandbox',
      EMAIL_TRANSPORT: 'sandbox',
      SMS_TRANSPORT: 'sandbox',
      RATE_SOURCE: 'sandbox',
      DOCUMENT_STORE: 'database',
    });
    expect(portAdapters(loadConfig({ DATABASE_URL: pg }))).toEqual({
      PAYOUT_RAIL: 'none',
      CARD_ISSUER: 'none',
      STABLECOIN_PROVIDER: 'none',
      BANK_LINK_PROVIDER: 'none',
      KYC_PROVIDER: 'none',
      EMAIL_TRANSPORT: 'none',
      SMS_TRANSPORT: 'none',
      RATE_SOURCE: 'none',
      DOCUMENT_STORE: 'database',
    });
  });

  it('an explicit adapter wins; MESSAGE_HOOK_URL makes email and SMS default to the hook', () => {
    const c = loadConfig({ CARD_ISSUER: 'none', DOCUMENT_STORE: 'none', MESSAGE_HOOK_URL: 'https://hook.example' });
    expect(portAdapter(c, 'CARD_ISSUER')).toBe('none');
    expect(portAdapter(c, 'DOCUMENT_STORE')).toBe('none');
    expect(portAdapter(c, 'EMAIL_TRANSPORT')).toBe('hook');
    expect(portAdapter(c, 'SMS_TRANSPORT')).toBe('hook');
    expect(portAdapter(loadConfig({ SANDBOX: 'false', SMS_TRANSPORT: 'none' }), 'SMS_TRANSPORT')).toBe('none');
  });

  it('fails closed: SANDBOX=false with any sandbox adapter refuses, naming each variable', () => {
    for (const variable of PORT_VARIABLES.filter((v) => 'sandbox' in PORTS[v].adapters)) {
      const envs: Record<string, string>[] = [
        { DATABASE_URL: pg },
        { SANDBOX: 'false' },
        { DATABASE_URL: pg, SANDBOX: 'false' },
      ];
      for (const env of envs) {
        const problems = problemsOf({ ...env, [variable]: 'sandbox' });
        expect(problems).toEqual([expect.stringMatching(new RegExp(`^${variable}=sandbox: .*SANDBOX=false`))]);
      }
      // the same adapter is fine in a sandbox, on either engine
      expect(problemsOf({ [variable]: 'sandbox' })).toEqual([]);
      expect(problemsOf({ DATABASE_URL: pg, SANDBOX: 'true', [variable]: 'sandbox' })).toEqual([]);
    }
    expect(
      problemsOf({ DATABASE_URL: pg, CARD_ISSUER: 'sandbox', STABLECOIN_PROVIDER: 'sandbox' }).map(
        (p) => p.split(':')[0],
      ),
    ).toEqual(['CARD_ISSUER=sandbox', 'STABLECOIN_PROVIDER=sandbox']);
  });

  it('an unknown adapter is a plain validation error naming the variable', () => {
    expect(problemsOf({ CARD_ISSUER: 'visa' })).toEqual([expect.stringMatching(/^CARD_ISSUER="visa": /)]);
    expect(problemsOf({ DOCUMENT_STORE: 'sandbox' })).toEqual([expect.stringMatching(/^DOCUMENT_STORE="sandbox": /)]);
  });

  it('names the problem once, with the fix, in the error message main.js prints', () => {
    expect(() => loadConfig({ DATABASE_URL: pg, KYC_PROVIDER: 'sandbox' })).toThrow(
      /KYC_PROVIDER=sandbox: the sandbox KYC provider cannot run with SANDBOX=false \(choose a real adapter or none; see docs\/production\.md\)/,
    );
  });
});
