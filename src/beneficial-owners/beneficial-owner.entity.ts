import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { KycStatus } from '../customers/customer.types.js';

/** A beneficial owner, director or officer of a BUSINESS customer. */
@Entity('beneficial_owners')
export class BeneficialOwnerEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'customer_id' })
  customerId: string;

  @Column('text', { array: true })
  roles: string[];

  @Column('integer', { name: 'ownership_percentage' })
  ownershipPercentage: number;

  /** The reference's personalInfo without `identifier` (sealed apart). */
  @Column('jsonb', { name: 'personal_info' })
  personalInfo: Record<string, unknown>;

  /** The identification number, sealed by SecretBox (src/secrets/); never returned in full. */
  @Column('text', { nullable: true, select: false })
  identifier: string | null;

  @Column('text', { name: 'kyc_status' })
  kycStatus: KycStatus;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
