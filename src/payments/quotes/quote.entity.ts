import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BusinessTime } from '../../common/clock.js';
import type { ScaChallengeView } from '../../sca/sca-challenges.service.js';

export const QUOTE_STATUSES = [
  'PENDING',
  'PENDING_AUTHORIZATION',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
export const LOCK_SIDES = ['SENDING', 'RECEIVING'] as const;
export type LockSide = (typeof LOCK_SIDES)[number];
export const QUOTE_SOURCE_TYPES = ['ACCOUNT', 'REALTIME_FUNDING'] as const;
export type QuoteSourceType = (typeof QUOTE_SOURCE_TYPES)[number];
/** Which kind of account a quote pays into (the type prefix of its public id). */
export type DestinationKind = 'InternalAccount' | 'ExternalAccount' | 'UmaAddress';

/** The spec's `rateDetails` (the reference's OutgoingRateDetails, with the spec's `serviceApi*` names). */
export interface RateDetails {
  counterpartyMultiplier: number;
  counterpartyFixedFee: number;
  serviceApiMultiplier: number;
  serviceApiFixedFee: number;
  serviceApiVariableFeeRate: number;
  serviceApiVariableFeeAmount: number;
}

/** A rendered ScaChallenge as stored (its WebAuthn options opaque to TypeORM's typing). */
export type StoredScaChallenge = Omit<ScaChallengeView, 'passkeyAssertionOptions'> & {
  passkeyAssertionOptions?: object;
};

/** A priced, time-limited offer to move money from an internal account (a customer's or the platform's), or funded from outside. */
@Entity('quotes')
export class QuoteEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  /** The agent that created it (null: the platform did). */
  @Column('uuid', { name: 'agent_id', nullable: true })
  agentId: string | null;

  /** The customer whose account is the source (null: the platform's own account). */
  @Column('uuid', { name: 'customer_id', nullable: true })
  customerId: string | null;

  /** ACCOUNT: an internal account pays; REALTIME_FUNDING: funds arrive from outside (payment instructions). */
  @Column('text', { name: 'source_type', default: 'ACCOUNT' })
  sourceType: QuoteSourceType;

  /** The paying internal account (null for REALTIME_FUNDING). */
  @Column('uuid', { name: 'source_account_id', nullable: true })
  sourceAccountId: string | null;

  @Column('text', { name: 'destination_kind' })
  destinationKind: DestinationKind;

  /** For an UmaAddress destination: the lookup's uuid (the address is `destinationUmaAddress`). */
  @Column('uuid', { name: 'destination_account_id' })
  destinationAccountId: string;

  /** The receiver's UMA address (UmaAddress destinations only; src/uma/uma-payments.service.ts). */
  @Column('text', { name: 'destination_uma_address', nullable: true })
  destinationUmaAddress: string | null;

  @Column('text', { name: 'payment_rail', nullable: true })
  paymentRail: string | null;

  @Column('text', { name: 'locked_currency_side' })
  lockedCurrencySide: LockSide;

  @Column('text', { name: 'sending_currency' })
  sendingCurrency: string;

  @Column('text', { name: 'receiving_currency' })
  receivingCurrency: string;

  @Column('bigint', { name: 'total_sending_amount' })
  totalSendingAmount: string;

  @Column('bigint', { name: 'total_receiving_amount' })
  totalReceivingAmount: string;

  @Column('double precision', { name: 'exchange_rate' })
  exchangeRate: number;

  @Column('bigint', { name: 'fees_included' })
  feesIncluded: string;

  /** The platform's fees (part of feesIncluded), in the sending currency. */
  @Column('bigint', { name: 'platform_fees_included', default: '0' })
  platformFeesIncluded: string;

  @Column('jsonb', { name: 'rate_details' })
  rateDetails: RateDetails;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('text', { name: 'purpose_of_payment', nullable: true })
  purposeOfPayment: string | null;

  /** The payment documents attached when the quote was created (src/payment-documents/). */
  @Column('uuid', { name: 'document_ids', array: true, default: () => "'{}'" })
  documentIds: string[];

  @Column('text', { name: 'remittance_information', nullable: true })
  remittanceInformation: string | null;

  @Column('jsonb', { name: 'sender_customer_info', nullable: true })
  senderCustomerInfo: Record<string, string | number | boolean | null> | null;

  /** QUOTE: POST /quotes (or an agent's); TRANSFER_OUT: the deprecated same-currency route made it. */
  @Column('text', { default: 'QUOTE' })
  origin: 'QUOTE' | 'TRANSFER_OUT';

  /** The transaction this quote creates when executed (allocated with the quote, as the reference shows it). */
  @Column('uuid', { name: 'transaction_id' })
  transactionId: string;

  /**
   * The SCA challenge to satisfy (as rendered: public material only) while the quote is
   * PENDING_AUTHORIZATION; null otherwise (docs/sca.md, "Quote authorization").
   */
  @Column('jsonb', { name: 'sca_challenge', nullable: true })
  scaChallenge: StoredScaChallenge | null;

  /**
   * An EMBEDDED_WALLET source: the `payloadToSign` the wallet holder stamps to release the quote
   * (rendered in `paymentInstructions`, verified by `POST /quotes/{id}/execute`); null otherwise.
   */
  @Column('text', { name: 'wallet_payload_to_sign', nullable: true })
  walletPayloadToSign: string | null;

  /** Stored status; a PENDING (or PENDING_AUTHORIZATION) quote past `expiresAt` renders EXPIRED. */
  @Column('text')
  status: QuoteStatus;

  /** Business time: set and compared on the platform's clock (src/common/schedules.ts). */
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: BusinessTime;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
