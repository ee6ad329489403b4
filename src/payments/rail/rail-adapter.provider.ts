import type { Provider } from '@nestjs/common';
import { RealClock } from '../../common/clock.js';
import { AppConfig } from '../../config/app-config.js';
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
        return ModernTreasuryRail.fromConfig(config); // its variables are required by AppConfig
      case 'none':
        return new NoRailAdapter();
    }
  },
};
