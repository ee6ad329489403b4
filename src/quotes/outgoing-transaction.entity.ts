import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DestinationKind, RateDetails } from './quote.entity.js';

/** The reference's OutgoingTransactionStatus values this service records. */
export type OutgoingTransactionStatus = 'COMPLETED' | 'FAILED';
/** The reference's OutgoingTransactionFailureReason values this service records. */
export type OutgoingFailureReason = 'QUOTE_EXPIRED' | 'QUOTE_EXECUTION_FAILED' | 'LIMIT_EXCEEDED';

/** Money sent out of a customer's internal account by executing a quote (id = the quote's transactionId). */
@Entity('outgoing_transactions')
export class OutgoingTransactionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('uuid', { name: 'agent_id', nullable: true })
  agentId: string | null;

  @Column('uuid', { name: 'quote_id' })
  quoteId: string;

  @Column('text')
  status: OutgoingTransactionStatus;

  @Column('text', { name: 'failure_reason', nullable: true })
  failureReason: OutgoingFailureReason | null;

  @Column('uuid', { name: 'source_account_id' })
  sourceAccountId: string;

  @Column('text', { name: 'destination_kind' })
  destinationKind: DestinationKind;

  @Column('uuid', { name: 'destination_account_id' })
  destinationAccountId: string;

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

  @Column('jsonb', { name: 'rate_details' })
  rateDetails: RateDetails;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('timestamptz', { name: 'settled_at', nullable: true })
  settledAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
