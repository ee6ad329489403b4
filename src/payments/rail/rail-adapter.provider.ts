import type { Provider } from '@nestjs/common';
import { RealClock } from '../../common/clock.js';
import { AppConfig, ConfigError } from '../../config/app-config.js';
import { portAdapter } from '../../config/ports.js';
import { TransactionService } from '../../database/transaction.service.js';
import { ModernTreasuryRail } from './modern-treasury/modern-treasury-rail.js';
import { NoRailAdapter } from './no-rail.js';
import { RailAdapter } from './rail.js';
import { SandboxRailAdapter } from './sandbox-rail.js';

/** The payout rail adapter PAYOUT_RAIL names (`portAdapter`; the sandbox only with SANDBOX=true, src/config/ports.ts). */
export const railAdapterProvider: Provider = {
  provide: RailAdapter,
  inject: [AppConfig, TransactionService, RealClock],
  useFactory: (config: AppConfig, tx: TransactionService, realClock: RealClock): RailAdapter => {
    switch (portAdapter(config, 'PAYOUT_RAIL')) {
      case 'sandbox':
        return new SandboxRailAdapter(tx, realClock, config);
      case 'modern-treasury':
        return modernTreasury(config);
      case 'none':
        return new NoRailAdapter();
    }
  },
};

/** The Modern Treasury adapter from its variables; boot stops naming each one missing. */
function modernTreasury(config: AppConfig): ModernTreasuryRail {
  const required = {
    MODERN_TREASURY_API_KEY: config.MODERN_TREASURY_API_KEY,
    MODERN_TREASURY_ORGANIZATION_ID: config.MODERN_TREASURY_ORGANIZATION_ID,
    MODERN_TREASURY_ORIGINATING_ACCOUNT_ID: config.MODERN_TREASURY_ORIGINATING_ACCOUNT_ID,
    MODERN_TREASURY_WEBHOOK_KEY: config.MODERN_TREASURY_WEBHOOK_KEY,
  };
  const missing = Object.entries(required).filter(([, value]) => !value);
  if (missing.length > 0)
    throw new ConfigError(missing.map(([name]) => `${name}: required with PAYOUT_RAIL=modern-treasury`));
  return new ModernTreasuryRail({
    apiKey: required.MODERN_TREASURY_API_KEY!,
    organizationId: required.MODERN_TREASURY_ORGANIZATION_ID!,
    originatingAccountId: required.MODERN_TREASURY_ORIGINATING_ACCOUNT_ID!,
    webhookKey: required.MODERN_TREASURY_WEBHOOK_KEY!,
    ...(config.MODERN_TREASURY_BASE_URL ? { baseURL: config.MODERN_TREASURY_BASE_URL } : {}),
  });
}
