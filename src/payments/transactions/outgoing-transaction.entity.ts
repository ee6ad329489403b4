import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BusinessTime, RealTime } from '../../common/clock.js';
import type { DestinationKind, RateDetails } from '../quotes/quote.entity.js';

/** The reference's OutgoingTransactionStatus values this service records. */
export const OUTGOING_STATUSES = [
  'PENDING_AUTHORIZATION',
  'PENDING',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
] as const;
export type OutgoingTransactionStatus = (typeof OUTGOING_STATUSES)[number];
/** The reference's OutgoingTransactionFailureReason values this service records. */
export type OutgoingFailureReason =
  | 'QUOTE_EXPIRED'
  | 'QUOTE_EXECUTION_FAILED'
  | 'LIMIT_EXCEEDED'
  | 'PAYOUT_RETURNED'
  | 'ACCOUNT_CANNOT_RECEIVE'
  | 'COMPLIANCE_REJECTED';

/** The reference's Refund. */
export interface RefundRecord {
  reference: string;
  initiatedAt: string;
  settledAt?: string;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  reason: 'TRANSACTION_FAILED' | 'USER_CANCELLATION' | 'TIMEOUT';
}

/** One step of the status timeline (the console shows it). */
export interface TimelineStep {
  status: string;
  at: string;
  note?: string;
}

/** Money sent out of an internal account by executing a quote (id = the quote's transactionId). */
@Entity('outgoing_transactions')
export class OutgoingTransactionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  /** Null: the platform's own account paid. */
  @Column('uuid', { name: 'customer_id', nullable: true })
  customerId: string | null;

  @Column('uuid', { name: 'agent_id', nullable: true })
  agentId: string | null;

  @Column('uuid', { name: 'quote_id' })
  quoteId: string;

  @Column('text')
  status: OutgoingTransactionStatus;

  @Column('text', { name: 'failure_reason', nullable: true })
  failureReason: OutgoingFailureReason | null;

  @Column('uuid', { name: 'source_account_id', nullable: true })
  sourceAccountId: string | null;

  @Column('text', { name: 'destination_kind' })
  destinationKind: DestinationKind;

  @Column('uuid', { name: 'destination_account_id' })
  destinationAccountId: string;

  /** The receiver's UMA address (UmaAddress destinations only). */
  @Column('text', { name: 'destination_uma_address', nullable: true })
  destinationUmaAddress: string | null;

  @Column('text', { name: 'payment_rail', nullable: true })
  paymentRail: string | null;

  @Column('bigint', { name: 'sent_amount' })
  sentAmount: string;

  @Column('text', { name: 'sending_currency' })
  sendingCurrency: string;

  @Column('bigint', { name: 'received_amount' })
  receivedAmount: string;

  @Column('text', { name: 'receiving_currency' })
  receivingCurrency: string;

  @Column('double precision', { name: 'exchange_rate' })
  exchangeRate: number;

  @Column('bigint')
  fees: string;

  @Column('bigint', { name: 'platform_fees', default: '0' })
  platformFees: string;

  @Column('jsonb', { name: 'rate_details' })
  rateDetails: RateDetails;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('jsonb', { nullable: true })
  refund: RefundRecord | null;

  @Column('jsonb', { default: () => `'[]'` })
  timeline: TimelineStep[];

  /**
   * INFRASTRUCTURE due time (RealClock): when the RailWorker hands the payout to the rail (set by
   * the execute; the worker's claim lease and retry backoff move it; null once the rail answered).
   */
  @Column('timestamptz', { name: 'rail_due_real_at', nullable: true })
  railDueRealAt: RealTime | null;

  /** BUSINESS due time (the platform's Clock): when the reconciliation poll asks the rail about a payout with no final news. */
  @Column('timestamptz', { name: 'rail_settles_business_at', nullable: true })
  railSettlesBusinessAt: BusinessTime | null;

  /** The rail adapter the payout was handed to (PAYOUT_RAIL's value then). */
  @Column('text', { name: 'rail_provider', nullable: true })
  railProvider: string | null;

  /** The provider's payment id (recorded when the hand-off answered, or from the provider's news). */
  @Column('text', { name: 'rail_provider_ref', nullable: true })
  railProviderRef: string | null;

  /** Hand-offs started (a claim): past 0 the payout may exist at the provider, so it is no longer cancellable. */
  @Column('integer', { name: 'rail_send_attempts', default: 0 })
  railSendAttempts: number;

  @Column('timestamptz', { name: 'rail_sent_at', nullable: true })
  railSentAt: Date | null;

  @Column('timestamptz', { name: 'expected_settlement_at', nullable: true })
  expectedSettlementAt: Date | null;

  @Column('timestamptz', { name: 'receipt_delivery_confirmed_at', nullable: true })
  receiptDeliveryConfirmedAt: Date | null;

  @Column('timestamptz', { name: 'settled_at', nullable: true })
  settledAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
