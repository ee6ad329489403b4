import { MAX_SAFE_MINOR_UNITS } from '../common/validation.js';
/**
 * Prices a quote (pure): the sending side pays the fees, `fixedFee + round(sending * rate)` in the
 * sending currency, and the rest converts at `multiplier`, rounded down to the receiving currency's
 * minor unit. With the receiving side locked, the smallest sending amount that delivers it. Null
 * when the amount cannot cover the fees or a total would leave the safe-integer range.
 */
export function priceQuote(input) {
    const fixed = input.crossCurrency ? input.fixedFee : 0;
    const rate = input.crossCurrency ? input.variableFeeRate : 0;
    const multiplier = input.crossCurrency ? input.multiplier : 1;
    const scale = multiplier * 10 ** (input.receivingDecimals - input.sendingDecimals);
    const variableOf = (sending) => Math.round(sending * rate);
    const received = (sending) => Math.floor(Number(((sending - fixed - variableOf(sending)) * scale).toFixed(6)));
    let sending;
    if (input.side === 'SENDING') {
        sending = input.amount;
    }
    else {
        const net = Math.ceil(Number((input.amount / scale).toFixed(6)));
        sending = Math.ceil((net + fixed) / (1 - rate));
        while (sending > 1 && received(sending - 1) >= input.amount)
            sending -= 1;
        while (received(sending) < input.amount && sending <= MAX_SAFE_MINOR_UNITS)
            sending += 1;
    }
    const receiving = input.side === 'SENDING' ? received(sending) : input.amount;
    if (!(receiving > 0) || sending > MAX_SAFE_MINOR_UNITS || receiving > MAX_SAFE_MINOR_UNITS)
        return null;
    const variable = variableOf(sending);
    return {
        totalSendingAmount: sending,
        totalReceivingAmount: receiving,
        feesIncluded: fixed + variable,
        exchangeRate: multiplier,
        rateDetails: {
            counterpartyMultiplier: multiplier,
            counterpartyFixedFee: 0,
            serviceApiMultiplier: 1 - rate,
            serviceApiFixedFee: fixed,
            serviceApiVariableFeeRate: rate,
            serviceApiVariableFeeAmount: variable,
        },
    };
}
//# sourceMappingURL=quote-pricing.js.map