import { Injectable } from '@nestjs/common';
import { newUuid } from '../../common/ids.js';
import type { CardDeclinedReason, CardMerchantInfo } from '../card-transaction.entity.js';
import type { CardEntity } from '../card.entity.js';

/** An authorization as the issuer forwards it for decisioning. */
export interface IssuerAuthorizationRequest {
  card: CardEntity;
  amount: bigint;
  currency: string;
  merchant: CardMerchantInfo;
}

/** What the issuer reports with a forwarded authorization. */
export interface IssuerAuthorization {
  /** The issuer's token for the transaction (correlates its later events). */
  issuerTransactionToken: string;
  /** A decline the issuer (network, processor) made on its own; null: this service decides. */
  declinedReason: CardDeclinedReason | null;
  /** How the funding pull will go: `CONFIRMATION_FAILS` makes its clearing end EXCEPTION. */
  pullOutcome: 'OK' | 'CONFIRMATION_FAILS';
}

/** A later event on an issuer transaction (clearing, reversal or expiry, return). */
export interface IssuerTransactionEvent {
  card: CardEntity;
  /** The token of the authorization (purchase) it applies to. */
  issuerTransactionToken: string;
  amount: bigint;
}

/**
 * The card-transaction half of the issuer adapter: the issuer forwards authorizations (for
 * programs where this service decides) and the events that follow them. A real issuer
 * integration replaces the sandbox implementation, not the card rules (CardTransactionsService).
 */
export abstract class CardAuthorizationIssuer {
  abstract authorize(request: IssuerAuthorizationRequest): Promise<IssuerAuthorization>;
  abstract clear(event: IssuerTransactionEvent): Promise<{ issuerTransactionToken: string }>;
  abstract reverse(event: IssuerTransactionEvent): Promise<{ issuerTransactionToken: string }>;
  abstract refund(event: IssuerTransactionEvent): Promise<{ issuerTransactionToken: string }>;
}

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

const sandboxToken = () => `sandbox_txn_${newUuid()}`;

/** The sandbox issuer: descriptor-suffix outcomes, fresh tokens for every event. */
@Injectable()
export class SandboxCardAuthorizationIssuer extends CardAuthorizationIssuer {
  authorize(request: IssuerAuthorizationRequest): Promise<IssuerAuthorization> {
    return Promise.resolve({
      issuerTransactionToken: sandboxToken(),
      ...sandboxAuthorizationOutcome(request.merchant.descriptor),
    });
  }

  clear(): Promise<{ issuerTransactionToken: string }> {
    return Promise.resolve({ issuerTransactionToken: sandboxToken() });
  }

  reverse(): Promise<{ issuerTransactionToken: string }> {
    return Promise.resolve({ issuerTransactionToken: sandboxToken() });
  }

  refund(): Promise<{ issuerTransactionToken: string }> {
    return Promise.resolve({ issuerTransactionToken: sandboxToken() });
  }
}
