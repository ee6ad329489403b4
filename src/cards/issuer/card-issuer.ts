import type { CardDeclinedReason, CardMerchantInfo } from '../card-transaction.entity.js';
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
 * The authorization-family messages (the network's message types): a purchase authorization, a
 * 0-amount balance inquiry, a credit authorization or its advice, and the single-message financial
 * (credit) authorizations that clear in the same message.
 */
export type AuthorizationKind =
  | 'AUTHORIZATION'
  | 'BALANCE_INQUIRY'
  | 'CREDIT_AUTHORIZATION'
  | 'CREDIT_AUTHORIZATION_ADVICE'
  | 'FINANCIAL_AUTHORIZATION'
  | 'FINANCIAL_CREDIT_AUTHORIZATION';

/** An authorization as the issuer forwards it for decisioning (programs where this service decides). */
export interface IssuerAuthorizationRequest {
  card: CardEntity;
  /** 0 for a balance inquiry. */
  amount: bigint;
  currency: string;
  merchant: CardMerchantInfo;
  kind: AuthorizationKind;
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

/** A reveal this service minted: the single-use token its sandbox page checks, and when it ends. */
export interface CardRevealRequest {
  card: CardEntity;
  /** `<platform uuid>.<reveal uuid>.<secret>`: only the secret's hash is stored (card_reveals). */
  token: string;
  expiresAt: Date;
  /** This service's API base URL with its version prefix (PUBLIC_BASE_URL, else the request's scheme and host). */
  baseUrl: string;
}

/** A later event on an issuer transaction (clearing, reversal or expiry, return). */
export interface IssuerTransactionEvent {
  card: CardEntity;
  /** The token of the authorization (purchase) it applies to. */
  issuerTransactionToken: string;
  amount: bigint;
}

/**
 * The card issuer (and its processor): an external system behind one adapter. The sandbox
 * implementation (`SandboxCardIssuer`) is bound in CardsModule; a real issuer integration replaces
 * the binding, not the card rules (CardsService, CardTransactionsService).
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

  /** An authorization forwarded for decisioning: its token and what the issuer decided on its own. */
  abstract authorize(request: IssuerAuthorizationRequest): Promise<IssuerAuthorization>;

  /** A clearing of an authorization (an amount of 0: the authorization expires). */
  abstract clear(event: IssuerTransactionEvent): Promise<{ issuerTransactionToken: string }>;

  /** A reversal or expiry of (part of) an open authorization. */
  abstract reverse(event: IssuerTransactionEvent): Promise<{ issuerTransactionToken: string }>;

  /** A merchant return against a settled purchase. */
  abstract refund(event: IssuerTransactionEvent): Promise<{ issuerTransactionToken: string }>;

  /** An authorization advice re-sizing an open authorization to a new total (`amount`). */
  abstract advise(event: IssuerTransactionEvent): Promise<{ issuerTransactionToken: string }>;

  /** A return reversal: the network takes back a settled return (`issuerTransactionToken`: the return's). */
  abstract reverseRefund(event: IssuerTransactionEvent): Promise<{ issuerTransactionToken: string }>;

  /**
   * The URL of the issuer's page that shows the card's PAN, CVV and expiry to the cardholder
   * (`panEmbedUrl`), valid until `expiresAt`. The sandbox issuer's page is served by this service
   * (`GET /sandbox-issuer/cards/{id}/reveal?t=`); a real processor's adapter answers its iframe URL.
   */
  abstract revealUrl(request: CardRevealRequest): Promise<string>;
}
