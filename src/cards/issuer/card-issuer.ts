import type { CardEntity } from '../card.entity.js';
import type { CardBrand, CardSubstatus, ProvisioningOutcome, RequestableCardStatus } from '../card.types.js';

/** What the issuer is asked to provision (at issuance, inside the issuing transaction). */
export interface CardProvisioningRequest {
  /** The new card's uuid. */
  cardId: string;
  platformId: string;
  customerId: string;
  currency: string;
  form: 'VIRTUAL';
  /** Handed to the issuer and never stored here (the spec: forwarded and discarded). */
  threeDSecurePassword?: string;
}

/** The card's identity at the issuer, known once it accepted the request. */
export interface IssuedCard {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  processorRef: string;
  issuerRef: string;
}

/** A status change the platform asked for, forwarded to the issuer (substatus in its vocabulary). */
export interface CardStatusInstruction {
  status: RequestableCardStatus;
  substatus: CardSubstatus;
  reason: string;
}

/**
 * The card issuer (and its processor): an external system behind one adapter. The sandbox
 * implementation (`SandboxCardIssuer`) is bound in CardsModule; a real issuer integration replaces
 * the binding, not the card rules. Authorization methods join this interface with the card
 * transactions feature.
 */
export abstract class CardIssuer {
  /** Requests a card: answers its identity; provisioning completes later (`provisioningOutcome`). */
  abstract requestCard(request: CardProvisioningRequest): Promise<IssuedCard>;

  /** How provisioning of a PROCESSING card ended, asked when it is due (the worker). */
  abstract provisioningOutcome(card: CardEntity): Promise<ProvisioningOutcome>;

  /** Forwards a requested status change (after it is allowed here). */
  abstract changeStatus(card: CardEntity, instruction: CardStatusInstruction): Promise<void>;

  /** Sets a new static 3-D Secure password on the card; the value is never stored here. */
  abstract setThreeDSecurePassword(card: CardEntity, password: string): Promise<void>;
}
