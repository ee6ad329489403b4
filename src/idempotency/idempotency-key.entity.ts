import { Column, Entity, PrimaryColumn } from 'typeorm';

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

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
