/**
 * The agent policy evaluator: a pure function of the policy, the stored usage counters, the
 * amount, the account and "now" (no I/O, no clock of its own). `AgentExecutionService` calls it
 * with the agent row locked, so the decision and the counters it updates are atomic.
 *
 * Rules (README, Agents: policy evaluation):
 * - counters reset by UTC calendar: a stored `dailyResetDate` (`YYYY-MM-DD`, the day the daily
 *   counters next reset) on or before today's UTC date means today's counters are zero; the same
 *   for `monthlyResetMonth` (`YYYY-MM`) and the monthly spend;
 * - hard limits, each "exactly at the limit is allowed, one unit over is refused": the policy's
 *   `perTransactionLimit`, the source account rule's `perTransactionLimit` (in the account's
 *   currency), `dailyTransactionLimit` (count including this one), `dailyLimit` and `monthlyLimit`
 *   (spend including this amount); `allowedAccountIds` (when set) must name every internal account
 *   the transfer touches;
 * - then the execution mode: the source account rule's `executionMode` when the account has a
 *   rule, else `defaultExecutionMode`; `APPROVAL_REQUIRED`, or an amount strictly above
 *   `approvalThresholds.amount`, needs the platform's approval; otherwise it runs at once.
 * Amounts in another currency than a limit's are converted with `convert` (the caller's rate
 * snapshot), rounding up so a conversion never lets an amount slip under a limit.
 */

export type ExecutionMode = 'AUTO' | 'APPROVAL_REQUIRED';

/** The members of an AgentPolicy the evaluator reads (the stored policy, defaults applied). */
export interface EvaluatedPolicy {
  defaultExecutionMode: ExecutionMode;
  spendingLimits: {
    currency: string;
    perTransactionLimit: number;
    dailyLimit?: number | null;
    dailyTransactionLimit?: number | null;
    monthlyLimit?: number | null;
  };
  accountRestrictions?: {
    allowedAccountIds?: string[] | null;
    accountRules?: Array<{
      accountId: string;
      executionMode?: ExecutionMode | null;
      perTransactionLimit?: number | null;
    }> | null;
  } | null;
  approvalThresholds?: { currency?: string | null; amount?: number | null } | null;
}

/** The spec's `usage` object. */
export interface AgentUsage {
  dailyTransactionCount: number;
  dailySpend: number;
  monthlySpend: number;
  /** `YYYY-MM-DD`: the UTC date at which the daily counters next reset. */
  dailyResetDate: string;
  /** `YYYY-MM`: the UTC month at which the monthly spend next resets. */
  monthlyResetMonth: string;
}

export type LimitName =
  | 'perTransactionLimit'
  | 'accountRules.perTransactionLimit'
  | 'dailyTransactionLimit'
  | 'dailyLimit'
  | 'monthlyLimit'
  | 'allowedAccountIds';

export type ApprovalCause = 'DEFAULT_EXECUTION_MODE' | 'ACCOUNT_EXECUTION_MODE' | 'APPROVAL_THRESHOLD';

export interface PolicyDenial {
  outcome: 'DENIED';
  limit: LimitName;
  /** The limit's value (a count for dailyTransactionLimit), or the offending account id. */
  value: number | string;
  /** What would have been reached: the amount, the day's or month's spend with it, the day's count with it. */
  amount: number;
  /** The currency of `value` and `amount` (absent for the count and the account restriction). */
  currency?: string;
  usage: AgentUsage;
}

export interface PolicyApproval {
  outcome: 'APPROVAL_REQUIRED';
  cause: ApprovalCause;
  /** The counters as of now (after any reset); a pending action reserves nothing. */
  usage: AgentUsage;
}

export interface PolicyAllowance {
  outcome: 'AUTO';
  usage: AgentUsage;
  /** The counters once this amount is spent. */
  usageAfter: AgentUsage;
}

export type PolicyDecision = PolicyDenial | PolicyApproval | PolicyAllowance;

/** Converts minor units of `from` into minor units of `to`. */
export type Convert = (amount: number, from: string, to: string) => number;

export interface EvaluationInput {
  policy: EvaluatedPolicy;
  usage: AgentUsage;
  /** The amount leaving the source account, in its currency. */
  amount: { value: number; currency: string };
  /** The source internal account (`InternalAccount:<uuid>`). */
  sourceAccountId: string;
  /** Every internal account the transfer touches (source, and the destination when internal). */
  internalAccountIds: string[];
  now: Date;
  convert: Convert;
  /**
   * At approval the platform has decided: the execution mode and threshold no longer apply, only
   * the hard limits (an approved action must still fit the counters of the day it runs).
   */
  approved?: boolean;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const month = (d: Date) => d.toISOString().slice(0, 7);

/** The UTC date after `now`'s (`YYYY-MM-DD`). */
export function nextUtcDate(now: Date): string {
  return day(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)));
}

/** The UTC month after `now`'s (`YYYY-MM`). */
export function nextUtcMonth(now: Date): string {
  return month(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
}

/** Fresh counters at `now`: zero, resetting tomorrow and next month (UTC). */
export function initialUsage(now: Date): AgentUsage {
  return {
    dailyTransactionCount: 0,
    dailySpend: 0,
    monthlySpend: 0,
    dailyResetDate: nextUtcDate(now),
    monthlyResetMonth: nextUtcMonth(now),
  };
}

/** The counters as they stand at `now`: zeroed (with new reset dates) once their UTC day or month has passed. */
export function usageAt(usage: AgentUsage, now: Date): AgentUsage {
  const dailyReset = day(now) >= usage.dailyResetDate;
  const monthlyReset = month(now) >= usage.monthlyResetMonth;
  if (!dailyReset && !monthlyReset) return usage;
  return {
    dailyTransactionCount: dailyReset ? 0 : usage.dailyTransactionCount,
    dailySpend: dailyReset ? 0 : usage.dailySpend,
    monthlySpend: monthlyReset ? 0 : usage.monthlySpend,
    dailyResetDate: dailyReset ? nextUtcDate(now) : usage.dailyResetDate,
    monthlyResetMonth: monthlyReset ? nextUtcMonth(now) : usage.monthlyResetMonth,
  };
}

/** Converts, rounding up, and leaves an amount already in `to` unchanged. */
function inCurrency(convert: Convert, amount: { value: number; currency: string }, to: string): number {
  if (amount.currency === to) return amount.value;
  // Round binary floating-point noise (910 * 1.1 = 1001.0000000000001) before rounding up.
  return Math.ceil(Number(convert(amount.value, amount.currency, to).toFixed(6)));
}

export function evaluatePolicy(input: EvaluationInput): PolicyDecision {
  const { policy, amount, convert } = input;
  const usage = usageAt(input.usage, input.now);
  const limits = policy.spendingLimits;
  const deny = (limit: LimitName, value: number | string, reached: number, currency?: string): PolicyDenial => ({
    outcome: 'DENIED',
    limit,
    value,
    amount: reached,
    ...(currency === undefined ? {} : { currency }),
    usage,
  });

  const allowed = policy.accountRestrictions?.allowedAccountIds;
  if (allowed) {
    const outside = input.internalAccountIds.find((id) => !allowed.includes(id));
    if (outside !== undefined) return deny('allowedAccountIds', outside, amount.value, amount.currency);
  }

  const spend = inCurrency(convert, amount, limits.currency);
  if (spend > limits.perTransactionLimit)
    return deny('perTransactionLimit', limits.perTransactionLimit, spend, limits.currency);

  const rule = policy.accountRestrictions?.accountRules?.find((r) => r.accountId === input.sourceAccountId);
  if (rule?.perTransactionLimit != null && amount.value > rule.perTransactionLimit) {
    return deny('accountRules.perTransactionLimit', rule.perTransactionLimit, amount.value, amount.currency);
  }

  const count = usage.dailyTransactionCount + 1;
  if (limits.dailyTransactionLimit != null && count > limits.dailyTransactionLimit) {
    return deny('dailyTransactionLimit', limits.dailyTransactionLimit, count);
  }
  const daily = usage.dailySpend + spend;
  if (limits.dailyLimit != null && daily > limits.dailyLimit)
    return deny('dailyLimit', limits.dailyLimit, daily, limits.currency);
  const monthly = usage.monthlySpend + spend;
  if (limits.monthlyLimit != null && monthly > limits.monthlyLimit) {
    return deny('monthlyLimit', limits.monthlyLimit, monthly, limits.currency);
  }

  if (!input.approved) {
    const mode = rule?.executionMode ?? policy.defaultExecutionMode;
    if (mode === 'APPROVAL_REQUIRED') {
      return {
        outcome: 'APPROVAL_REQUIRED',
        cause: rule?.executionMode ? 'ACCOUNT_EXECUTION_MODE' : 'DEFAULT_EXECUTION_MODE',
        usage,
      };
    }
    const threshold = policy.approvalThresholds;
    if (threshold?.amount != null) {
      const thresholdCurrency = threshold.currency ?? limits.currency;
      if (inCurrency(convert, amount, thresholdCurrency) > threshold.amount) {
        return { outcome: 'APPROVAL_REQUIRED', cause: 'APPROVAL_THRESHOLD', usage };
      }
    }
  }

  return {
    outcome: 'AUTO',
    usage,
    usageAfter: { ...usage, dailyTransactionCount: count, dailySpend: daily, monthlySpend: monthly },
  };
}
