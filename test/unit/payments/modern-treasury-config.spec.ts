import { ConfigError, loadConfig } from '../../../src/config/app-config.js';

/** PAYOUT_RAIL=modern-treasury needs its credentials: boot stops naming every missing one, never echoing a secret. */
const complete = {
  PAYOUT_RAIL: 'modern-treasury',
  MODERN_TREASURY_API_KEY: 'live-secret-key',
  MODERN_TREASURY_ORGANIZATION_ID: '0c1bd1b4-6e4f-4c4a-9b0e-7d3f1b0e2a11',
  MODERN_TREASURY_WEBHOOK_KEY: 'webhook-secret',
  MODERN_TREASURY_ORIGINATING_ACCOUNT_ID: '5f0e8c7a-3b1d-4e2f-9a6b-1c2d3e4f5a6b',
};

function problems(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

it('PAYOUT_RAIL=modern-treasury with every variable loads (the base URL optional)', () => {
  const config = loadConfig(complete);
  expect(config.MODERN_TREASURY_ORIGINATING_ACCOUNT_ID).toBe(complete.MODERN_TREASURY_ORIGINATING_ACCOUNT_ID);
  expect(config.MODERN_TREASURY_BASE_URL).toBeUndefined();
  expect(loadConfig({ ...complete, MODERN_TREASURY_BASE_URL: 'http://127.0.0.1:4010' }).MODERN_TREASURY_BASE_URL).toBe(
    'http://127.0.0.1:4010',
  );
});

it('PAYOUT_RAIL=modern-treasury without its variables is a ConfigError naming each missing one', () => {
  const found = problems({ PAYOUT_RAIL: 'modern-treasury' });
  for (const name of [
    'MODERN_TREASURY_API_KEY',
    'MODERN_TREASURY_ORGANIZATION_ID',
    'MODERN_TREASURY_WEBHOOK_KEY',
    'MODERN_TREASURY_ORIGINATING_ACCOUNT_ID',
  ]) {
    expect(found).toContainEqual(
      expect.stringMatching(new RegExp(`^${name}=.*required with PAYOUT_RAIL=modern-treasury`)),
    );
  }
  expect(found.join('\n')).not.toMatch(/MODERN_TREASURY_BASE_URL/);
});

it('a malformed value is named; secrets are never shown', () => {
  const found = problems({
    ...complete,
    MODERN_TREASURY_ORIGINATING_ACCOUNT_ID: 'acct_1',
    MODERN_TREASURY_API_KEY: '',
  });
  expect(found).toContainEqual(expect.stringMatching(/^MODERN_TREASURY_ORIGINATING_ACCOUNT_ID="acct_1": must be/));
  expect(found).toContainEqual(expect.stringMatching(/^MODERN_TREASURY_API_KEY=\(not shown\)/));
  const leaked = problems({ ...complete, MODERN_TREASURY_ORGANIZATION_ID: 'x' }).join('\n');
  expect(leaked).not.toContain(complete.MODERN_TREASURY_API_KEY);
});

it('other rails need none of them', () => {
  expect(problems({ PAYOUT_RAIL: 'none' })).toEqual([]);
  expect(problems({})).toEqual([]);
});

it('ModernTreasuryRail.fromConfig builds the adapter from the loaded variables', async () => {
  const { ModernTreasuryRail } = await import('../../../src/payments/rail/modern-treasury/modern-treasury-rail.js');
  const rail = ModernTreasuryRail.fromConfig(loadConfig(complete));
  expect(rail.name).toBe('modern-treasury');
  expect(() => ModernTreasuryRail.fromConfig(loadConfig({}))).toThrow(/MODERN_TREASURY_/);
});
