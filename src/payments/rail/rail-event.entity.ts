import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RailStatus } from './rail.js';

/**
 * One piece of a rail provider's news, as applied (RailNewsApplier): the (provider, event_id)
 * primary key deduplicates redeliveries and replays (inserted ON CONFLICT DO NOTHING in the
 * transaction that applies it).
 */
@Entity('rail_events')
export class RailEventEntity {
  @PrimaryColumn('text')
  provider: string;

  @PrimaryColumn('text', { name: 'event_id' })
  eventId: string;

  @Column('uuid', { name: 'transaction_id' })
  transactionId: string;

  @Column('text', { name: 'provider_ref' })
  providerRef: string;

  @Column('text')
  status: RailStatus;

  @Column('text', { name: 'failure_reason', nullable: true })
  failureReason: string | null;

  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt: Date;

  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;
}
