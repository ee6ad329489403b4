import { MAX_SAFE_MINOR_UNITS } from '../../common/validation.js';
import type { LockSide, RateDetails } from '../quotes/quote.entity.js';

export interface PricingInput {
  side: LockSide;
  /** Minor units of the locked side's currency. */
  amount: number;
  sendingDecimals: number;
  receivingDecimals: number;
  /** Major units of the receiving currency per major unit of the sending currency. */
  multiplier: number;
  /** Whether the currencies differ: the service's fees apply only to cross-currency quotes. */
  crossCurrency: boolean;
  fixedFee: number;
  variableFeeRate: number;
  /** The platform's fee (platformFeeOverride), on every quote: fixed minor units + a fraction. */
  platformFixedFee?: number;
  platformVariableFeeRate?: number;
}

export interface Pricing {
  totalSendingAmount: number;
  totalReceivingAmount: number;
  /** Every fee, the platform's included, in the sending currency. */
  feesIncluded: number;
  platformFeesIncluded: number;
  exchangeRate: number;
  rateDetails: RateDetails;
}

/**
 * Prices a quote (pure). The sending side pays the fees, in the sending currency: the service's
 * `fixedFee + round(sending * rate)` (cross-currency only) plus the platform's
 * `platformFixedFee + round(sending * platformRate)`; the rest converts at `multiplier`, rounded
 * DOWN to the receiving currency's minor unit (the remainder stays with the FX desk). With the
 * receiving side locked, the smallest sending amount that delivers at least it (exactly it: the
 * receiving amount is the one locked). Null when the amount cannot cover the fees or a total would
 * leave the safe-integer range.
 */
export function priceQuote(input: PricingInput): Pricing | null {
  const fixed = input.crossCurrency ? input.fixedFee : 0;
  const rate = input.crossCurrency ? input.variableFeeRate : 0;
  const platformFixed = input.platformFixedFee ?? 0;
  const platformRate = input.platformVariableFeeRate ?? 0;
  const multiplier = input.crossCurrency ? input.multiplier : 1;
  const scale = multiplier * 10 ** (input.receivingDecimals - input.sendingDecimals);
  const serviceVariable = (sending: number) => Math.round(sending * rate);
  const platformFee = (sending: number) => platformFixed + Math.round(sending * platformRate);
  const fees = (sending: number) => fixed + serviceVariable(sending) + platformFee(sending);
  const received = (sending: number) => Math.floor(Number(((sending - fees(sending)) * scale).toFixed(6)));

  let sending: number;
  if (input.side === 'SENDING') {
    sending = input.amount;
  } else {
    const net = Math.ceil(Number((input.amount / scale).toFixed(6)));
    sending = Math.ceil((net + fixed + platformFixed) / Math.max(1 - rate - platformRate, 1e-9));
    if (!Number.isFinite(sending) || sending > MAX_SAFE_MINOR_UNITS) return null;
    while (sending > 1 && received(sending - 1) >= input.amount) sending -= 1;
    while (received(sending) < input.amount && sending <= MAX_SAFE_MINOR_UNITS) sending += 1;
  }
  const receiving = input.side === 'SENDING' ? received(sending) : input.amount;
  if (!(receiving > 0) || sending > MAX_SAFE_MINOR_UNITS || receiving > MAX_SAFE_MINOR_UNITS) return null;
  return {
    totalSendingAmount: sending,
    totalReceivingAmount: receiving,
    feesIncluded: fees(sending),
    platformFeesIncluded: platformFee(sending),
    exchangeRate: multiplier,
    rateDetails: {
      counterpartyMultiplier: multiplier,
      counterpartyFixedFee: 0,
      serviceApiMultiplier: 1 - rate,
      serviceApiFixedFee: fixed,
      serviceApiVariableFeeRate: rate,
      serviceApiVariableFeeAmount: serviceVariable(sending),
    },
  };
}
