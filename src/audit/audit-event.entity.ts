import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RealTime } from '../common/clock.js';

/** One audit event (append-only: see the AuditTrail migration). Written only by `AuditTrail`. */
@Entity('audit_events')
export class AuditEventEntity {
  @PrimaryColumn('uuid')
  id: string;

  /** The hash chain: the platform id, or the nil uuid when no platform could be named. */
  @Column('uuid')
  chain: string;

  /** Position in the chain (1, 2, ...), in commit order; null until the sealer links it. */
  @Column('bigint', { nullable: true })
  seq: string | null;

  /** Append order (the unsealed tail is walked in it); set by the database. */
  @Column({ type: 'bigint', insert: false, update: false })
  pos: string;

  @Column('uuid', { name: 'platform_id', nullable: true })
  platformId: string | null;

  /** Real time: an audit record says when it really happened; retention counts from it (src/common/schedules.ts). */
  @Column('timestamptz', { name: 'created_at' })
  createdAt: RealTime;

  @Column('text', { name: 'actor_type' })
  actorType: string;

  @Column('text', { name: 'actor_id', nullable: true })
  actorId: string | null;

  @Column('text')
  action: string;

  @Column('text', { name: 'resource_ids', array: true })
  resourceIds: string[];

  @Column('int')
  status: number;

  @Column('text', { name: 'error_code', nullable: true })
  errorCode: string | null;

  @Column('text', { name: 'request_id', nullable: true })
  requestId: string | null;

  @Column('text', { name: 'source_address', nullable: true })
  sourceAddress: string | null;

  @Column('text', { name: 'user_agent', nullable: true })
  userAgent: string | null;

  @Column('text', { name: 'changed_fields', array: true })
  changedFields: string[];

  @Column('text', { name: 'prev_hash', nullable: true })
  prevHash: string | null;

  /** null until sealed */
  @Column('text', { nullable: true })
  hash: string | null;

  /** sha256 of the canonical text, written with the event (null on events appended before it existed). */
  @Column('text', { nullable: true })
  digest: string | null;

  /** A counted refusal: how many identical refusals the row stands for (1 otherwise). */
  @Column('int')
  count: number;

  /** A counted refusal: the last one's time (`createdAt` is the first's); null otherwise. */
  @Column('timestamptz', { name: 'last_seen', nullable: true })
  lastSeen: Date | null;
}
