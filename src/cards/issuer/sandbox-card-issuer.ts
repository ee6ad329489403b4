import { randomBytes, randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import type { CardEntity } from '../card.entity.js';
import type { ProvisioningOutcome } from '../card.types.js';
import { CardIssuer, type CardProvisioningRequest, type IssuedCard } from './card-issuer.js';

/** Years a sandbox card is valid for. */
const VALIDITY_YEARS = 3;

/**
 * The sandbox issuer: invents the card's identity (VISA, random last four digits, expiry three
 * years out, opaque refs), approves every provisioning (a rejection is simulated with
 * `POST /sandbox/cards/{id}/simulate/provisioning`), accepts status changes and 3-D Secure
 * passwords and keeps nothing.
 */
@Injectable()
export class SandboxCardIssuer extends CardIssuer {
  constructor(private readonly clock: Clock) {
    super();
  }

  requestCard(_request: CardProvisioningRequest): Promise<IssuedCard> {
    const now = this.clock.now();
    return Promise.resolve({
      brand: 'VISA',
      last4: String(randomInt(0, 10_000)).padStart(4, '0'),
      expMonth: now.getUTCMonth() + 1,
      expYear: now.getUTCFullYear() + VALIDITY_YEARS,
      processorRef: `sandbox_card_${randomBytes(8).toString('hex')}`,
      issuerRef: `sandbox_issuer_${randomBytes(8).toString('hex')}`,
    });
  }

  provisioningOutcome(_card: CardEntity): Promise<ProvisioningOutcome> {
    return Promise.resolve('ACTIVE');
  }

  changeStatus(): Promise<void> {
    return Promise.resolve();
  }

  setThreeDSecurePassword(): Promise<void> {
    return Promise.resolve();
  }
}
