import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { BusinessTime, RealTime } from '../../common/clock.js';
import type { RailStatus } from './rail.js';

/** What the sandbox rail does with a payment, chosen by its magic amount (docs/payments.md). */
export type SandboxRailOutcome = 'COMPLETE' | 'SLOW' | 'FAIL' | 'RETURN';

/**
 * The sandbox rail's own side of a payout (the simulated provider's record, owned by
 * SandboxRailAdapter): one per transaction (its idempotency key), the news it reported and the
 * next it will report, when.
 */
@Entity('sandbox_rail_payments')
export class SandboxRailPaymentEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'transaction_id' })
  transactionId: string;

  @PrimaryColumn('uuid', { name: 'platform_id' })
  platformId: string;

  @Column('text')
  outcome: SandboxRailOutcome;

  /** The statuses reported so far, in order, with when (the sandbox's `fetch` answers them). */
  @Column('jsonb', { default: () => `'[]'` })
  reported: Array<{ status: RailStatus; at: string }>;

  @Column('text', { name: 'next_status', nullable: true })
  nextStatus: RailStatus | null;

  /** INFRASTRUCTURE time: when the next fast step's news is due (a second after the previous). */
  @Column('timestamptz', { name: 'due_real_at', nullable: true })
  dueRealAt: RealTime | null;

  /** BUSINESS time (the platform's clock): when a slow payment settles (a test clock reaches it). */
  @Column('timestamptz', { name: 'settles_business_at', nullable: true })
  settlesBusinessAt: BusinessTime | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
