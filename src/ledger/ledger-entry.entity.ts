import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { SystemAccountKind } from './system-accounts.js';

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

  @PrimaryColumn('uuid', { name: 'platform_id' })
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
