import { Module } from '@nestjs/common';
import { ExternalAccountsModule } from '../external-accounts/external-accounts.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { BeneficiaryTrustService } from './beneficiary-trust.service.js';
import { ScaChallengesService } from './sca-challenges.service.js';
import { ScaCustomers } from './sca-customers.js';
import { ScaSettings } from './sca-settings.js';
import { BeneficiaryTrustController, ScaController } from './sca.controller.js';
import { ScaService } from './sca.service.js';
import { LogSmsSender, SmsSender } from './sms-sender.js';

/**
 * Strong Customer Authentication (docs/sca.md): factors, challenges, sessions, trusted
 * beneficiaries. Exports the session check (card reveal) and the challenges (quote authorization).
 * The SMS sender is the log-only one; a real provider replaces that binding.
 */
@Module({
  imports: [SecretsModule, ExternalAccountsModule],
  controllers: [ScaController, BeneficiaryTrustController],
  providers: [
    ScaSettings,
    ScaCustomers,
    ScaChallengesService,
    ScaService,
    BeneficiaryTrustService,
    { provide: SmsSender, useClass: LogSmsSender },
  ],
  exports: [ScaService, ScaCustomers, ScaChallengesService],
})
export class ScaModule {}
