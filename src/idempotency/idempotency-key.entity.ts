import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BusinessTime } from '../common/clock.js';

@Entity('idempotency_keys')
export class IdempotencyKeyEntity {
  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @PrimaryColumn('text')
  key: string;

  /** SHA-256 of method, path and canonical body. */
  @Column('text')
  fingerprint: string;

  @Column('int', { name: 'response_status' })
  responseStatus: number;

  @Column('jsonb', { name: 'response_body', nullable: true })
  responseBody: unknown;

  /** Business time: the key's 24 hours count on the platform's clock (src/common/schedules.ts). */
  @Column('timestamptz', { name: 'created_at' })
  createdAt: BusinessTime;
}
