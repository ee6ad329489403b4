import type { Provider } from '@nestjs/common';
import { RealClock } from '../../common/clock.js';
import { AppConfig } from '../../config/app-config.js';
import { portAdapter } from '../../config/ports.js';
import { TransactionService } from '../../database/transaction.service.js';
import { NoRailAdapter } from './no-rail.js';
import { RailAdapter } from './rail.js';
import { SandboxRailAdapter } from './sandbox-rail.js';

/** The payout rail adapter PAYOUT_RAIL names (`portAdapter`; the sandbox only with SANDBOX=true, src/config/ports.ts). */
export const railAdapterProvider: Provider = {
  provide: RailAdapter,
  inject: [AppConfig, TransactionService, RealClock],
  useFactory: async (config: AppConfig, tx: TransactionService, realClock: RealClock): Promise<RailAdapter> => {
    switch (portAdapter(config, 'PAYOUT_RAIL')) {
      case 'sandbox':
        return new SandboxRailAdapter(tx, realClock, config);
      case 'modern-treasury':
        // Its SDK is loaded only when it is the chosen rail; its variables are required by AppConfig.
        return (await import('./modern-treasury/modern-treasury-rail.js')).ModernTreasuryRail.fromConfig(config);
      case 'none':
        return new NoRailAdapter();
    }
  },
};
