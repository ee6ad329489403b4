/**
 * The agent policy evaluator: a pure function of the policy, the stored usage counters, the
 * amount, the account and "now" (no I/O, no clock of its own). `AgentExecutionService` calls it
 * with the agent row locked, so the decision and the counters it updates are atomic.
 *
 * Rules (README, Agents: policy evaluation):
 * - counters reset by UTC date and month (`currentUsage` of agent-policy.ts): counters of a past
 *   UTC day or month count as zero;
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
import { currentUsage } from './agent-policy.js';
/** Converts, rounding up, and leaves an amount already in `to` unchanged. */
function inCurrency(convert, amount, to) {
    if (amount.currency === to)
        return amount.value;
    // Round binary floating-point noise (910 * 1.1 = 1001.0000000000001) before rounding up.
    return Math.ceil(Number(convert(amount.value, amount.currency, to).toFixed(6)));
}
/** The first of `accountIds` the policy's `allowedAccountIds` leaves out (none when it is null or absent). */
export function accountOutsidePolicy(policy, accountIds) {
    const allowed = policy.accountRestrictions?.allowedAccountIds;
    return allowed ? accountIds.find((id) => !allowed.includes(id)) : undefined;
}
export function evaluatePolicy(input) {
    const { policy, amount, convert } = input;
    const usage = currentUsage(input.usage, input.now);
    const limits = policy.spendingLimits;
    const deny = (limit, value, reached, currency) => ({
        outcome: 'DENIED',
        limit,
        value,
        amount: reached,
        ...(currency === undefined ? {} : { currency }),
        usage,
    });
    const outside = accountOutsidePolicy(policy, input.internalAccountIds);
    if (outside !== undefined)
        return deny('allowedAccountIds', outside, amount.value, amount.currency);
    const spend = inCurrency(convert, amount, limits.currency);
    if (spend > limits.perTransactionLimit)
        return deny('perTransactionLimit', limits.perTransactionLimit, spend, limits.currency);
    const rule = policy.accountRestrictions?.accountRules?.find((r) => r.accountId === input.sourceAccountId);
    if (rule && rule.perTransactionLimit !== null && amount.value > rule.perTransactionLimit) {
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
//# sourceMappingURL=policy-evaluator.js.map