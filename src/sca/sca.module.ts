import { Module } from '@nestjs/common';
import { OneTimeCodeLimits } from '../common/one-time-code-limits.js';
import { ExternalAccountsModule } from '../external-accounts/external-accounts.module.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { BeneficiaryTrustService } from './beneficiary-trust.service.js';
import { ScaChallengesService } from './sca-challenges.service.js';
import { ScaCustomers } from './sca-customers.js';
import { ScaSettings } from './sca-settings.js';
import { BeneficiaryTrustController, ScaController } from './sca.controller.js';
import { ScaService } from './sca.service.js';

/**
 * Strong Customer Authentication (docs/sca.md): factors, challenges, sessions, trusted
 * beneficiaries. Exports the session check (card reveal) and the challenges (quote authorization).
 * Codes go out through messaging/'s SMS sender.
 */
@Module({
  imports: [SecretsModule, ExternalAccountsModule, MessagingModule],
  controllers: [ScaController, BeneficiaryTrustController],
  providers: [OneTimeCodeLimits, ScaSettings, ScaCustomers, ScaChallengesService, ScaService, BeneficiaryTrustService],
  exports: [ScaService, ScaCustomers, ScaChallengesService],
})
export class ScaModule {}
