import { exampleAccountInfo, exampleCurrency } from '../../src/external-accounts/variants/index.js';
import { newCustomer } from '../support/fixtures.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const customerOf = async (p: TestPlatform): Promise<string> => (await newCustomer(p)).id;

const eur = (seed: number) => ({ currency: 'EUR', accountInfo: exampleAccountInfo('EUR_ACCOUNT', seed) });

describe('POST /customers/external-accounts', () => {
  it('creates an account for the customer, listed under the customer and not under the platform', async () => {
    const p = await TestPlatform.create(t);
    const customerId = await customerOf(p);
    const res = await p.post('/customers/external-accounts', { customerId, ...eur(1) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ customerId, status: 'ACTIVE', defaultUmaDepositAccount: false });
    expect((await p.get(`/customers/external-accounts/${res.body.id}`)).body).toEqual(res.body);
    expectError(await p.get(`/platform/external-accounts/${res.body.id}`), 404, 'ACCOUNT_NOT_FOUND');
    const list = await p.get(`/customers/external-accounts?customerId=${encodeURIComponent(customerId)}`);
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([res.body.id]);
    expect((await p.get('/platform/external-accounts')).body.totalCount).toBe(0);
  });

  it('an unknown or foreign customer is 404 CUSTOMER_NOT_FOUND; a deleted one 410 CUSTOMER_DELETED', async () => {
    const p = await TestPlatform.create(t);
    const other = await TestPlatform.create(t);
    const foreign = await customerOf(other);
    const unknown = 'Customer:019542f5-b3e7-1d02-0000-000000000001';
    expectError(
      await p.post('/customers/external-accounts', { customerId: unknown, ...eur(2) }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    expectError(
      await p.post('/customers/external-accounts', { customerId: foreign, ...eur(2) }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    const mine = await customerOf(p);
    expect((await p.delete(`/customers/${mine}`)).status).toBeLessThan(300);
    expectError(await p.post('/customers/external-accounts', { customerId: mine, ...eur(2) }), 410, 'CUSTOMER_DELETED');
  });

  it('a malformed customerId is a FieldError reported with the others', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/customers/external-accounts', {
      customerId: 'bob',
      currency: 'USD',
      accountInfo: exampleAccountInfo('EUR_ACCOUNT', 3),
    });
    const err = expectError(res, 400, 'INVALID_INPUT');
    const fields = (err.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();
    expect(fields).toEqual(['currency', 'customerId']);
  });

  it('the same account for two customers is fine; twice for one customer is a 409 with details', async () => {
    const p = await TestPlatform.create(t);
    const a = await customerOf(p);
    const b = await customerOf(p);
    const first = await p.post('/customers/external-accounts', { customerId: a, ...eur(4) });
    expect((await p.post('/customers/external-accounts', { customerId: b, ...eur(4) })).status).toBe(201);
    const dup = await p.post('/customers/external-accounts', { customerId: a, ...eur(4) });
    expect(expectError(dup, 409, 'DUPLICATE_EXTERNAL_ACCOUNT').details).toEqual({ externalAccountId: first.body.id });
  });
});

describe('default UMA deposit account', () => {
  it('a new default moves the flag atomically', async () => {
    const p = await TestPlatform.create(t);
    const c = await customerOf(p);
    const first = await p.post('/customers/external-accounts', {
      customerId: c,
      defaultUmaDepositAccount: true,
      ...eur(10),
    });
    expect(first.body.defaultUmaDepositAccount).toBe(true);
    const second = await p.post('/customers/external-accounts', {
      customerId: c,
      defaultUmaDepositAccount: true,
      ...eur(11),
    });
    expect(second.body.defaultUmaDepositAccount).toBe(true);
    expect((await p.get(`/customers/external-accounts/${first.body.id}`)).body.defaultUmaDepositAccount).toBe(false);
  });

  it('concurrent default creates leave exactly one default', async () => {
    const p = await TestPlatform.create(t);
    const c = await customerOf(p);
    const results = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) =>
          await p.post('/customers/external-accounts', {
            customerId: c,
            defaultUmaDepositAccount: true,
            ...eur(100 + i),
          }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const list = await p.get(`/customers/external-accounts?customerId=${encodeURIComponent(c)}&limit=100`);
    const defaults = list.body.data.filter((a: { defaultUmaDepositAccount: boolean }) => a.defaultUmaDepositAccount);
    expect(defaults).toHaveLength(1);
  });
});

describe('customer account tenancy and deletion', () => {
  it("another platform cannot read or delete a customer's account; delete then re-create works", async () => {
    const p = await TestPlatform.create(t);
    const q = await TestPlatform.create(t);
    const c = await customerOf(p);
    const body = {
      customerId: c,
      currency: exampleCurrency('SOLANA_WALLET'),
      accountInfo: exampleAccountInfo('SOLANA_WALLET', 5),
    };
    const acct = await p.post('/customers/external-accounts', body);
    expect(acct.status).toBe(201);
    expectError(await q.get(`/customers/external-accounts/${acct.body.id}`), 404, 'ACCOUNT_NOT_FOUND');
    expectError(await q.delete(`/customers/external-accounts/${acct.body.id}`), 404, 'ACCOUNT_NOT_FOUND');
    expect((await q.get('/customers/external-accounts')).body.totalCount).toBe(0);
    expect((await p.delete(`/customers/external-accounts/${acct.body.id}`)).status).toBe(204);
    expect((await p.post('/customers/external-accounts', body)).status).toBe(201);
  });
});
