import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { InternalAccountStatus, InternalAccountType } from './customer.types.js';

/** A customer's (customerId set) or the platform's own (customerId null) holding account. */
@Entity('internal_accounts')
export class InternalAccountEntity {
  @PrimaryColumn('uuid')
  id: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('uuid', { name: 'customer_id', nullable: true })
  customerId: string | null;

  @Column('text')
  type: InternalAccountType;

  @Column('text')
  status: InternalAccountStatus;

  @Column('text')
  currency: string;

  /** EMBEDDED_WALLET accounts: wallet privacy (the signed `PATCH /internal-accounts/{id}`). */
  @Column('boolean', { name: 'private_enabled', default: false })
  privateEnabled: boolean;

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
