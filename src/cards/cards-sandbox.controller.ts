import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPlatform, RequirePermission } from '../auth/auth.decorators.js';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { IdPipe } from '../common/id.pipe.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';
import { Card, SimulateProvisioningRequest } from './card.dto.js';
import { CardProvisioningService } from './card-provisioning.service.js';

/** The cards area's sandbox triggers (the card issuer); mounted only when SANDBOX=true. */
@ApiTags('Sandbox')
@ApiBasicAuth('BasicAuth')
@Controller('sandbox/cards')
export class CardsSandboxController {
  constructor(private readonly provisioning: CardProvisioningService) {}

  @Post(':id/simulate/provisioning')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @Idempotent()
  @ApiOperation({
    summary: "Complete a card's provisioning (ours: programs with sandboxProvisioning MANUAL)",
    operationId: 'simulateCardProvisioning',
  })
  @ApiOkResponse({ type: Card, description: 'The card after provisioning (ACTIVE, CLOSED or PENDING_KYC)' })
  @ApiNotFoundResponse({ description: 'NOT_FOUND' })
  @ApiConflictResponse({ description: 'INVALID_STATE_TRANSITION: the card is not PROCESSING' })
  simulateProvisioning(
    @CurrentPlatform() p: PlatformPrincipal,
    @Param('id', new IdPipe('Card')) id: string,
    @Body() body: SimulateProvisioningRequest,
  ): Promise<Card> {
    return this.provisioning.simulate(p.platformId, id, body.outcome);
  }
}
