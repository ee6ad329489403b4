import { createHash, randomBytes, randomInt } from 'node:crypto';
import { formatId } from '../../common/ids.js';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import type { CardEntity } from '../card.entity.js';
import type { ProvisioningOutcome } from '../card.types.js';
import { newUuid } from '../../common/ids.js';
import {
  CardIssuer,
  type CardProvisioningRequest,
  type CardRevealRequest,
  type IssuedCard,
  type IssuerAuthorization,
  type IssuerAuthorizationRequest,
} from './card-issuer.js';
import { portNotConfigured } from '../../common/requires-port.js';

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

  advise(): Promise<{ issuerTransactionToken: string }> {
    return sandboxToken();
  }

  reverseRefund(): Promise<{ issuerTransactionToken: string }> {
    return sandboxToken();
  }

  revealUrl(request: CardRevealRequest): Promise<string> {
    const id = formatId('Card', request.card.id);
    return Promise.resolve(`${request.baseUrl}/sandbox-issuer/cards/${id}/reveal?t=${request.token}`);
  }
}

/** The Luhn check digit of `digits`. */
function luhnDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * The sandbox card's full details, derived from its processor reference: a Luhn-valid VISA test
 * PAN ending in the card's last four digits, a CVV and the expiry. Shown only on the reveal page.
 */
export function sandboxCardDetails(card: CardEntity): { pan: string; cvv: string; expiry: string } {
  const hash = createHash('sha256')
    .update(`sandbox-card:${card.processorRef ?? card.id}`)
    .digest();
  const middle = Array.from(hash.subarray(0, 5), (b) => String(b % 10)).join('');
  const last4 = card.last4 ?? '0000';
  // 4000 00 + five derived digits + one digit chosen so the whole number passes Luhn + last four.
  const head = `400000${middle}`;
  let pan = '';
  for (let x = 0; x <= 9; x++) {
    const candidate = `${head}${x}${last4}`;
    if (luhnDigit(candidate.slice(0, -1)) === Number(candidate.slice(-1))) {
      pan = candidate;
      break;
    }
  }
  const cvv = String(hash.readUInt16BE(8) % 1000).padStart(3, '0');
  const expiry = `${String(card.expMonth ?? 1).padStart(2, '0')}/${String((card.expYear ?? 2030) % 100).padStart(2, '0')}`;
  return { pan, cvv, expiry };
}

/** The issuer when none is configured (`CARD_ISSUER=none`): every operation answers 503 `SERVICE_UNAVAILABLE` (`details.notConfigured`: CARD_ISSUER). */
export class UnconfiguredCardIssuer extends CardIssuer {
  private fail(): never {
    throw portNotConfigured('CARD_ISSUER');
  }
  requestCard(): Promise<IssuedCard> {
    return this.fail();
  }
  provisioningOutcome(): Promise<ProvisioningOutcome> {
    return this.fail();
  }
  changeStatus(): Promise<void> {
    return this.fail();
  }
  setThreeDSecurePassword(): Promise<void> {
    return this.fail();
  }
  authorize(): Promise<IssuerAuthorization> {
    return this.fail();
  }
  clear(): Promise<{ issuerTransactionToken: string }> {
    return this.fail();
  }
  reverse(): Promise<{ issuerTransactionToken: string }> {
    return this.fail();
  }
  refund(): Promise<{ issuerTransactionToken: string }> {
    return this.fail();
  }
  advise(): Promise<{ issuerTransactionToken: string }> {
    return this.fail();
  }
  reverseRefund(): Promise<{ issuerTransactionToken: string }> {
    return this.fail();
  }
  revealUrl(): Promise<string> {
    return this.fail();
  }
}
