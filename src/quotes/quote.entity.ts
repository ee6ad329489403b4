import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BusinessTime } from '../common/clock.js';

export const QUOTE_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
export const LOCK_SIDES = ['SENDING', 'RECEIVING'] as const;
export type LockSide = (typeof LOCK_SIDES)[number];
/** Which kind of account a quote pays into (the type prefix of its public id). */
export type DestinationKind = 'InternalAccount' | 'ExternalAccount';

/** The spec's `rateDetails` (the reference's OutgoingRateDetails, with the spec's `serviceApi*` names). */
export interface RateDetails {
  counterpartyMultiplier: number;
  counterpartyFixedFee: number;
  serviceApiMultiplier: number;
  serviceApiFixedFee: number;
  serviceApiVariableFeeRate: number;
  serviceApiVariableFeeAmount: number;
}

/** A priced, time-limited offer to move money from a customer's internal account. */
@Entity('quotes')
export class QuoteEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'agent_id' })
  agentId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('uuid', { name: 'source_account_id' })
  sourceAccountId: string;

  @Column('text', { name: 'destination_kind' })
  destinationKind: DestinationKind;

  @Column('uuid', { name: 'destination_account_id' })
  destinationAccountId: string;

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

  @Column('jsonb', { name: 'rate_details' })
  rateDetails: RateDetails;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('text', { name: 'purpose_of_payment', nullable: true })
  purposeOfPayment: string | null;

  /** The transaction this quote creates when executed (allocated with the quote, as the reference shows it). */
  @Column('uuid', { name: 'transaction_id' })
  transactionId: string;

  /** Stored status; a PENDING quote past `expiresAt` renders EXPIRED. */
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
