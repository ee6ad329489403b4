import { Column, Entity, PrimaryColumn, ViewColumn, ViewEntity } from 'typeorm';
import type { TimelineStep } from './outgoing-transaction.entity.js';

/** Money arriving in an internal account: a transfer-in pull, or funds sent for a quote (sandbox). */
@Entity('incoming_transactions')
export class IncomingTransactionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'customer_id', nullable: true })
  customerId: string | null;

  @Column('text')
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

  @Column('text', { name: 'source_kind' })
  sourceKind: 'ExternalAccount' | 'RealtimeFunding';

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
