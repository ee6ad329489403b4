import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { InternalAccountStatus, InternalAccountType } from './customer.types.js';

/** A customer's (customerId set) or the platform's own (customerId null) holding account. */
@Entity('internal_accounts')
export class InternalAccountEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'customer_id', nullable: true })
  customerId: string | null;

  @Column('text')
  type: InternalAccountType;

  @Column('text')
  status: InternalAccountStatus;

  @Column('text')
  currency: string;

  /**
   * Cached balance in minor units (bigint, read as a decimal string): always equal to the
   * `balanceAfter` of the account's latest ledger entry, written in the same transaction.
   */
  @Column('bigint')
  balance: string;

  /**
   * Sum of the open holds' `remaining` (0 to `balance`), written with the holds: `balance - held` is
   * available (rendered `balance`), `balance` includes held funds (rendered `totalBalance`).
   */
  @Column('bigint')
  held: string;

  /** Sequence number of the latest ledger entry (0 before the first movement). */
  @Column('bigint', { name: 'ledger_seq' })
  ledgerSeq: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

/** The service's own ledger accounts (see docs/ledger.md), one per (platform, currency, kind). */
export const SYSTEM_ACCOUNT_KINDS = [
  'RAIL_CLEARING',
  'FX',
  'FEES_COLLECTED',
  'PLATFORM_REVENUE',
  'SANDBOX_FUNDING',
  'CARD_SETTLEMENT',
  'OPENING_BALANCE',
  'UMA_SETTLEMENT',
] as const;
export type SystemAccountKind = (typeof SYSTEM_ACCOUNT_KINDS)[number];

/**
 * One posting: a line of a balanced journal (all the postings of one movement share `journalId`
 * and sum to zero per currency). It posts either to an internal account (`accountId`, with the
 * account's `seq` and resulting `balanceAfter`) or to one of the service's own accounts
 * (`systemAccount` of the entry's platform and currency; no seq, its balance is the sum of its
 * postings). Append-only (a database trigger refuses UPDATE and DELETE).
 */
@Entity('ledger_entries')
export class LedgerEntryEntity {
  @PrimaryColumn('uuid')
  id: string;

  /** The movement this posting belongs to (uuid shared by its balanced postings). */
  @Column('uuid', { name: 'journal_id' })
  journalId: string;

  /** The internal account posted to (null for a system account posting). */
  @Column('uuid', { name: 'account_id', nullable: true })
  accountId: string | null;

  /** The system account posted to (null for an internal account posting). */
  @Column('text', { name: 'system_account', nullable: true })
  systemAccount: SystemAccountKind | null;

  @Column('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('text')
  currency: string;

  /** 1, 2, 3... per internal account (unique with the account); null for system accounts. */
  @Column('bigint', { nullable: true })
  seq: string | null;

  /** Signed minor units: positive credits, negative debits; never zero. */
  @Column('bigint')
  amount: string;

  /** The internal account's balance after this posting (null for system accounts). */
  @Column('bigint', { name: 'balance_after', nullable: true })
  balanceAfter: string | null;

  @Column('text')
  reason: string;

  @Column('text', { nullable: true })
  reference: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}

export const LEDGER_HOLD_STATUSES = ['OPEN', 'CLOSED'] as const;
export type LedgerHoldStatus = (typeof LEDGER_HOLD_STATUSES)[number];

/** Funds reserved on an account (e.g. by a card authorization): captured into a debit or released. */
@Entity('ledger_holds')
export class LedgerHoldEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'account_id' })
  accountId: string;

  @Column('uuid', { name: 'platform_id' })
  platformId: string;

  /** Minor units held when the hold was placed. */
  @Column('bigint')
  amount: string;

  /** Minor units still held (0 once CLOSED). */
  @Column('bigint')
  remaining: string;

  @Column('text')
  status: LedgerHoldStatus;

  @Column('text')
  reason: string;

  @Column('text', { nullable: true })
  reference: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
