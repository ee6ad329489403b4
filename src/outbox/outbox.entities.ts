import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { RealTime } from '../common/clock.js';
import type { WebhookEventStatus, WebhookType } from './webhook-types.js';

/** One event to deliver as a webhook. Written in the producer's transaction (OutboxService.write). */
@Entity('outbox_events')
export class OutboxEventEntity {
  /** The uuid of the envelope id `Webhook:<uuid>`: the same on every attempt and redelivery. */
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('text')
  type: WebhookType;

  /** The aggregate's resource type (`Card` for `Card:<uuid>`): Debezium's outbox router routes on it. */
  @Column({ type: 'text', name: 'aggregate_type', insert: false, update: false })
  aggregateType: string;

  /** The resource the event is about (e.g. `Card:<uuid>`); events of one aggregate go out in `seq` order. */
  @Column('text', { name: 'aggregate_id' })
  aggregateId: string;

  @Column('bigint')
  seq: string;

  /** The exact JSON envelope sent (and signed), byte for byte. */
  @Column('text')
  body: string;

  @Column('text')
  status: WebhookEventStatus;

  @Column('int', { name: 'attempt_count' })
  attemptCount: number;

  @Column('timestamptz', { name: 'next_attempt_at' })
  nextAttemptAt: RealTime;

  /** The 7-day give-up window runs from here: creation, or the last redelivery request. */
  @Column('timestamptz', { name: 'retrying_since' })
  retryingSince: RealTime;

  /** Lease of the worker delivering it; a worker that dies loses it when it expires. */
  @Column('timestamptz', { name: 'locked_until', nullable: true })
  lockedUntil: RealTime | null;

  /** Fences a worker whose lease expired: its late outcome no longer matches and is not applied. */
  @Column('uuid', { name: 'lock_token', nullable: true })
  lockToken: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'delivered_at', nullable: true })
  deliveredAt: Date | null;
}

/** Every delivery attempt, successful or not. */
@Entity('outbox_attempts')
export class OutboxAttemptEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'event_id' })
  eventId: string;

  @Column('timestamptz', { name: 'attempted_at' })
  attemptedAt: Date;

  @Column('int', { name: 'duration_ms' })
  durationMs: number;

  @Column('int', { name: 'response_status', nullable: true })
  responseStatus: number | null;

  /** First 1 KiB of the response body. */
  @Column('text', { name: 'response_body', nullable: true })
  responseBody: string | null;

  @Column('text', { nullable: true })
  error: string | null;
}

/** Per-aggregate sequence counter: the row lock serializes writers of one aggregate. */
@Entity('outbox_aggregates')
export class OutboxAggregateEntity {
  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @PrimaryColumn('text', { name: 'aggregate_id' })
  aggregateId: string;

  @Column('bigint', { name: 'last_seq' })
  lastSeq: string;
}
