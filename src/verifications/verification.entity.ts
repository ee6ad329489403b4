import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BusinessTime } from '../common/clock.js';
import type { VerificationError, VerificationStatus } from './verification.types.js';

/** One submission of a customer for KYC (individual) or KYB (business). */
@Entity('verifications')
export class VerificationEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text')
  status: VerificationStatus;

  @Column('jsonb')
  errors: VerificationError[];

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

/** A hosted sandbox KYC link: single-use, expiring; only the token's SHA-256 is stored. */
@Entity('kyc_links')
export class KycLinkEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text', { name: 'token_hash' })
  tokenHash: string;

  @Column('text', { name: 'redirect_uri', nullable: true })
  redirectUri: string | null;

  /** BUSINESS due time (the platform's Clock; src/common/schedules.ts). */
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: BusinessTime;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
