import { Injectable } from '@nestjs/common';
import { type BusinessTime, later, type RealTime } from '../../common/clock.js';
import type { RailOutcome } from '../transactions/outgoing-transaction.entity.js';
import { Rail, RailPayment, RailPlan, RailStatus } from './rail.js';

/** Real-time seconds between a sandbox payment's steps (PENDING -> PROCESSING -> final). */
export const SANDBOX_RAIL_STEP_MS = 1000;
/** Business days a slow sandbox rail takes to settle (on the platform's clock). */
export const SANDBOX_SLOW_RAIL_DAYS = 3;

/**
 * The sandbox's magic values (docs/payments.md): the last three digits of the quote's sending
 * amount in minor units pick the outcome, as the card simulator's descriptor suffixes do.
 * `...002` fails after PROCESSING (the source is refunded exactly), `...003` completes and is then
 * returned (refunded), `...004` is a slow rail that settles SANDBOX_SLOW_RAIL_DAYS later on the
 * platform's clock (a test clock reaches it); anything else completes within seconds.
 */
export function sandboxOutcome(sendingAmount: bigint): RailOutcome {
  switch (Number(sendingAmount % 1000n)) {
    case 2:
      return 'FAIL';
    case 3:
      return 'RETURN';
    case 4:
      return 'SLOW';
    default:
      return 'COMPLETE';
  }
}

/** Beyond the rail's own steps, how long before a PROCESSING payment counts as overdue. */
export const SANDBOX_RAIL_GRACE_MS = 10 * 60_000;

@Injectable()
export class SandboxRail extends Rail {
  /** A fast payment settles within seconds, a slow one SANDBOX_SLOW_RAIL_DAYS later; then some grace. */
  expectedSettlementMs(outcome: RailOutcome | null): number {
    return (outcome === 'SLOW' ? SANDBOX_SLOW_RAIL_DAYS * 86_400_000 : SANDBOX_RAIL_STEP_MS) + SANDBOX_RAIL_GRACE_MS;
  }

  submit(payment: RailPayment, now: { real: RealTime; business: BusinessTime }): RailPlan {
    const outcome = sandboxOutcome(payment.sendingAmount);
    return {
      outcome,
      processingDueRealAt: later(now.real, SANDBOX_RAIL_STEP_MS),
      settlesBusinessAt: outcome === 'SLOW' ? later(now.business, SANDBOX_SLOW_RAIL_DAYS * 86_400_000) : null,
    };
  }

  nextStatus(current: string, outcome: RailOutcome, settled: boolean): RailStatus | null {
    if (current === 'PENDING') return 'PROCESSING';
    if (current === 'PROCESSING') {
      if (outcome === 'FAIL') return 'FAILED';
      if (outcome === 'SLOW') return settled ? 'COMPLETED' : null;
      return 'COMPLETED';
    }
    if (current === 'COMPLETED' && outcome === 'RETURN') return 'RETURNED';
    return null;
  }
}
