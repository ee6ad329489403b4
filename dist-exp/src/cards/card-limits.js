/**
 * Card spend limits, pure (no I/O, no clock of its own): what an authorization may use.
 *
 * - The effective limit of each kind is the lower of the card's value and the platform's
 *   `cardConfigs` value (null on one side means that side sets none); the stored card value does
 *   not change.
 * - Daily windows are UTC calendar days [00:00, 24:00) of the instant the caller passes (from the
 *   Clock).
 * - Reaching a limit exactly is allowed: an authorization of exactly `maxSpendPerTransaction`,
 *   one bringing the day's spend to exactly `maxSpendPerDay`, or the count to exactly
 *   `maxTransactionsPerDay`; one unit more is declined.
 * - The day's usage counts every approved authorization of the day at the amount it was approved
 *   for: returns, reversals and expiries do not restore capacity (the caller never subtracts them).
 */
export const CARD_LIMIT_NAMES = ['maxSpendPerTransaction', 'maxSpendPerDay', 'maxTransactionsPerDay'];
/** The lower of two optional limits (null: no limit on that side). */
function lower(a, b) {
    if (a === null)
        return b;
    if (b === null)
        return a;
    return Math.min(a, b);
}
/** Effective limits: per kind, the lower of the card's and the platform's. */
export function effectiveLimits(card, platform) {
    return {
        maxSpendPerTransaction: lower(card.maxSpendPerTransaction, platform.maxSpendPerTransaction),
        maxSpendPerDay: lower(card.maxSpendPerDay, platform.maxSpendPerDay),
        maxTransactionsPerDay: lower(card.maxTransactionsPerDay, platform.maxTransactionsPerDay),
    };
}
/** The UTC calendar day containing `at`: [start, end). */
export function utcDay(at) {
    const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
    return { start, end: new Date(start.getTime() + 86_400_000) };
}
/**
 * Whether an authorization of `amount` fits the effective `limits` given the day's `usage` so far.
 * Checked in the order per-transaction, daily spend, daily count; the first exceeded is reported.
 */
export function checkAuthorization(amount, limits, usage) {
    const perTx = limits.maxSpendPerTransaction;
    if (perTx !== null && amount > BigInt(perTx))
        return { approved: false, limit: 'maxSpendPerTransaction', effective: perTx };
    const perDay = limits.maxSpendPerDay;
    if (perDay !== null && usage.spent + amount > BigInt(perDay))
        return { approved: false, limit: 'maxSpendPerDay', effective: perDay };
    const count = limits.maxTransactionsPerDay;
    if (count !== null && usage.count + 1 > count)
        return { approved: false, limit: 'maxTransactionsPerDay', effective: count };
    return { approved: true };
}
//# sourceMappingURL=card-limits.js.map