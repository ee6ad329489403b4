import { randomBytes, randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import type { CardEntity } from '../card.entity.js';
import type { ProvisioningOutcome } from '../card.types.js';
import { newUuid } from '../../common/ids.js';
import {
  CardIssuer,
  type CardProvisioningRequest,
  type IssuedCard,
  type IssuerAuthorization,
  type IssuerAuthorizationRequest,
} from './card-issuer.js';

/** Years a sandbox card is valid for. */
const VALIDITY_YEARS = 3;

/**
 * The sandbox issuer's authorization outcomes, by the last three characters of the merchant
 * descriptor (the reference's table): `002` declines INSUFFICIENT_FUNDS, `003` declines
 * CARD_NOT_ACTIVE, `005` (a delayed pull) is approved like any other here, `006` is approved but
 * its pull confirmation fails (the clearing ends EXCEPTION); anything else goes to decisioning.
 */
export function sandboxAuthorizationOutcome(
  descriptor: string,
): Pick<IssuerAuthorization, 'declinedReason' | 'pullOutcome'> {
  switch (descriptor.slice(-3)) {
    case '002':
      return { declinedReason: 'INSUFFICIENT_FUNDS', pullOutcome: 'OK' };
    case '003':
      return { declinedReason: 'CARD_NOT_ACTIVE', pullOutcome: 'OK' };
    case '006':
      return { declinedReason: null, pullOutcome: 'CONFIRMATION_FAILS' };
    default:
      return { declinedReason: null, pullOutcome: 'OK' };
  }
}

const sandboxToken = () => Promise.resolve({ issuerTransactionToken: `sandbox_txn_${newUuid()}` });

/**
 * The sandbox issuer: invents the card's identity (VISA, random last four digits, expiry three
 * years out, opaque refs), approves every provisioning (a rejection is simulated with
 * `POST /sandbox/cards/{id}/simulate/provisioning`), accepts status changes and 3-D Secure
 * passwords and keeps nothing; forwards authorizations with the descriptor-suffix outcomes and a
 * fresh token for every card network event.
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

  async authorize(request: IssuerAuthorizationRequest): Promise<IssuerAuthorization> {
    const { issuerTransactionToken } = await sandboxToken();
    return { issuerTransactionToken, ...sandboxAuthorizationOutcome(request.merchant.descriptor) };
  }

  clear(): Promise<{ issuerTransactionToken: string }> {
    return sandboxToken();
  }

  reverse(): Promise<{ issuerTransactionToken: string }> {
    return sandboxToken();
  }

  refund(): Promise<{ issuerTransactionToken: string }> {
    return sandboxToken();
  }
}
