import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BusinessTime } from '../common/clock.js';
import type { AccountInfo } from './variants/index.js';

export const EXTERNAL_ACCOUNT_STATUSES = [
  'PENDING',
  'ACTIVE',
  'PENDING_OWNERSHIP_VERIFICATION',
  'UNVERIFIED',
  'UNDER_REVIEW',
  'INACTIVE',
] as const;
export type ExternalAccountStatus = (typeof EXTERNAL_ACCOUNT_STATUSES)[number];
export const OWNERSHIP_TYPES = ['FIRST_PARTY', 'THIRD_PARTY'] as const;
export type OwnershipType = (typeof OWNERSHIP_TYPES)[number];

@Entity('external_accounts')
export class ExternalAccountEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  /** Null: the account belongs to the platform itself. */
  @Column('uuid', { name: 'customer_id', nullable: true })
  customerId: string | null;

  /** Unique within the platform among live accounts (index external_accounts_platform_account_id_per_platform). */
  @Column('text', { name: 'platform_account_id', nullable: true })
  platformAccountId: string | null;

  @Column('text', { name: 'ownership_type', nullable: true })
  ownershipType: OwnershipType | null;

  @Column('text')
  currency: string;

  @Column('text')
  status: ExternalAccountStatus;

  @Column('boolean', { name: 'default_uma_deposit_account' })
  defaultUmaDepositAccount: boolean;

  @Column('text', { name: 'beneficiary_verification_status' })
  beneficiaryVerificationStatus: string;

  @Column('jsonb', { name: 'beneficiary_verified_data', nullable: true })
  beneficiaryVerifiedData: { fullName?: string } | null;

  @Column('text', { name: 'account_type' })
  accountType: string;

  /** The create request's accountInfo, whole (account numbers included). */
  @Column('jsonb', { name: 'account_info' })
  accountInfo: AccountInfo;

  /** Normalised account identity (type + identifying fields) for duplicate detection. */
  @Column('text')
  identity: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt: Date | null;

  /** Set while the account is a trusted beneficiary (SCA: trust/untrust with their confirm step). */
  @Column('timestamptz', { name: 'trusted_at', nullable: true })
  trustedAt: Date | null;

  /** The outstanding WALLET_SIGNATURE challenge's exact message; null when none (used or never issued). */
  @Column('text', { name: 'ownership_challenge_message', nullable: true })
  ownershipChallengeMessage: string | null;

  /** When that challenge expires, on the platform's clock (src/common/schedules.ts). */
  @Column('timestamptz', { name: 'ownership_challenge_expires_at', nullable: true })
  ownershipChallengeExpiresAt: BusinessTime | null;

  /**
   * US bank account validation by micro-entry: what the return window ends with (`VALIDATED`, or
   * `RETURNED`: the account fails for good); null for accounts that are not validated this way.
   */
  @Column('text', { name: 'bank_validation', nullable: true })
  bankValidation: BankValidationOutcome | null;

  /** When the micro-entry's return window closes (banking days, the platform's clock); null once decided. */
  @Column('timestamptz', { name: 'bank_validation_due_at', nullable: true })
  bankValidationDueAt: BusinessTime | null;
}

export type BankValidationOutcome = 'VALIDATED' | 'RETURNED';
