import { priceQuote, PricingInput } from '../../../src/payments/exchange-rates/quote-pricing.js';
import { parseRateTable } from '../../../src/payments/exchange-rates/fx-rates.service.js';

const base: PricingInput = {
  side: 'SENDING',
  amount: 10_000,
  sendingDecimals: 2,
  receivingDecimals: 2,
  multiplier: 0.92,
  crossCurrency: true,
  fixedFee: 10,
  variableFeeRate: 0.003,
};

describe('quote pricing', () => {
  it('same currency is 1:1 without fees, whichever side is locked', () => {
    for (const side of ['SENDING', 'RECEIVING'] as const) {
      expect(priceQuote({ ...base, side, crossCurrency: false, amount: 1234 })).toEqual({
        totalSendingAmount: 1234,
        totalReceivingAmount: 1234,
        feesIncluded: 0,
        platformFeesIncluded: 0,
        exchangeRate: 1,
        rateDetails: {
          counterpartyMultiplier: 1,
          counterpartyFixedFee: 0,
          serviceApiMultiplier: 1,
          serviceApiFixedFee: 0,
          serviceApiVariableFeeRate: 0,
          serviceApiVariableFeeAmount: 0,
        },
      });
    }
  });

  it('sending locked: fees come off the sending amount, the rest converts rounding down', () => {
    // 10000 - 10 - 30 = 9960 cents -> 9163.2 -> 9163 EUR cents.
    expect(priceQuote(base)).toMatchObject({
      totalSendingAmount: 10_000,
      totalReceivingAmount: 9163,
      feesIncluded: 40,
      exchangeRate: 0.92,
      rateDetails: { serviceApiFixedFee: 10, serviceApiVariableFeeAmount: 30, serviceApiVariableFeeRate: 0.003 },
    });
  });

  it('receiving locked: the smallest sending amount that delivers it', () => {
    const p = priceQuote({ ...base, side: 'RECEIVING', amount: 9163 })!;
    expect(p.totalReceivingAmount).toBe(9163);
    expect(p.totalSendingAmount).toBeLessThanOrEqual(10_000);
    const less = priceQuote({ ...base, amount: p.totalSendingAmount - 1 })!;
    expect(less.totalReceivingAmount).toBeLessThan(9163);
    expect(priceQuote({ ...base, amount: p.totalSendingAmount })!.totalReceivingAmount).toBeGreaterThanOrEqual(9163);
  });

  it('scales between currencies with different minor units', () => {
    // 100.00 USD -> JPY at 150: (10000 - 40) cents = 99.60 USD = 14940 yen.
    expect(priceQuote({ ...base, multiplier: 150, receivingDecimals: 0 })!.totalReceivingAmount).toBe(14_940);
  });

  it('an amount that cannot cover the fees has no price', () => {
    expect(priceQuote({ ...base, amount: 10 })).toBeNull();
    expect(priceQuote({ ...base, amount: 11 })).toBeNull(); // 1 cent * 0.92 rounds down to 0
    expect(priceQuote({ ...base, amount: 12 })!.totalReceivingAmount).toBe(1);
  });

  it('parses the rate table, USD-based', () => {
    const t = parseRateTable('EUR=0.92,JPY=150');
    expect([...t]).toEqual([
      ['USD', 1],
      ['EUR', 0.92],
      ['JPY', 150],
    ]);
  });
});
