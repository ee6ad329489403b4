import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { customerAccount, newCustomer, supportCurrencies } from '../support/fixtures.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * GET /vasps, GET /discoveries, POST /crypto/estimate-withdrawal-fee (docs/directories.md): the
 * shipped data, and an app started with DIRECTORY_EXTRA_FILE whose entries add to and replace it.
 */
let t: TestApp;
let extended: TestApp;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'directories-'));
  const file = join(dir, 'extra.json');
  writeFileSync(
    file,
    JSON.stringify({
      vasps: [{ vaspName: 'Aaa Example Exchange', url: 'https://exchange.example' }, { vaspName: 'kraken' }],
      institutions: [
        { bankName: 'Example Bank', displayName: 'Example Bank PLC', country: 'GH', currency: 'GHS' },
        { bankName: 'GCash', displayName: 'GCash (operator)', country: 'PH', currency: 'PHP' },
      ],
      withdrawalFees: [
        {
          currency: 'BTC',
          cryptoNetwork: 'BITCOIN',
          networkFee: 2000,
          networkFeeAsset: 'BTC',
          networkFeeInCurrency: 2000,
          applicationFee: 500,
        },
      ],
    }),
  );
  t = await startTestApp();
  extended = await startTestApp({ DIRECTORY_EXTRA_FILE: file });
});
afterAll(async () => {
  await t.close();
  await extended.close();
});

const BITCOIN_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const EVM_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** A customer's BTC internal account on a platform supporting USD and BTC. */
async function btcAccount(p: TestPlatform): Promise<string> {
  await supportCurrencies(p, ['USD', 'BTC']);
  const customer = await newCustomer(p);
  return (await customerAccount(p, customer.id, 'BTC')).id;
}

describe('GET /vasps', () => {
  it('pages the directory by name: limit, hasMore, nextCursor; every page joins up', async () => {
    const p = await TestPlatform.create(t);
    const first = await p.get('/vasps?limit=5');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: expect.any(Array), hasMore: true, nextCursor: expect.any(String) });
    expect(first.body.data).toHaveLength(5);
    expect(first.body.data[0]).toEqual({ vaspName: 'Binance', url: 'https://www.binance.com' });
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await p.get(`/vasps?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      names.push(...(res.body.data as Array<{ vaspName: string }>).map((v) => v.vaspName));
      cursor = res.body.nextCursor as string | undefined;
      expect(cursor !== undefined).toBe(res.body.hasMore);
    } while (cursor);
    expect(names).toContain('Kraken');
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(new Set(names).size).toBe(names.length);
    const all = await p.get('/vasps?limit=100');
    expect(all.body).toEqual({ data: expect.any(Array), hasMore: false });
    expect((all.body.data as unknown[]).length).toBe(names.length);
  });

  it('400 INVALID_INPUT for a bad limit, a foreign cursor, an unknown parameter', async () => {
    const p = await TestPlatform.create(t);
    expect(invalidFields(await p.get('/vasps?limit=0'))).toEqual(['limit']);
    expect(invalidFields(await p.get('/vasps?limit=101'))).toEqual(['limit']);
    expect(invalidFields(await p.get('/vasps?limit=ten'))).toEqual(['limit']);
    expect(invalidFields(await p.get('/vasps?cursor=not-a-cursor'))).toEqual(['cursor']);
    expectError(await p.get('/vasps?country=US'), 400, 'INVALID_INPUT');
  });

  it('the operator file adds VASPs and replaces one of the same name', async () => {
    const p = await TestPlatform.create(extended);
    const res = await p.get('/vasps?limit=100');
    const data = res.body.data as Array<{ vaspName: string; url?: string }>;
    expect(data[0]).toEqual({ vaspName: 'Aaa Example Exchange', url: 'https://exchange.example' });
    expect(data.filter((v) => v.vaspName.toLowerCase() === 'kraken')).toEqual([{ vaspName: 'kraken' }]);
  });

  it('needs credentials', async () => {
    const res = await t.http.get(`${V}/vasps`);
    expectError(res, 401, 'UNAUTHORIZED');
  });
});

describe('GET /discoveries', () => {
  it('the institutions of a country and currency; either filter alone; all without', async () => {
    const p = await TestPlatform.create(t);
    const ph = await p.get('/discoveries?country=PH&currency=PHP');
    expect(ph.status).toBe(200);
    expect(ph.body.data).toContainEqual({
      bankName: 'BPI',
      displayName: 'Bank of the Philippine Islands',
      country: 'PH',
      currency: 'PHP',
    });
    for (const item of ph.body.data as Array<{ country: string; currency: string }>)
      expect(item).toMatchObject({ country: 'PH', currency: 'PHP' });
    const eur = await p.get('/discoveries?currency=EUR');
    expect(new Set((eur.body.data as Array<{ country: string }>).map((i) => i.country))).toEqual(new Set(['DE', 'ES']));
    const all = await p.get('/discoveries');
    expect((all.body.data as unknown[]).length).toBeGreaterThan((ph.body.data as unknown[]).length);
    expect((await p.get('/discoveries?country=PH&currency=EUR')).body).toEqual({ data: [] });
  });

  it('400 INVALID_INPUT names every malformed filter at once', async () => {
    const p = await TestPlatform.create(t);
    expect(invalidFields(await p.get('/discoveries?country=ph&currency=pesos'))).toEqual(['country', 'currency']);
    expect(invalidFields(await p.get('/discoveries?country=PHL'))).toEqual(['country']);
    expectError(await p.get('/discoveries?bank=BPI'), 400, 'INVALID_INPUT');
  });

  it('the operator file adds a corridor and replaces an institution of the same key', async () => {
    const p = await TestPlatform.create(extended);
    expect((await p.get('/discoveries?country=GH')).body).toEqual({
      data: [{ bankName: 'Example Bank', displayName: 'Example Bank PLC', country: 'GH', currency: 'GHS' }],
    });
    const ph = (await p.get('/discoveries?country=PH')).body.data as Array<{ bankName: string; displayName: string }>;
    expect(ph.filter((i) => i.bankName === 'GCash')).toEqual([
      { bankName: 'GCash', displayName: 'GCash (operator)', country: 'PH', currency: 'PHP' },
    ]);
  });
});

describe('POST /crypto/estimate-withdrawal-fee', () => {
  it('answers the schedule’s fees and the net amount', async () => {
    const p = await TestPlatform.create(t);
    const internalAccountId = await btcAccount(p);
    const res = await p.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId,
      currency: 'BTC',
      cryptoNetwork: 'BITCOIN',
      amount: 100_000,
      destinationAddress: BITCOIN_ADDRESS,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      networkFee: 1500,
      networkFeeAsset: 'BTC',
      applicationFee: 0,
      totalFee: 1500,
      netAmount: 98_500,
    });
    const spark = await p.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId,
      currency: 'BTC',
      cryptoNetwork: 'SPARK',
      amount: 1,
      destinationAddress: 'sp1pgss9example',
    });
    expect(spark.body).toEqual({ networkFee: 0, networkFeeAsset: 'BTC', applicationFee: 0, totalFee: 0, netAmount: 1 });
  });

  it('with the operator file its schedule replaces the shipped one', async () => {
    const p = await TestPlatform.create(extended);
    const internalAccountId = await btcAccount(p);
    const res = await p.post('/crypto/estimate-withdrawal-fee', {
      internalAccountId,
      currency: 'BTC',
      cryptoNetwork: 'BITCOIN',
      amount: 10_000,
      destinationAddress: BITCOIN_ADDRESS,
    });
    expect(res.body).toEqual({
      networkFee: 2000,
      networkFeeAsset: 'BTC',
      applicationFee: 500,
      totalFee: 2500,
      netAmount: 7500,
    });
  });

  it('400 INVALID_INPUT: every FieldError of the body at once; then the account’s currency, the network, the address, the amount', async () => {
    const p = await TestPlatform.create(t);
    const internalAccountId = await btcAccount(p);
    expect(invalidFields(await p.post('/crypto/estimate-withdrawal-fee', {}))).toEqual([
      'amount',
      'cryptoNetwork',
      'currency',
      'destinationAddress',
      'internalAccountId',
    ]);
    expect(
      invalidFields(
        await p.post('/crypto/estimate-withdrawal-fee', {
          internalAccountId: 'InternalAccount:nope',
          currency: 'usdc',
          cryptoNetwork: 'solana',
          amount: -1,
          destinationAddress: '',
          extra: true,
        }),
      ),
    ).toEqual(['amount', 'cryptoNetwork', 'currency', 'destinationAddress', 'extra', 'internalAccountId']);
    const wrong = expectError(
      await p.post('/crypto/estimate-withdrawal-fee', {
        internalAccountId,
        currency: 'USDT',
        cryptoNetwork: 'BITCOIN',
        amount: 1000,
        destinationAddress: EVM_ADDRESS,
      }),
      400,
      'INVALID_INPUT',
    );
    expect(wrong.details!.errors).toEqual([
      { field: 'currency', message: 'the internal account holds BTC, not USDT' },
      { field: 'cryptoNetwork', message: 'USDT is withdrawable on ETHEREUM, TRON' },
      { field: 'destinationAddress', message: 'is not a BITCOIN address' },
    ]);
    // A USDC address check on an EVM network goes through viem (a wrong checksum is refused).
    expect(
      invalidFields(
        await p.post('/crypto/estimate-withdrawal-fee', {
          internalAccountId,
          currency: 'USDC',
          cryptoNetwork: 'ETHEREUM',
          amount: 4_000_000,
          destinationAddress: '0x52908400098527886E0F7030069857D2E4169EE8',
        }),
      ),
    ).toEqual(['amount', 'currency', 'destinationAddress']);
    expect(
      invalidFields(
        await p.post('/crypto/estimate-withdrawal-fee', {
          internalAccountId,
          currency: 'BTC',
          cryptoNetwork: 'BITCOIN',
          amount: 1500,
          destinationAddress: BITCOIN_ADDRESS,
        }),
      ),
    ).toEqual(['amount']);
    const lightning = (destinationAddress: string) =>
      p.post('/crypto/estimate-withdrawal-fee', {
        internalAccountId,
        currency: 'BTC',
        cryptoNetwork: 'LIGHTNING',
        amount: 1500,
        destinationAddress,
      });
    expect(invalidFields(await lightning(EVM_ADDRESS))).toEqual(['destinationAddress']);
    expect((await lightning('alice@wallet.example')).body).toMatchObject({ totalFee: 10, netAmount: 1490 });
  });

  it('404 ACCOUNT_NOT_FOUND for an unknown account or another platform’s', async () => {
    const a = await TestPlatform.create(t);
    const b = await TestPlatform.create(t);
    const internalAccountId = await btcAccount(a);
    const body = {
      internalAccountId,
      currency: 'BTC',
      cryptoNetwork: 'BITCOIN',
      amount: 100_000,
      destinationAddress: BITCOIN_ADDRESS,
    };
    expectError(await b.post('/crypto/estimate-withdrawal-fee', body), 404, 'ACCOUNT_NOT_FOUND');
    expectError(
      await a.post('/crypto/estimate-withdrawal-fee', {
        ...body,
        internalAccountId: 'InternalAccount:019542f5-b3e7-7d02-8000-000000000099',
      }),
      404,
      'ACCOUNT_NOT_FOUND',
    );
  });
});
