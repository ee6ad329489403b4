import { loadConfig } from '../../../src/config/app-config.js';
import { portAdapter } from '../../../src/config/ports.js';

/** The email, SMS and rate-source defaults (docs/production.md). */
const config = (env: Record<string, string>) => loadConfig({ DATABASE_URL: 'postgres://db/x', ...env });

describe('email and SMS transports', () => {
  it.each([
    [{ SANDBOX: 'true' }, 'sandbox', 'sandbox'],
    [{ SANDBOX: 'false' }, 'none', 'none'],
    [{ SANDBOX: 'false', MESSAGE_HOOK_URL: 'https://hook.example/m' }, 'hook', 'hook'],
    [{ SANDBOX: 'true', MESSAGE_HOOK_URL: 'https://hook.example/m' }, 'hook', 'hook'],
    [{ SANDBOX: 'false', MESSAGE_HOOK_URL: 'https://hook.example/m', EMAIL_TRANSPORT: 'smtp' }, 'smtp', 'hook'],
    [{ SANDBOX: 'false', SMS_TRANSPORT: 'twilio', EMAIL_TRANSPORT: 'none' }, 'none', 'twilio'],
  ])('%j: email %s, SMS %s', (env, email, sms) => {
    const c = config(env);
    expect({ email: portAdapter(c, 'EMAIL_TRANSPORT'), sms: portAdapter(c, 'SMS_TRANSPORT') }).toEqual({ email, sms });
  });
});

describe('rate source', () => {
  it.each([
    [{ SANDBOX: 'true' }, 'sandbox'],
    [{ SANDBOX: 'true', FX_RATES: 'EUR=0.9' }, 'sandbox'],
    [{ SANDBOX: 'false' }, 'none'],
    [{ SANDBOX: 'false', FX_RATES: 'EUR=0.9,GBP=0.8' }, 'static'],
    [{ SANDBOX: 'false', RATE_SOURCE: 'ecb' }, 'ecb'],
    [{ SANDBOX: 'false', FX_RATES: 'EUR=0.9', RATE_SOURCE: 'none' }, 'none'],
  ])('%j: %s', (env, adapter) => {
    expect(portAdapter(config(env), 'RATE_SOURCE')).toBe(adapter);
  });
});
