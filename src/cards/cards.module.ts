import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module.js';
import { OutboxModule } from '../outbox/outbox.module.js';
import { PlatformConfigModule } from '../platform-config/platform-config.module.js';
import { CardProvisioningService } from './card-provisioning.service.js';
import { CardsController } from './cards.controller.js';
import { CardsRepository } from './cards.repository.js';
import { CardsService } from './cards.service.js';
import { CardIssuer } from './issuer/card-issuer.js';
import { SandboxCardIssuer } from './issuer/sandbox-card-issuer.js';

/**
 * Cards: issuance, the PATCH state machine, status history, provisioning (worker). The card issuer
 * is the `CardIssuer` adapter, bound to the sandbox issuer here.
 */
@Module({
  imports: [PlatformConfigModule, OutboxModule, CustomersModule],
  controllers: [CardsController],
  providers: [
    CardsRepository,
    CardsService,
    CardProvisioningService,
    { provide: CardIssuer, useClass: SandboxCardIssuer },
  ],
  exports: [CardsRepository, CardsService, CardProvisioningService, CardIssuer],
})
export class CardsModule {}
