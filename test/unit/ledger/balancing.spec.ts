import fc from 'fast-check';
import { unbalancedCurrency } from '../../../src/ledger/ledger.service.js';
import { movementOf } from '../../../src/payments/quotes/quote-execution.service.js';
import type { QuoteEntity } from '../../../src/payments/quotes/quote.entity.js';
import { priceQuote } from '../../../src/payments/exchange-rates/quote-pricing.js';

const PLATFORM = '01900000-0000-7000-8000-000000000001';
const currency = fc.constantFrom('USD', 'EUR', 'MXN');

describe('the balancing rule', () => {
  it('postings that sum to zero per currency balance; changing any one amount unbalances its currency', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(currency, fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n })), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.bigInt({ min: 1n, max: 2n ** 53n }),
        (lines, pick, delta) => {
          // Close each currency with a counter posting: balanced by construction.
          const sums = new Map<string, bigint>();
          for (const [c, a] of lines) sums.set(c, (sums.get(c) ?? 0n) + a);
          const postings = [
            ...lines.map(([c, a]) => ({ currency: c, amount: a })),
            ...[...sums].map(([c, s]) => ({ currency: c, amount: -s })),
          ];
          expect(unbalancedCurrency(postings)).toBeNull();
          const i = pick % postings.length;
          const broken = postings.map((p, j) => (j === i ? { ...p, amount: p.amount + delta } : p));
          expect(unbalancedCurrency(broken)).toBe(postings[i].currency);
        },
      ),
    );
  });

  it('balancing is per currency: +100 USD and -100 EUR do not balance', () => {
    expect(
      unbalancedCurrency([
        { currency: 'USD', amount: 100n },
        { currency: 'EUR', amount: -100n },
      ]),
    ).toBe('USD');
  });
});

describe('movementOf (a quote executed)', () => {
  const quote = (o: {
    from: string;
    to: string;
    sending: number;
    receiving: number;
    fees: number;
    internal: boolean;
  }): QuoteEntity =>
    ({
      platformId: PLATFORM,
      sourceAccountId: '01900000-0000-7000-8000-0000000000a1',
      destinationKind: o.internal ? 'InternalAccount' : 'ExternalAccount',
      destinationAccountId: '01900000-0000-7000-8000-0000000000a2',
      sendingCurrency: o.from,
      receivingCurrency: o.to,
      totalSendingAmount: String(o.sending),
      totalReceivingAmount: String(o.receiving),
      feesIncluded: String(o.fees),
      platformFeesIncluded: '0',
      transactionId: '01900000-0000-7000-8000-0000000000f1',
    }) as unknown as QuoteEntity;
  const executionLines = (q: QuoteEntity) => movementOf(q).lines;

  it('USD 10.30 -> EUR 9.20 with a 0.30 fee: customer -1030, fees +30, FX USD +1000, FX EUR -920, destination +920', () => {
    const lines = executionLines(
      quote({ from: 'USD', to: 'EUR', sending: 1030, receiving: 920, fees: 30, internal: false }),
    );
    expect(lines).toEqual([
      { account: { internalAccountId: '01900000-0000-7000-8000-0000000000a1' }, amount: -1030n, currency: 'USD' },
      { account: { system: 'FEES_COLLECTED', platformId: PLATFORM, currency: 'USD' }, amount: 30n, currency: 'USD' },
      { account: { system: 'FX', platformId: PLATFORM, currency: 'USD' }, amount: 1000n, currency: 'USD' },
      { account: { system: 'FX', platformId: PLATFORM, currency: 'EUR' }, amount: -920n, currency: 'EUR' },
      { account: { system: 'RAIL_CLEARING', platformId: PLATFORM, currency: 'EUR' }, amount: 920n, currency: 'EUR' },
    ]);
  });

  it('same currency without fees is a direct two-line transfer', () => {
    const lines = executionLines(
      quote({ from: 'USD', to: 'USD', sending: 500, receiving: 500, fees: 0, internal: true }),
    );
    expect(lines).toEqual([
      { account: { internalAccountId: '01900000-0000-7000-8000-0000000000a1' }, amount: -500n, currency: 'USD' },
      { account: { internalAccountId: '01900000-0000-7000-8000-0000000000a2' }, amount: 500n, currency: 'USD' },
    ]);
  });

  it('every priced quote executes as balanced, non-zero lines', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.constantFrom(['USD', 'EUR', 0.92], ['USD', 'USD', 1], ['USD', 'MXN', 17.1]),
        fc.integer({ min: 0, max: 500 }),
        fc.double({ min: 0, max: 0.05, noNaN: true }),
        fc.boolean(),
        (amount, [from, to, multiplier], fixedFee, variableFeeRate, internal) => {
          const price = priceQuote({
            side: 'SENDING',
            amount,
            sendingDecimals: 2,
            receivingDecimals: 2,
            multiplier: multiplier,
            crossCurrency: from !== to,
            fixedFee,
            variableFeeRate,
          });
          if (!price) return;
          const f = from as string;
          const t = to as string;
          const lines = executionLines(
            quote({
              from: f,
              to: t,
              sending: price.totalSendingAmount,
              receiving: price.totalReceivingAmount,
              fees: price.feesIncluded,
              internal,
            }),
          );
          for (const l of lines) expect(l.amount).not.toBe(0n);
          expect(unbalancedCurrency(lines.map((l) => ({ currency: l.currency, amount: l.amount })))).toBeNull();
          expect(lines[0].amount).toBe(-BigInt(price.totalSendingAmount));
        },
      ),
    );
  });
});
