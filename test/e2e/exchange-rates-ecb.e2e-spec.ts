import { EcbRatesWorker } from '../../src/payments/exchange-rates/rate-source.js';
import { EcbFeed } from '../support/ecb-feed.js';
import { FakeClock } from '../support/fake-clock.js';
import { customerAccount, kycApprovedCustomer, supportCurrencies } from '../support/fixtures.js';
import { Json, payer, platformQuote } from '../support/payments.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * The RATE_SOURCE port (docs/production.md#exchange-rates): `ecb` prices quotes and GET
 * /exchange-rates from the ECB's daily reference rates, fetched by EcbRatesWorker from a local
 * server serving a recorded publication (test/fixtures/providers/ecb/), cross rates through EUR;
 * the last good set survives an unreachable feed until it is older than RATE_MAX_AGE_SECONDS, then
 * 503 SERVICE_UNAVAILABLE; `none` answers 503 SERVICE_UNAVAILABLE.
 */

// The recorded publication is 28 June 2024 (a Friday; as of 14:00 UTC); the clock starts the next
// morning, a Saturday, when the ECB publishes nothing.
const AS_OF = '2024-06-28T14:00:00.000Z';
const clock = new FakeClock(new Date('2024-06-29T09:00:00Z'));
let feed: EcbFeed;
let t: TestApp;
beforeAll(async () => {
  feed = await EcbFeed.start();
  t = await startTestApp({ RATE_SOURCE: 'ecb', ECB_RATES_URL: feed.url }, { clock });
});
afterAll(async () => {
  await t.close();
  await feed.stop();
});

/** A customer paying from USD with accounts in USD, GBP and EUR. */
async function usdPayer(p: TestPlatform) {
  await supportCurrencies(p, ['USD', 'GBP', 'EUR']);
  const customer = await kycApprovedCustomer(p);
  const a = await payer(p, 1_000_000, { customer });
  const gbp = await customerAccount(p, customer.id, 'GBP');
  return { ...a, gbpAccountId: gbp.id };
}

describe('RATE_SOURCE=ecb', () => {
  it('prices from the fetched publication (cross rates through EUR), keeps it while the feed is down, refuses it once stale', async () => {
    const p = await TestPlatform.create(t);
    const a = await usdPayer(p);

    // Nothing fetched yet: refused, nothing quoted.
    const early = expectError(
      await p.post('/quotes', platformQuote(a.accountId, a.gbpAccountId, 10_000)),
      503,
      'SERVICE_UNAVAILABLE',
    );
    expect(early.details).toEqual({ source: 'ecb', asOf: null, maxAgeSeconds: 4 * 86_400 });
    expectError(await p.get('/exchange-rates?sourceCurrency=USD'), 503, 'SERVICE_UNAVAILABLE');

    const worker = t.app.get(EcbRatesWorker, { strict: false });
    expect((await worker.runOnce()).toISOString()).toBe(AS_OF);

    // USD -> GBP through EUR: 0.84638 GBP per EUR / 1.0705 USD per EUR.
    const usdGbp = 0.84638 / 1.0705;
    const rates = (
      await p.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=GBP&sendingAmount=10000').expect(200)
    ).body as Json;
    expect(rates.data).toHaveLength(1);
    expect(rates.data[0].exchangeRate).toBeCloseTo(usdGbp, 12);
    const quote = (await p.post('/quotes', platformQuote(a.accountId, a.gbpAccountId, 10_000)).expect(201))
      .body as Json;
    expect(quote.exchangeRate).toBeCloseTo(usdGbp, 12);
    expect(quote.totalReceivingAmount).toBe(Math.floor(Number(((10_000 - quote.feesIncluded) * usdGbp).toFixed(6))));
    expect(rates.data[0].receivingAmount).toBe(quote.totalReceivingAmount);
    // EUR itself is the base: USD -> EUR is 1 / 1.0705.
    const eur = (await p.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR').expect(200)).body as Json;
    expect(eur.data[0].exchangeRate).toBeCloseTo(1 / 1.0705, 12);

    // The feed fails (an error page, then unreachable): nothing changes, the last good set prices on.
    feed.failWith(503);
    await expect(worker.runOnce()).rejects.toThrow('503');
    feed.document = '<html>not the ECB</html>';
    feed.failWith(200);
    await expect(worker.runOnce()).rejects.toThrow();
    // Monday evening, still no new publication: inside the 4 days.
    clock.set(new Date('2024-07-01T20:00:00Z'));
    const monday = (await p.post('/quotes', platformQuote(a.accountId, a.gbpAccountId, 10_000)).expect(201))
      .body as Json;
    expect(monday.exchangeRate).toBeCloseTo(usdGbp, 12);

    // Four days and a second after the publication: stale; same-currency quotes need no rate.
    clock.set(new Date(Date.parse(AS_OF) + 4 * 86_400_000 + 1000));
    const stale = expectError(
      await p.post('/quotes', platformQuote(a.accountId, a.gbpAccountId, 10_000)),
      503,
      'SERVICE_UNAVAILABLE',
    );
    expect(stale.details).toEqual({ source: 'ecb', asOf: AS_OF, maxAgeSeconds: 4 * 86_400 });
    expectError(await p.get('/exchange-rates?sourceCurrency=USD'), 503, 'SERVICE_UNAVAILABLE');
    const same = await a.quote(10_000);
    expect(same.exchangeRate).toBe(1);

    // The feed back with the same (old) publication: still stale; nothing is rewritten.
    feed.document = (await import('../support/ecb-feed.js')).ECB_FIXTURE;
    expect((await worker.runOnce()).toISOString()).toBe(AS_OF);
    expectError(
      await p.post('/quotes', platformQuote(a.accountId, a.gbpAccountId, 10_000)),
      503,
      'SERVICE_UNAVAILABLE',
    );

    // A new publication arrives: priced from it.
    feed.document = feed.document
      .replace("time='2024-06-28'", "time='2024-07-02'")
      .replace("rate='0.84638'", "rate='0.84500'");
    expect((await worker.runOnce()).toISOString()).toBe('2024-07-02T14:00:00.000Z');
    const fresh = (await p.post('/quotes', platformQuote(a.accountId, a.gbpAccountId, 10_000)).expect(201))
      .body as Json;
    expect(fresh.exchangeRate).toBeCloseTo(0.845 / 1.0705, 12);
  });
});

describe('RATE_SOURCE=none', () => {
  it('cross-currency quotes and GET /exchange-rates answer 503 SERVICE_UNAVAILABLE; same-currency quotes still work', async () => {
    const none = await startTestApp({ RATE_SOURCE: 'none' });
    try {
      const p = await TestPlatform.create(none);
      const a = await usdPayer(p);
      expectError(
        await p.post('/quotes', platformQuote(a.accountId, a.gbpAccountId, 10_000)),
        503,
        'SERVICE_UNAVAILABLE',
      );
      expectError(await p.get('/exchange-rates'), 503, 'SERVICE_UNAVAILABLE');
      expect((await a.quote(10_000)).exchangeRate).toBe(1);
    } finally {
      await none.close();
    }
  });
});
