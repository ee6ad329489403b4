import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { CardProvisioningService } from './card-provisioning.service.js';
import { CardsController } from './cards.controller.js';
import { CardsRepository } from './cards.repository.js';
import { CardsService } from './cards.service.js';
import { CardIssuer } from './issuer/card-issuer.js';
import { SandboxCardIssuer, UnconfiguredCardIssuer } from './issuer/sandbox-card-issuer.js';
import { AppConfig } from '../config/app-config.js';
import { portAdapter } from '../config/ports.js';
import { Clock } from '../common/clock.js';
import { ScaModule } from '../sca/sca.module.js';
import { CardRevealService } from './card-reveal.service.js';
import { CardRevealPageController } from './card-reveal-page.controller.js';

/**
 * Cards: issuance, the PATCH state machine, status history, provisioning (worker). The card issuer
 * is the `CardIssuer` port, bound by `CARD_ISSUER` (docs/production.md): the sandbox issuer, or
 * none (503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: `CARD_ISSUER`)).
 */
@Module({
  imports: [PlatformConfigModule, OutboxModule, CustomersModule, ScaModule],
  controllers: [CardsController, CardRevealPageController],
  providers: [
    CardsRepository,
    CardsService,
    CardProvisioningService,
    CardRevealService,
    {
      provide: CardIssuer,
      useFactory: (config: AppConfig, clock: Clock) =>
        portAdapter(config, 'CARD_ISSUER') === 'sandbox' ? new SandboxCardIssuer(clock) : new UnconfiguredCardIssuer(),
      inject: [AppConfig, Clock],
    },
  ],
  exports: [CardsRepository, CardsService, CardProvisioningService, CardIssuer],
})
export class CardsModule {}
