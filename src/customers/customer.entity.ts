import { Column, Entity, PrimaryColumn } from 'typeorm';
import type {
  ContactVerification,
  CustomerProfile,
  CustomerType,
  EndUserTermsConsent,
  KycStatus,
} from './customer.types.js';

@Entity('customers')
export class CustomerEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  /** Unique among the platform's active customers (partial unique index). */
  @Column('text', { name: 'platform_customer_id' })
  platformCustomerId: string;

  @Column('text', { name: 'customer_type' })
  customerType: CustomerType;

  /** KYC (individuals) or KYB (businesses) status; set by KYC review, in sandbox by POST /sandbox/customers/{id}/kyc. */
  @Column('text', { name: 'kyc_status' })
  kycStatus: KycStatus;

  @Column('text', { nullable: true })
  region: string | null;

  @Column('text', { array: true })
  currencies: string[];

  @Column('text', { nullable: true })
  email: string | null;

  @Column('text', { name: 'phone_number', nullable: true })
  phoneNumber: string | null;

  @Column('text', { name: 'uma_address' })
  umaAddress: string;

  /** Variant-specific members (see CustomerProfile). */
  @Column('jsonb')
  profile: CustomerProfile;

  /** Write-only identification number (SSN / ITIN): stored for onboarding, never returned. */
  @Column('text', { nullable: true, select: false })
  identifier: string | null;

  @Column('jsonb', { name: 'end_user_terms_consent', nullable: true })
  endUserTermsConsent: EndUserTermsConsent | null;

  /** The channels the customer's region requires verified (docs/customers.md#contact-verification); null: none. */
  @Column('jsonb', { name: 'contact_verification', nullable: true })
  contactVerification: ContactVerification | null;

  @Column('boolean', { name: 'is_deleted' })
  isDeleted: boolean;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
