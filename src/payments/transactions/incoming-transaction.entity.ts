import { Column, Entity, PrimaryColumn, ViewColumn, ViewEntity } from 'typeorm';
import type { BusinessTime } from '../../common/clock.js';
import type { TimelineStep } from './outgoing-transaction.entity.js';

/** Where an incoming payment came from: the sandbox's senders, another UMA participant, a bank rail. */
/** A JSON object as stored in a jsonb column. */
export type JsonObject = Record<string, string | number | boolean | object | null>;

export type IncomingOrigin = 'SANDBOX' | 'UMA' | 'BANK';

/** Money arriving in an internal account: a transfer-in pull, or funds sent for a quote (sandbox). */
@Entity('incoming_transactions')
export class IncomingTransactionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'customer_id', nullable: true })
  customerId: string | null;

  @Column('text')
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

  @Column('text', { name: 'source_kind' })
  sourceKind: 'ExternalAccount' | 'RealtimeFunding' | 'UmaAddress' | 'Bank';

  @Column('uuid', { name: 'source_account_id', nullable: true })
  sourceAccountId: string | null;

  @Column('uuid', { name: 'destination_account_id' })
  destinationAccountId: string;

  @Column('bigint', { name: 'received_amount' })
  receivedAmount: string;

  @Column('text')
  currency: string;

  @Column('uuid', { name: 'quote_id', nullable: true })
  quoteId: string | null;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('timestamptz', { name: 'receipt_delivery_confirmed_at', nullable: true })
  receiptDeliveryConfirmedAt: Date | null;

  @Column('jsonb', { default: () => `'[]'` })
  timeline: TimelineStep[];

  @Column('timestamptz', { name: 'settled_at', nullable: true })
  settledAt: Date | null;

  /** Where an incoming payment came from (IncomingPaymentsService); null for transfer-in and funded quotes. */
  @Column('text', { nullable: true })
  origin: IncomingOrigin | null;

  /** The sender's reference: one transaction per (platform, reference). */
  @Column('text', { nullable: true })
  reference: string | null;

  @Column('text', { name: 'sender_uma_address', nullable: true })
  senderUmaAddress: string | null;

  @Column('text', { name: 'receiver_uma_address', nullable: true })
  receiverUmaAddress: string | null;

  /** The payer data the sender sent (the reference's counterpartyInformation). */
  @Column('jsonb', { name: 'counterparty_information', nullable: true })
  counterpartyInformation: JsonObject | null;

  /** The sender side's opaque data, handed back to its settlement hook untouched. */
  @Column('jsonb', { nullable: true })
  settlement: JsonObject | null;

  /** The reference's IncomingTransactionFailureReason, once FAILED. */
  @Column('text', { name: 'failure_reason', nullable: true })
  failureReason: string | null;

  /** What the platform said about the receiver when it approved (`receiverCustomerInfo`). */
  @Column('jsonb', { name: 'receiver_customer_info', nullable: true })
  receiverCustomerInfo: JsonObject | null;

  /** The fields the platform asked for when it answered 422. */
  @Column('jsonb', { name: 'requested_fields', nullable: true })
  requestedFields: string[] | null;

  /** While PENDING the platform's approval: when the window closes (the platform's clock). */
  @Column('timestamptz', { name: 'decide_by', nullable: true })
  decideBy: BusinessTime | null;

  /** The sandbox's slow settlement: when a PROCESSING payment completes (the platform's clock). */
  @Column('timestamptz', { name: 'settles_business_at', nullable: true })
  settlesBusinessAt: BusinessTime | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

/** Both directions, one row per transaction (the `payment_transactions` view): what GET /transactions pages over. */
@ViewEntity({ name: 'payment_transactions', synchronize: false })
export class PaymentTransactionIndexEntity {
  @ViewColumn()
  id: string;

  @ViewColumn({ name: 'platform_id' })
  platformId: string;

  @ViewColumn({ name: 'customer_id' })
  customerId: string | null;

  @ViewColumn()
  type: 'INCOMING' | 'OUTGOING';

  @ViewColumn()
  status: string;

  @ViewColumn({ name: 'created_at' })
  createdAt: Date;
}
