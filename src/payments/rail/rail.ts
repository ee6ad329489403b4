import type { BusinessTime, RealTime } from '../../common/clock.js';
import type { RailOutcome } from '../transactions/outgoing-transaction.entity.js';

/** A payment handed to a rail: money already left the source and waits in RAIL_CLEARING. */
export interface RailPayment {
  transactionId: string;
  platformId: string;
  amount: bigint;
  currency: string;
  paymentRail: string | null;
  destinationAccountId: string;
  /** The quote's sending amount (the sandbox rail's magic values read it). */
  sendingAmount: bigint;
}

/** What the rail will do, as stored on the transaction (its due times drive the next step). */
export interface RailPlan {
  outcome: RailOutcome;
  /** INFRASTRUCTURE time (real clock): when the rail reports PROCESSING. */
  processingDueRealAt: RealTime;
  /** BUSINESS time (the platform's clock): when a slow rail settles; null for a fast one. */
  settlesBusinessAt: BusinessTime | null;
}

/** A status the rail reports back (the rail's status callback, PaymentLifecycle.railUpdate). */
export type RailStatus = 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'RETURNED';

/**
 * One payout rail. `submit` accepts a payment inside the execution's transaction (nothing may be
 * sent before it commits: a real adapter sends from the worker, at the plan's due time); the rail
 * answers later through `PaymentLifecycle.railUpdate(m, transactionId, status)`. The sandbox rail
 * is the first implementation; a bank partner is another adapter of this class.
 */
export abstract class Rail {
  abstract submit(payment: RailPayment, now: { real: RealTime; business: BusinessTime }): RailPlan;
  /** The rail's next status for a payment whose due time came (the sandbox decides it from the plan). */
  abstract nextStatus(current: string, outcome: RailOutcome, settled: boolean): RailStatus | null;
  /**
   * How long (ms, on the platform's clock) a payment of this plan may normally stay PROCESSING:
   * past it, the transaction is overdue (the console's Needs attention page, the
   * `rail_transactions_overdue` gauge; RailOverdue).
   */
  abstract expectedSettlementMs(outcome: RailOutcome | null): number;
}
