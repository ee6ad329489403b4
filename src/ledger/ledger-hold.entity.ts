import { Column, Entity, PrimaryColumn } from 'typeorm';

export const LEDGER_HOLD_STATUSES = ['OPEN', 'CLOSED'] as const;
export type LedgerHoldStatus = (typeof LEDGER_HOLD_STATUSES)[number];

/** Funds reserved on an account (e.g. by a card authorization): captured into a debit or released. */
@Entity('ledger_holds')
export class LedgerHoldEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'account_id' })
  accountId: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
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
