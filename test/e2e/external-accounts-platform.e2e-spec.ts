import fc from 'fast-check';
import {
  CREATE_ACCOUNT_TYPES,
  exampleAccountInfo,
  exampleCurrency,
} from '../../src/external-accounts/variants/index.js';
import { newCustomer } from '../support/fixtures.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Err = { field: string; constraint?: Record<string, unknown>; message?: string };
const errorsOf = (body: { details?: Record<string, unknown> }) => body.details!.errors as Err[];
const fieldsOf = (body: { details?: Record<string, unknown> }) =>
  errorsOf(body)
    .map((e) => e.field)
    .sort();

/** The spec's USD_ACCOUNT example (platformAccountId inside accountInfo, as the spec shows it). */
const specUsd = () => ({
  currency: 'USD',
  accountInfo: {
    accountType: 'USD_ACCOUNT',
    accountNumber: '12345678901',
    routingNumber: '123456789',
    bankAccountType: 'CHECKING',
    bankName: 'Chase Bank',
    platformAccountId: `ext_acc_${Math.random().toString(36).slice(2)}`,
    beneficiary: {
      beneficiaryType: 'INDIVIDUAL',
      fullName: 'John Doe',
      birthDate: '1990-01-15',
      nationality: 'US',
      address: { line1: '123 Main Street', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
    },
  },
});
const specSpark = () => ({
  currency: 'BTC',
  accountInfo: {
    accountType: 'SPARK_WALLET',
    address: 'spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu',
  },
});

describe('POST /platform/external-accounts', () => {
  it.each([...CREATE_ACCOUNT_TYPES])('creates a %s account', async (accountType) => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/platform/external-accounts', {
      currency: exampleCurrency(accountType),
      accountInfo: exampleAccountInfo(accountType),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ customerId: null, status: 'ACTIVE', currency: exampleCurrency(accountType) });
    expect(res.body.id).toMatch(/^ExternalAccount:[0-9a-f-]{36}$/);
    expect(res.body.accountInfo.accountType).toBe(accountType);
    expect((await p.get(`/platform/external-accounts/${res.body.id}`)).body).toEqual(res.body);
  });

  it('the spec USD example: ACH verification deferred, paymentRails rendered, platformAccountId top level', async () => {
    const p = await TestPlatform.create(t);
    const body = specUsd();
    const res = await p.post('/platform/external-accounts', body);
    expect(res.status).toBe(201);
    expect(res.body.beneficiaryVerificationStatus).toBe('CHECKED_BY_RECEIVING_FI');
    expect(res.body.platformAccountId).toBe(body.accountInfo.platformAccountId);
    expect(res.body.defaultUmaDepositAccount).toBe(false);
    expect(res.body.accountInfo.paymentRails).toEqual(expect.arrayContaining(['ACH']));
    expect(res.body.accountInfo.accountNumber).toBe('12345678901');
  });

  it('the spec SPARK_WALLET example: wallets have no name check', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/platform/external-accounts', specSpark());
    expect(res.status).toBe(201);
    expect(res.body.beneficiaryVerificationStatus).toBe('UNSUPPORTED');
    expect(res.body.status).toBe('ACTIVE');
  });

  it('reports every invalid field at once, with dot paths and constraints', async () => {
    const p = await TestPlatform.create(t);
    const body = specUsd();
    const res = await p.post('/platform/external-accounts', {
      currency: 'EUR',
      platformAccountId: 'x'.repeat(256),
      ownershipType: 'SOMEONE',
      extra: true,
      accountInfo: {
        ...body.accountInfo,
        platformAccountId: undefined,
        bankAccountType: 'PIGGY_BANK',
        beneficiary: {
          ...body.accountInfo.beneficiary,
          address: { ...body.accountInfo.beneficiary.address, country: 'USA' },
        },
      },
    });
    const err = expectError(res, 400, 'INVALID_INPUT');
    const fields = fieldsOf(err);
    expect(fields).toEqual(
      expect.arrayContaining([
        'accountInfo.bankAccountType',
        'accountInfo.beneficiary.address.country',
        'currency',
        'extra',
        'ownershipType',
        'platformAccountId',
      ]),
    );
    const byField = Object.fromEntries(errorsOf(err).map((e) => [e.field, e]));
    expect(byField.platformAccountId.constraint).toMatchObject({ maxLength: 255 });
    expect(byField.currency.constraint).toMatchObject({ enum: ['USD'] });
    expect(byField.ownershipType.constraint).toMatchObject({ enum: ['FIRST_PARTY', 'THIRD_PARTY'] });
    expect(byField['accountInfo.bankAccountType'].constraint?.enum).toEqual(expect.arrayContaining(['CHECKING']));
  });

  it('an unknown accountType lists the allowed values', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/platform/external-accounts', {
      currency: 'USD',
      accountInfo: { accountType: 'MOON_ACCOUNT' },
    });
    const err = expectError(res, 400, 'INVALID_INPUT');
    const e = errorsOf(err).find((x) => x.field === 'accountInfo.accountType')!;
    expect(e.constraint?.enum).toEqual([...CREATE_ACCOUNT_TYPES]);
  });

  it('missing body members are FieldErrors, not crashes', async () => {
    const p = await TestPlatform.create(t);
    const err = expectError(await p.post('/platform/external-accounts', {}), 400, 'INVALID_INPUT');
    expect(fieldsOf(err)).toEqual(['accountInfo', 'currency']);
    expectError(
      await p.post('/platform/external-accounts', { currency: 'USD', accountInfo: 'USD_ACCOUNT' }),
      400,
      'INVALID_INPUT',
    );
  });
});

describe('duplicates (409 DUPLICATE_EXTERNAL_ACCOUNT)', () => {
  it('same platform: details name the existing account', async () => {
    const p = await TestPlatform.create(t);
    const body = specUsd();
    const first = await p.post('/platform/external-accounts', body);
    const again = await p.post('/platform/external-accounts', body);
    const err = expectError(again, 409, 'DUPLICATE_EXTERNAL_ACCOUNT');
    expect(err.details).toEqual({
      externalAccountId: first.body.id,
      platformAccountId: body.accountInfo.platformAccountId,
    });
    expect(again.headers['x-should-retry']).toBe('false');
  });

  it('the same account identity without platformAccountId is a duplicate too (EVM address in any case)', async () => {
    const p = await TestPlatform.create(t);
    const info = exampleAccountInfo('ETHEREUM_WALLET', 7) as { address: string };
    const currency = exampleCurrency('ETHEREUM_WALLET');
    const first = await p.post('/platform/external-accounts', { currency, accountInfo: info });
    expect(first.status).toBe(201);
    const upper = `0x${info.address.slice(2).toUpperCase()}`;
    expect(upper).not.toBe(info.address);
    const dup = await p.post('/platform/external-accounts', { currency, accountInfo: { ...info, address: upper } });
    expect(expectError(dup, 409, 'DUPLICATE_EXTERNAL_ACCOUNT').details).toEqual({ externalAccountId: first.body.id });
    const iban = exampleAccountInfo('EUR_ACCOUNT', 7);
    expect((await p.post('/platform/external-accounts', { currency: 'EUR', accountInfo: iban })).status).toBe(201);
    const again = await p.post('/platform/external-accounts', { currency: 'EUR', accountInfo: iban });
    expectError(again, 409, 'DUPLICATE_EXTERNAL_ACCOUNT');
  });

  it('platformAccountId is unique per platform: another platform may use it, and learns nothing of the first', async () => {
    const a = await TestPlatform.create(t);
    const b = await TestPlatform.create(t);
    const body = specUsd();
    const pid = body.accountInfo.platformAccountId;
    const mine = await a.post('/platform/external-accounts', body);
    expect(mine.status).toBe(201);
    // B, with another bank account under the same platformAccountId: created, and all of it is B's
    const other = specUsd();
    other.accountInfo.platformAccountId = pid;
    other.accountInfo.accountNumber = '99999999999';
    const theirs = await b.post('/platform/external-accounts', other);
    expect(theirs.status).toBe(201);
    expect(theirs.body).toMatchObject({ platformAccountId: pid, customerId: null });
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.accountInfo.accountNumber).toBe('99999999999');
    // the same platform twice is still a duplicate, naming that platform's own account only
    for (const [p, first, again] of [
      [
        a,
        mine,
        {
          ...specUsd(),
          accountInfo: { ...specUsd().accountInfo, platformAccountId: pid, accountNumber: '55555555555' },
        },
      ],
      [b, theirs, { ...other, accountInfo: { ...other.accountInfo, accountNumber: '44444444444' } }],
    ] as const) {
      const dup = expectError(await p.post('/platform/external-accounts', again), 409, 'DUPLICATE_EXTERNAL_ACCOUNT');
      expect(dup.details).toEqual({ externalAccountId: first.body.id, platformAccountId: pid });
    }
    // neither platform sees the other's account
    expectError(await b.get(`/platform/external-accounts/${mine.body.id}`), 404, 'ACCOUNT_NOT_FOUND');
    expectError(await a.get(`/platform/external-accounts/${theirs.body.id}`), 404, 'ACCOUNT_NOT_FOUND');
    expect((await b.get('/platform/external-accounts')).body.data.map((x: { id: string }) => x.id)).toEqual([
      theirs.body.id,
    ]);
    // the same bank account on another platform is not a duplicate either
    expect((await b.post('/platform/external-accounts', specUsd())).status).toBe(201);
  });

  it("customers' accounts: the same platformAccountId on two platforms is fine, twice on one is a 409", async () => {
    const a = await TestPlatform.create(t);
    const b = await TestPlatform.create(t);
    const pid = `ext_acc_${Math.random().toString(36).slice(2)}`;
    const create = async (p: TestPlatform, seed: number) =>
      await p.post('/customers/external-accounts', {
        customerId: (await newCustomer(p)).id,
        currency: 'EUR',
        platformAccountId: pid,
        accountInfo: exampleAccountInfo('EUR_ACCOUNT', seed),
      });
    const first = await create(a, 11);
    expect(first.status).toBe(201);
    const onB = await create(b, 12);
    expect(onB.status).toBe(201);
    expect(onB.body.platformAccountId).toBe(pid);
    const dup = expectError(await create(a, 13), 409, 'DUPLICATE_EXTERNAL_ACCOUNT');
    expect(dup.details).toEqual({ externalAccountId: first.body.id, platformAccountId: pid });
    expectError(await b.get(`/customers/external-accounts/${first.body.id}`), 404, 'ACCOUNT_NOT_FOUND');
  });

  it('20 concurrent identical creates: one 201, nineteen 409s naming the winner', async () => {
    const p = await TestPlatform.create(t);
    const body = specUsd();
    const results = await Promise.all(
      Array.from({ length: 20 }, async () => await p.post('/platform/external-accounts', body)),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const conflicts = results.filter((r) => r.status === 409);
    expect(conflicts).toHaveLength(19);
    for (const r of conflicts)
      expect(r.body.details).toEqual({
        externalAccountId: created[0].body.id,
        platformAccountId: body.accountInfo.platformAccountId,
      });
  });

  it('a deleted account no longer blocks re-creating it', async () => {
    const p = await TestPlatform.create(t);
    const body = specUsd();
    const first = await p.post('/platform/external-accounts', body);
    expect((await p.delete(`/platform/external-accounts/${first.body.id}`)).status).toBe(204);
    expectError(await p.get(`/platform/external-accounts/${first.body.id}`), 404, 'ACCOUNT_NOT_FOUND');
    expectError(await p.delete(`/platform/external-accounts/${first.body.id}`), 404, 'ACCOUNT_NOT_FOUND');
    const again = await p.post('/platform/external-accounts', body);
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
  });
});

describe('counterparty requirements', () => {
  it('self-custody wallets need ownershipType and start PENDING_OWNERSHIP_VERIFICATION', async () => {
    const p = await TestPlatform.create(t);
    expect((await p.patch('/config', { counterpartyRequirements: true })).status).toBe(200);
    const missing = await p.post('/platform/external-accounts', specSpark());
    const err = expectError(missing, 400, 'INVALID_INPUT');
    expect(errorsOf(err)).toEqual([expect.objectContaining({ field: 'ownershipType' })]);
    const ok = await p.post('/platform/external-accounts', { ...specSpark(), ownershipType: 'FIRST_PARTY' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ status: 'PENDING_OWNERSHIP_VERIFICATION', ownershipType: 'FIRST_PARTY' });
    const bank = await p.post('/platform/external-accounts', specUsd());
    expect(bank.body.status).toBe('ACTIVE');
  });
});

describe('reading, listing, tenancy', () => {
  it('lists with the currency filter and pages with cursors', async () => {
    const p = await TestPlatform.create(t);
    for (let i = 1; i <= 3; i++)
      await p.post('/platform/external-accounts', {
        currency: 'EUR',
        accountInfo: exampleAccountInfo('EUR_ACCOUNT', i),
      });
    await p.post('/platform/external-accounts', specUsd());
    const eur = await p.get('/platform/external-accounts?currency=EUR&limit=2');
    expect(eur.body).toMatchObject({ totalCount: 3, hasMore: true });
    const next = await p.get(`/platform/external-accounts?currency=EUR&limit=2&cursor=${eur.body.nextCursor}`);
    expect(next.body.data).toHaveLength(1);
    expect(next.body.hasMore).toBe(false);
    expect((await p.get('/platform/external-accounts')).body.totalCount).toBe(4);
  });

  it("another platform's accounts are 404 and never listed", async () => {
    const a = await TestPlatform.create(t);
    const b = await TestPlatform.create(t);
    const mine = await a.post('/platform/external-accounts', specUsd());
    expectError(await b.get(`/platform/external-accounts/${mine.body.id}`), 404, 'ACCOUNT_NOT_FOUND');
    expectError(await b.delete(`/platform/external-accounts/${mine.body.id}`), 404, 'ACCOUNT_NOT_FOUND');
    expect((await b.get('/platform/external-accounts')).body.totalCount).toBe(0);
    expect((await a.get(`/platform/external-accounts/${mine.body.id}`)).status).toBe(200);
  });

  it('Idempotency-Key replays a create', async () => {
    const p = await TestPlatform.create(t);
    const body = specUsd();
    const first = await p.post('/platform/external-accounts', body).set('Idempotency-Key', 'ea-1');
    const again = await p.post('/platform/external-accounts', body).set('Idempotency-Key', 'ea-1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});

// The platform create writes its idempotency record in its own INSERT (`oneStatement`): the rules
// of every idempotent route hold there too.
describe('Idempotency-Key on the one-statement create', () => {
  const otherUsd = () => {
    const body = specUsd();
    return { ...body, accountInfo: { ...body.accountInfo, accountNumber: '98765432109' } };
  };
  const create = (p: TestPlatform, body: object, key: string) =>
    p.post('/platform/external-accounts', body).set('Idempotency-Key', key);

  it('same key, other body: 409 CONFLICT, not retryable; nothing created', async () => {
    const p = await TestPlatform.create(t);
    expect((await create(p, specUsd(), 'k')).status).toBe(201);
    const res = await create(p, specUsd(), 'k');
    expectError(res, 409, 'CONFLICT');
    expect(res.headers['x-should-retry']).toBe('false');
    expect((await p.get('/platform/external-accounts')).body.totalCount).toBe(1);
  });

  it('concurrent requests with one key create one account; the others wait and replay it or get the in-flight answer', async () => {
    const p = await TestPlatform.create(t);
    const body = specUsd();
    const results = await Promise.all(Array.from({ length: 8 }, () => create(p, body, 'race')));
    const created = results.filter((r) => r.status === 201);
    expect(created.length + results.filter((r) => r.status === 409).length).toBe(8);
    expect(new Set(created.map((r) => r.body.id as string)).size).toBe(1);
    expect(created.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body.code).toBe('CONFLICT');
      expect(r.headers['x-should-retry']).toBe('true');
    }
    expect((await p.get('/platform/external-accounts')).body.totalCount).toBe(1);
  });

  it('concurrent requests with one key and different bodies: one account, the rest 409 CONFLICT', async () => {
    const p = await TestPlatform.create(t);
    const results = await Promise.all(Array.from({ length: 6 }, () => create(p, specUsd(), 'race-bodies')));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'CONFLICT');
    expect((await p.get('/platform/external-accounts')).body.totalCount).toBe(1);
  });

  it('a failed request leaves no record: the key may be retried', async () => {
    const p = await TestPlatform.create(t);
    const body = specUsd();
    expect((await p.post('/platform/external-accounts', body)).status).toBe(201); // without a key
    const dup = await create(p, body, 'after-dup');
    expectError(dup, 409, 'DUPLICATE_EXTERNAL_ACCOUNT');
    const other = await create(p, otherUsd(), 'after-dup');
    expect(other.status).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays the status the INSERT chose (a self-custody wallet under counterparty requirements)', async () => {
    const p = await TestPlatform.create(t);
    expect((await p.patch('/config', { counterpartyRequirements: true })).status).toBe(200);
    const body = { ...specSpark(), ownershipType: 'FIRST_PARTY' };
    const first = await create(p, body, 'spark');
    expect(first.status).toBe(201);
    expect(first.body.status).toBe('PENDING_OWNERSHIP_VERIFICATION');
    const again = await create(p, body, 'spark');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const other = {
      ...specSpark(),
      accountInfo: { ...specSpark().accountInfo, address: `${specSpark().accountInfo.address}x` },
    };
    expectError(await create(p, other, 'spark-missing'), 400, 'INVALID_INPUT'); // no ownershipType
    expect((await create(p, { ...other, ownershipType: 'THIRD_PARTY' }, 'spark-missing')).status).toBe(201);
  });
});

describe('property: generated accountInfo never gives a 5xx', () => {
  it('valid and mutated bodies answer 201, 400 with existing paths, or 409', async () => {
    const p = await TestPlatform.create(t);
    const typeArb = fc.constantFrom(...CREATE_ACCOUNT_TYPES);
    const mutation = fc.oneof(
      fc.constant(null),
      fc.record({ key: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,11}$/), value: fc.jsonValue() }),
      fc.record({ drop: fc.nat(10) }),
    );
    await fc.assert(
      fc.asyncProperty(typeArb, fc.nat(1_000_000), mutation, async (type, seed, mut) => {
        const info = { ...exampleAccountInfo(type, seed + 100) } as Record<string, unknown>;
        if (mut && 'key' in mut) info[mut.key] = mut.value;
        if (mut && 'drop' in mut) {
          const keys = Object.keys(info).filter((k) => k !== 'accountType');
          if (keys.length) delete info[keys[mut.drop % keys.length]];
        }
        const body = { currency: exampleCurrency(type), accountInfo: info };
        const res = await p.post('/platform/external-accounts', body);
        expect([201, 400, 409]).toContain(res.status);
        if (res.status === 400) {
          for (const e of errorsOf(res.body)) {
            const top = e.field.split('.')[0];
            expect(['currency', 'accountInfo', 'platformAccountId', 'ownershipType', 'body']).toContain(top);
            const segments = e.field.split('.');
            if (segments[0] === 'accountInfo' && segments.length > 1) {
              // every reported path exists in the request, or names a required member of an existing object
              let node: unknown = body;
              for (const s of segments.slice(0, -1)) node = (node as Record<string, unknown>)?.[s];
              expect(node !== null && typeof node === 'object').toBe(true);
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
