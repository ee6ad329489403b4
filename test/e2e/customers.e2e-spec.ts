import { business, individual } from '../support/customers.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const fields = (body: { details?: Record<string, unknown> }) =>
  (body.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();
const errorOn = (body: { details?: Record<string, unknown> }, field: string) =>
  (body.details!.errors as Array<{ field: string; constraint?: unknown; message: string }>).find(
    (e) => e.field === field,
  );

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CUSTOMER_ID = /^Customer:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING = 'Customer:00000000-0000-7000-8000-000000000000';

describe('POST /customers', () => {
  it('creates an INDIVIDUAL customer with the reference fields, KYC UNVERIFIED, and GET returns it', async () => {
    const p = await TestPlatform.create(t);
    const consent = {
      acceptedAt: '2025-10-03T12:00:00Z',
      ipAddress: '198.51.100.24',
      termsVersion: 'V1',
      acceptanceMethod: 'CHECKBOX',
    };
    const body = individual({
      idType: 'SSN',
      identifier: '123-45-6789',
      countryOfIssuance: 'US',
      sourceOfFundsCategories: ['SALARY', 'OTHER'],
      sourceOfFundsOtherDescription: 'Contest winnings',
      purposeOfAccount: 'P2P_TRANSFERS',
      pepStatus: 'NONE',
      annualIncomeRange: 'RANGE_100K_250K',
      endUserTermsConsent: consent,
    });
    const res = await p.post('/customers', body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(CUSTOMER_ID),
      platformCustomerId: body.platformCustomerId,
      customerType: 'INDIVIDUAL',
      kycStatus: 'UNVERIFIED',
      region: 'US',
      currencies: ['USD'],
      email: 'jane.smith@example.com',
      phoneNumber: '+14155551234',
      umaAddress: expect.stringMatching(/^\$c[0-9a-f]{32}@localhost:\d+$/),
      endUserTermsConsent: consent,
      fullName: 'Jane Smith',
      birthDate: '1990-01-15',
      nationality: 'US',
      address: body.address,
      idType: 'SSN',
      countryOfIssuance: 'US',
      sourceOfFundsCategories: ['SALARY', 'OTHER'],
      sourceOfFundsOtherDescription: 'Contest winnings',
      purposeOfAccount: 'P2P_TRANSFERS',
      pepStatus: 'NONE',
      annualIncomeRange: 'RANGE_100K_250K',
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      isDeleted: false,
    });
    expect(res.body.identifier).toBeUndefined(); // write-only
    const got = await p.get(`/customers/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('creates a BUSINESS customer (the reference example) with kybStatus and kycStatus UNVERIFIED', async () => {
    const p = await TestPlatform.create(t);
    const body = business({ umaAddress: '$acme@uma.example.com' });
    const res = await p.post('/customers', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      customerType: 'BUSINESS',
      platformCustomerId: body.platformCustomerId,
      kybStatus: 'UNVERIFIED',
      kycStatus: 'UNVERIFIED',
      umaAddress: '$acme@uma.example.com',
      businessInfo: body.businessInfo,
      address: body.address,
      isDeleted: false,
    });
    expect(res.body.fullName).toBeUndefined();
    expect((await p.get(`/customers/${res.body.id}`)).body).toEqual(res.body);
  });

  it('needs only customerType: platformCustomerId, currencies and umaAddress are generated', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/customers', { customerType: 'INDIVIDUAL' });
    expect(res.status).toBe(201);
    expect(res.body.platformCustomerId).toBe(res.body.id.slice('Customer:'.length));
    expect(res.body.currencies).toEqual(['USD']);
    expect(res.body.umaAddress).toMatch(/^\$c[0-9a-f]{32}@localhost:\d+$/);
    await p.patch('/config', { umaDomain: 'pay.example.com' });
    const second = await p.post('/customers', { customerType: 'INDIVIDUAL' });
    expect(second.body.umaAddress).toMatch(/@pay\.example\.com$/);
  });

  it('opens one INTERNAL_FIAT account per supported currency, in the reference shape', async () => {
    const p = await TestPlatform.create(t);
    const cfg = (await p.get('/config')).body.supportedCurrencies[0];
    await p.patch('/config', { supportedCurrencies: [cfg, { ...cfg, currencyCode: 'JPY' }] });
    const customer = (await p.post('/customers', individual({ currencies: ['JPY'] }))).body;
    expect(customer.currencies).toEqual(['JPY']);
    const res = await p.get(`/customers/internal-accounts?customerId=${customer.id}`);
    expect(res.status).toBe(200);
    expect(res.body.totalCount).toBe(2);
    const byCurrency = Object.fromEntries(
      res.body.data.map((a: { balance: { currency: { code: string } } }) => [a.balance.currency.code, a]),
    );
    expect(byCurrency.USD).toEqual({
      id: expect.stringMatching(/^InternalAccount:[0-9a-f-]{36}$/),
      customerId: customer.id,
      type: 'INTERNAL_FIAT',
      status: 'ACTIVE',
      balance: { amount: 0, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } },
      totalBalance: { amount: 0, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } },
      fundingPaymentInstructions: [],
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(byCurrency.JPY.balance.currency).toEqual({ code: 'JPY', name: 'Japanese Yen', symbol: '¥', decimals: 0 });
  });

  it('reports every invalid INDIVIDUAL field in one response', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: '   ',
      region: 'USA',
      currencies: ['usd'],
      email: 'not-an-email',
      phoneNumber: '4155551234',
      umaAddress: 'john@example.com',
      fullName: 'x'.repeat(251),
      birthDate: '2023-02-30',
      nationality: 'ZZ',
      address: { line1: '', country: 'US', surprise: 1 },
      idType: 'PASSPORT',
      identifier: '123456789',
      countryOfIssuance: 'CA',
      sourceOfFundsCategories: ['LOTTERY'],
      sourceOfWealthCategories: 'SALARY',
      purposeOfAccount: 42,
      expectedMonthlyTransactionCount: 'MANY',
      pepStatus: null,
      kycStatus: 'APPROVED',
      businessInfo: { legalName: 'Not for individuals' },
      shoeSize: 44,
      endUserTermsConsent: { acceptedAt: 'yesterday', ipAddress: '999.1.1.1', acceptanceMethod: 'NOD' },
    });
    const body = expectError(res, 400, 'INVALID_INPUT');
    expect(fields(body)).toEqual([
      'address.line1',
      'address.postalCode',
      'address.surprise',
      'birthDate',
      'businessInfo',
      'countryOfIssuance',
      'currencies',
      'email',
      'endUserTermsConsent.acceptanceMethod',
      'endUserTermsConsent.acceptedAt',
      'endUserTermsConsent.ipAddress',
      'endUserTermsConsent.termsVersion',
      'expectedMonthlyTransactionCount',
      'fullName',
      'idType',
      'identifier',
      'kycStatus',
      'nationality',
      'pepStatus',
      'phoneNumber',
      'platformCustomerId',
      'purposeOfAccount',
      'region',
      'shoeSize',
      'sourceOfFundsCategories',
      'sourceOfWealthCategories',
      'umaAddress',
    ]);
    expect(errorOn(body, 'region')).toMatchObject({ constraint: { format: 'iso3166-1-alpha-2' } });
    expect(errorOn(body, 'email')).toMatchObject({ constraint: { format: 'email' } });
    expect(errorOn(body, 'birthDate')).toMatchObject({ constraint: { format: 'date' } });
    expect(errorOn(body, 'idType')!.constraint).toEqual({ enum: ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID'] });
    expect(errorOn(body, 'fullName')).toMatchObject({ constraint: { maxLength: 250 } });
    expect(errorOn(body, 'shoeSize')!.message).toBe('unknown field');
    expect(errorOn(body, 'kycStatus')!.message).toMatch(/read-only/);
    expect(errorOn(body, 'platformCustomerId')!.message).toMatch(/blank/);
    // Nothing was created.
    expect((await p.get('/customers')).body.totalCount).toBe(0);
  });

  it('reports every invalid BUSINESS field in one response', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post('/customers', {
      customerType: 'BUSINESS',
      fullName: 'Only for individuals',
      kybStatus: 'APPROVED',
      businessInfo: {
        doingBusinessAs: '',
        country: 'Atlantis',
        incorporatedOn: '2999-01-01',
        entityType: 'GUILD',
        naicsCode: '5',
        countriesOfOperation: ['US', 'XX'],
        expectedMonthlyTransactionVolume: 'LOTS',
        purposeOfAccount: 'OTHER',
        extra: true,
      },
      address: 'somewhere',
    });
    const body = expectError(res, 400, 'INVALID_INPUT');
    expect(fields(body)).toEqual([
      'address',
      'businessInfo.countriesOfOperation',
      'businessInfo.country',
      'businessInfo.doingBusinessAs',
      'businessInfo.entityType',
      'businessInfo.expectedMonthlyTransactionVolume',
      'businessInfo.extra',
      'businessInfo.incorporatedOn',
      'businessInfo.legalName',
      'businessInfo.naicsCode',
      'businessInfo.purposeOfAccountOtherDescription',
      'businessInfo.taxId',
      'fullName',
      'kybStatus',
    ]);
    expect(errorOn(body, 'businessInfo.legalName')!.message).toMatch(/required/);
    expect(fields(expectError(await p.post('/customers', { customerType: 'BUSINESS' }), 400, 'INVALID_INPUT'))).toEqual(
      ['businessInfo'],
    );
  });

  it('without a valid customerType still checks the shared fields and flags unknown ones', async () => {
    const p = await TestPlatform.create(t);
    const missing = expectError(
      await p.post('/customers', { email: 'bad', fullName: 'Jane', businessInfo: {}, nope: 1 }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(missing)).toEqual(['customerType', 'email', 'nope']);
    expect(errorOn(missing, 'customerType')!.constraint).toEqual({ enum: ['INDIVIDUAL', 'BUSINESS'] });
    const wrong = expectError(await p.post('/customers', { customerType: 'ROBOT' }), 400, 'INVALID_INPUT');
    expect(fields(wrong)).toEqual(['customerType']);
    const typed = expectError(await p.post('/customers', { customerType: ['INDIVIDUAL'] }), 400, 'INVALID_INPUT');
    expect(fields(typed)).toEqual(['customerType']);
  });

  it('answers a body that is not an object with INVALID_INPUT', async () => {
    const p = await TestPlatform.create(t);
    for (const raw of ['[]', '[{"customerType":"INDIVIDUAL"}]', '"INDIVIDUAL"', '42', 'null']) {
      const res = await p.post('/customers').set('Content-Type', 'application/json').send(raw);
      expect(res.status).toBe(400);
      expect(['INVALID_INPUT', 'INVALID_REQUEST_FORMAT']).toContain(res.body.code);
    }
    expectError(await p.post('/customers'), 400, 'INVALID_INPUT');
  });

  it('checks rules that span fields: OTHER needs its description, identifier needs SSN/ITIN, currencies must be supported', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.post(
      '/customers',
      individual({
        sourceOfWealthCategories: ['OTHER'],
        purposeOfAccount: 'OTHER',
        identifier: '123-45-6789',
        currencies: ['USD', 'EUR'],
      }),
    );
    const body = expectError(res, 400, 'INVALID_INPUT');
    expect(fields(body)).toEqual([
      'currencies.1',
      'idType',
      'purposeOfAccountOtherDescription',
      'sourceOfWealthOtherDescription',
    ]);
    expect(errorOn(body, 'currencies.1')!.constraint).toEqual({ enum: ['USD'] });
    const itin = await p.post('/customers', individual({ idType: 'ITIN', identifier: '123-45-6789' }));
    expect(fields(expectError(itin, 400, 'INVALID_INPUT'))).toEqual(['identifier']);
    const dup = await p.post('/customers', individual({ currencies: ['USD', 'USD'] }));
    expect(fields(expectError(dup, 400, 'INVALID_INPUT'))).toEqual(['currencies']);
    expect((await p.post('/customers', individual({ idType: 'ITIN', identifier: '912-70-1234' }))).status).toBe(201);
  });

  it('needs MANAGE to create; VIEW reads', async () => {
    const p = await TestPlatform.create(t);
    const viewer = await p.token(['VIEW']);
    const transact = await p.token(['TRANSACT']);
    for (const auth of [viewer.authorization, transact.authorization]) {
      const res = await t.http.post(`${V}/customers`).set('Authorization', auth).send(individual());
      expectError(res, 403, 'FORBIDDEN');
    }
    expect((await t.http.get(`${V}/customers`).set('Authorization', viewer.authorization)).status).toBe(200);
    expectError(await t.http.get(`${V}/customers`), 401, 'UNAUTHORIZED');
  });

  it('replays an Idempotency-Key and creates the customer once', async () => {
    const p = await TestPlatform.create(t);
    const body = individual();
    const first = await p.post('/customers', body).set('Idempotency-Key', 'create-1');
    const again = await p.post('/customers', body).set('Idempotency-Key', 'create-1');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expectError(await p.post('/customers', individual()).set('Idempotency-Key', 'create-1'), 409, 'CONFLICT');
    expect((await p.get('/customers')).body.totalCount).toBe(1);
    expect((await p.get('/customers/internal-accounts')).body.totalCount).toBe(1);
  });
});

describe('platformCustomerId uniqueness', () => {
  it('a second active customer with the same platformCustomerId is 409 CONFLICT', async () => {
    const p = await TestPlatform.create(t);
    const body = individual();
    expect((await p.post('/customers', body)).status).toBe(201);
    const res = await p.post('/customers', business({ platformCustomerId: body.platformCustomerId }));
    expectError(res, 409, 'CONFLICT');
    // Another platform may use the same value.
    const q = await TestPlatform.create(t);
    expect((await q.post('/customers', body)).status).toBe(201);
  });

  it('20 racing creates with one platformCustomerId: exactly one 201 and nineteen 409 CONFLICT', async () => {
    const p = await TestPlatform.create(t);
    const body = individual();
    const results = await Promise.all(Array.from({ length: 20 }, () => p.post('/customers', body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('CONFLICT');
    const list = await p.get(`/customers?platformCustomerId=${encodeURIComponent(body.platformCustomerId)}`);
    expect(list.body.totalCount).toBe(1);
    // The losers left no accounts behind.
    expect((await p.get('/customers/internal-accounts')).body.totalCount).toBe(1);
  });

  it("a deleted customer's platformCustomerId and umaAddress may be used again", async () => {
    const p = await TestPlatform.create(t);
    const body = individual({ umaAddress: '$jane@uma.example.com' });
    const first = (await p.post('/customers', body)).body;
    expectError(await p.post('/customers', { ...body, platformCustomerId: 'other' }), 409, 'UMA_ADDRESS_EXISTS');
    expect((await p.delete(`/customers/${first.id}`)).status).toBe(200);
    const second = await p.post('/customers', { ...body, umaAddress: '$JANE@uma.example.com' });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.id);
    const all = await p.get(
      `/customers?platformCustomerId=${encodeURIComponent(body.platformCustomerId)}&isIncludingDeleted=true`,
    );
    expect(all.body.data.map((c: { isDeleted: boolean }) => c.isDeleted)).toEqual([false, true]);
  });
});

describe('GET /customers/{customerId}', () => {
  it('unknown ids are 404 CUSTOMER_NOT_FOUND; malformed ids are 400', async () => {
    const p = await TestPlatform.create(t);
    expectError(await p.get(`/customers/${MISSING}`), 404, 'CUSTOMER_NOT_FOUND');
    const bad = expectError(await p.get('/customers/not-an-id'), 400, 'INVALID_INPUT');
    expect(fields(bad)).toEqual(['customerId']);
    expectError(await p.get('/customers/Token:00000000-0000-7000-8000-000000000000'), 400, 'INVALID_INPUT');
  });
});

describe('PATCH /customers/{customerId}', () => {
  it('omitted fields stay, null clears, values set; businessInfo is merged member by member', async () => {
    const p = await TestPlatform.create(t);
    const created = (await p.post('/customers', business())).body;
    const res = await p.patch(`/customers/${created.id}`, {
      customerType: 'BUSINESS',
      email: null,
      phoneNumber: '+442071234567',
      businessInfo: { legalName: 'Acme Holdings', doingBusinessAs: null, naicsCode: '541511' },
    });
    expect(res.status).toBe(200);
    expect(res.body.email).toBeUndefined();
    expect(res.body.phoneNumber).toBe('+442071234567');
    expect(res.body.businessInfo).toEqual({
      ...created.businessInfo,
      legalName: 'Acme Holdings',
      doingBusinessAs: undefined,
      naicsCode: '541511',
    });
    expect(res.body.businessInfo.doingBusinessAs).toBeUndefined();
    expect(res.body.address).toEqual(created.address);
    expect(res.body.platformCustomerId).toBe(created.platformCustomerId);
    expect(res.body.createdAt).toBe(created.createdAt);
    expect(res.body.updatedAt > created.updatedAt).toBe(true);
    expect((await p.get(`/customers/${created.id}`)).body).toEqual(res.body);

    const cleared = await p.patch(`/customers/${created.id}`, { customerType: 'BUSINESS', address: null });
    expect(cleared.body.address).toBeUndefined();
    const bad = await p.patch(`/customers/${created.id}`, {
      customerType: 'BUSINESS',
      businessInfo: { legalName: null, taxId: '' },
      currencies: null,
      umaAddress: null,
    });
    expect(fields(expectError(bad, 400, 'INVALID_INPUT'))).toEqual([
      'businessInfo.legalName',
      'businessInfo.taxId',
      'currencies',
      'umaAddress',
    ]);
  });

  it('updates an INDIVIDUAL: the address is replaced whole, rules are checked on the result', async () => {
    const p = await TestPlatform.create(t);
    const created = (await p.post('/customers', individual({ idType: 'SSN', identifier: '123-45-6789' }))).body;
    const res = await p.patch(`/customers/${created.id}`, {
      customerType: 'INDIVIDUAL',
      fullName: 'John Smith',
      birthDate: '1985-06-15',
      address: { line1: '456 Market St', postalCode: '98101', country: 'US' },
      purposeOfAccount: 'OTHER',
      purposeOfAccountOtherDescription: 'Household budgeting',
      currencies: ['USD'],
      endUserTermsConsent: {
        acceptedAt: '2026-01-02T03:04:05Z',
        ipAddress: '2001:db8::1',
        termsVersion: 'V1',
        acceptanceMethod: 'CLICK_TO_ACCEPT',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      fullName: 'John Smith',
      birthDate: '1985-06-15',
      nationality: 'US',
      currencies: ['USD'],
      endUserTermsConsent: { termsVersion: 'V1', ipAddress: '2001:db8::1' },
    });
    expect((await p.get(`/customers/${created.id}`)).body).toEqual(res.body);
    expect(res.body.address).toEqual({ line1: '456 Market St', postalCode: '98101', country: 'US' });
    // Clearing the description while OTHER stays breaks the rule; so does dropping idType under a stored identifier.
    const broken = await p.patch(`/customers/${created.id}`, {
      customerType: 'INDIVIDUAL',
      purposeOfAccountOtherDescription: null,
      idType: null,
    });
    expect(fields(expectError(broken, 400, 'INVALID_INPUT'))).toEqual(['idType', 'purposeOfAccountOtherDescription']);
    // Removing the identifier too is fine.
    const ok = await p.patch(`/customers/${created.id}`, {
      customerType: 'INDIVIDUAL',
      idType: null,
      identifier: null,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.idType).toBeUndefined();
  });

  it('refuses a change of customerType, an unknown field and a read-only status', async () => {
    const p = await TestPlatform.create(t);
    const created = (await p.post('/customers', individual())).body;
    const res = await p.patch(`/customers/${created.id}`, { customerType: 'BUSINESS', kybStatus: 'APPROVED' });
    expect(fields(expectError(res, 400, 'INVALID_INPUT'))).toEqual(['customerType', 'kybStatus']);
    const missing = await p.patch(`/customers/${created.id}`, { fullName: 'No type' });
    expect(fields(expectError(missing, 400, 'INVALID_INPUT'))).toEqual(['customerType']);
    const unknown = await p.patch(`/customers/${created.id}`, { customerType: 'INDIVIDUAL', favouriteColour: 'blue' });
    expect(fields(expectError(unknown, 400, 'INVALID_INPUT'))).toEqual(['favouriteColour']);
  });

  it('changing platformCustomerId to one an active customer holds is 409 CONFLICT', async () => {
    const p = await TestPlatform.create(t);
    const a = (await p.post('/customers', individual())).body;
    const b = (await p.post('/customers', individual())).body;
    const res = await p.patch(`/customers/${b.id}`, {
      customerType: 'INDIVIDUAL',
      platformCustomerId: a.platformCustomerId,
    });
    expectError(res, 409, 'CONFLICT');
    expect((await p.get(`/customers/${b.id}`)).body.platformCustomerId).toBe(b.platformCustomerId);
    const free = await p.patch(`/customers/${b.id}`, { customerType: 'INDIVIDUAL', platformCustomerId: 'renamed' });
    expect(free.body.platformCustomerId).toBe('renamed');
  });

  it('404 for unknown, 410 CUSTOMER_DELETED for deleted customers, MANAGE required', async () => {
    const p = await TestPlatform.create(t);
    expectError(await p.patch(`/customers/${MISSING}`, { customerType: 'INDIVIDUAL' }), 404, 'CUSTOMER_NOT_FOUND');
    const c = (await p.post('/customers', individual())).body;
    const viewer = await p.token(['VIEW', 'TRANSACT']);
    const forbidden = await t.http
      .patch(`${V}/customers/${c.id}`)
      .set('Authorization', viewer.authorization)
      .send({ customerType: 'INDIVIDUAL' });
    expectError(forbidden, 403, 'FORBIDDEN');
    await p.delete(`/customers/${c.id}`);
    expectError(
      await p.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', fullName: 'x' }),
      410,
      'CUSTOMER_DELETED',
    );
  });
});

describe('DELETE /customers/{customerId}', () => {
  it('soft-deletes: 200 with isDeleted, still readable, hidden from lists unless asked, 410 the second time', async () => {
    const p = await TestPlatform.create(t);
    const c = (await p.post('/customers', individual())).body;
    const del = await p.delete(`/customers/${c.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: c.id, isDeleted: true, fullName: 'Jane Smith' });
    const got = await p.get(`/customers/${c.id}`);
    expect(got.status).toBe(200);
    expect(got.body.isDeleted).toBe(true);
    expect((await p.get('/customers')).body.totalCount).toBe(0);
    const withDeleted = await p.get('/customers?isIncludingDeleted=true');
    expect(withDeleted.body.data.map((x: { id: string }) => x.id)).toEqual([c.id]);
    expectError(await p.delete(`/customers/${c.id}`), 410, 'CUSTOMER_DELETED');
    expectError(await p.delete(`/customers/${MISSING}`), 404, 'CUSTOMER_NOT_FOUND');
    // Its accounts (and their history) stay.
    expect((await p.get(`/customers/internal-accounts?customerId=${c.id}`)).body.totalCount).toBe(1);
  });

  it('needs MANAGE', async () => {
    const p = await TestPlatform.create(t);
    const c = (await p.post('/customers', individual())).body;
    const viewer = await p.token(['VIEW', 'TRANSACT']);
    const res = await t.http.delete(`${V}/customers/${c.id}`).set('Authorization', viewer.authorization);
    expectError(res, 403, 'FORBIDDEN');
  });
});

describe('GET /customers', () => {
  it('pages newest first with a stable cursor', async () => {
    const p = await TestPlatform.create(t);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await p.post('/customers', individual())).body.id);
    const page1 = await p.get('/customers?limit=2');
    expect(page1.body).toMatchObject({ hasMore: true, totalCount: 5 });
    expect(page1.body.data.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[3]]);
    await p.post('/customers', individual()); // inserted while paging: lands before the cursor
    const page2 = await p.get(`/customers?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.data.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    const page3 = await p.get(`/customers?limit=2&cursor=${page2.body.nextCursor}`);
    expect(page3.body.data.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect(page3.body.hasMore).toBe(false);
    expect(page3.body.nextCursor).toBeUndefined();
  });

  it('filters by platformCustomerId, customerType, region, currency, umaAddress and timestamps', async () => {
    const p = await TestPlatform.create(t);
    const cfg = (await p.get('/config')).body.supportedCurrencies[0];
    await p.patch('/config', { supportedCurrencies: [cfg, { ...cfg, currencyCode: 'EUR' }] });
    const a = (await p.post('/customers', individual({ region: 'DE', currencies: ['EUR'] }))).body;
    const b = (await p.post('/customers', business({ umaAddress: '$acme@pay.example.com' }))).body;
    const c = (await p.post('/customers', individual({ currencies: ['USD'] }))).body;
    const ids = async (query: string): Promise<string[]> => {
      const res = await p.get(`/customers?${query}`);
      expect(res.status).toBe(200);
      return (res.body.data as Array<{ id: string }>).map((x) => x.id);
    };
    expect(await ids(`platformCustomerId=${a.platformCustomerId}`)).toEqual([a.id]);
    expect(await ids('customerType=BUSINESS')).toEqual([b.id]);
    expect(await ids('customerType=INDIVIDUAL')).toEqual([c.id, a.id]);
    expect(await ids('region=DE')).toEqual([a.id]);
    expect(await ids('currency=EUR')).toEqual([b.id, a.id]);
    expect(await ids('currency=USD')).toEqual([c.id, b.id]);
    expect(await ids(`umaAddress=${encodeURIComponent('$ACME@pay.example.com')}`)).toEqual([b.id]);
    expect(await ids(`createdAfter=${encodeURIComponent(b.createdAt)}`)).toEqual([c.id, b.id]);
    expect(await ids(`createdBefore=${encodeURIComponent(b.createdAt)}`)).toEqual([b.id, a.id]);
    await p.patch(`/customers/${a.id}`, { customerType: 'INDIVIDUAL', fullName: 'Updated' });
    const updated = (await p.get(`/customers/${a.id}`)).body.updatedAt;
    expect(await ids(`updatedAfter=${encodeURIComponent(updated)}`)).toEqual([a.id]);
    expect(await ids(`updatedBefore=${encodeURIComponent(c.updatedAt)}`)).toEqual([c.id, b.id]);
  });

  it('rejects bad filter values, each as a FieldError', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.get(
      '/customers?customerType=ROBOT&isIncludingDeleted=maybe&limit=0&createdAfter=yesterday&x=1',
    );
    expect(fields(expectError(res, 400, 'INVALID_INPUT'))).toEqual([
      'createdAfter',
      'customerType',
      'isIncludingDeleted',
      'limit',
      'x',
    ]);
    expectError(await p.get('/customers?cursor=garbage'), 400, 'INVALID_INPUT');
  });
});

describe('tenancy', () => {
  it("platform B cannot read, list, update, delete or set KYC on platform A's customers (404)", async () => {
    const a = await TestPlatform.create(t, 'A');
    const b = await TestPlatform.create(t, 'B');
    const c = (await a.post('/customers', individual())).body;
    expectError(await b.get(`/customers/${c.id}`), 404, 'CUSTOMER_NOT_FOUND');
    expectError(
      await b.patch(`/customers/${c.id}`, { customerType: 'INDIVIDUAL', fullName: 'Mallory' }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    expectError(await b.delete(`/customers/${c.id}`), 404, 'CUSTOMER_NOT_FOUND');
    expectError(await b.post(`/sandbox/customers/${c.id}/kyc`, { kycStatus: 'APPROVED' }), 404, 'CUSTOMER_NOT_FOUND');
    expect((await b.get('/customers?isIncludingDeleted=true')).body.totalCount).toBe(0);
    expect((await b.get(`/customers?platformCustomerId=${c.platformCustomerId}`)).body.data).toEqual([]);
    expect((await b.get(`/customers/internal-accounts?customerId=${c.id}`)).body.totalCount).toBe(0);
    // A's customer is untouched.
    const still = await a.get(`/customers/${c.id}`);
    expect(still.body).toMatchObject({ fullName: 'Jane Smith', isDeleted: false, kycStatus: 'UNVERIFIED' });
  });
});

describe('POST /sandbox/customers/{customerId}/kyc', () => {
  it('sets every KYC status and returns the customer', async () => {
    const p = await TestPlatform.create(t);
    const c = (await p.post('/customers', individual())).body;
    for (const kycStatus of ['PENDING', 'APPROVED', 'REJECTED', 'HOLD', 'UNVERIFIED']) {
      const res = await p.post(`/sandbox/customers/${c.id}/kyc`, { kycStatus });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: c.id, kycStatus });
    }
    const biz = (await p.post('/customers', business())).body;
    const res = await p.post(`/sandbox/customers/${biz.id}/kyc`, { kycStatus: 'APPROVED' });
    expect(res.body).toMatchObject({ kybStatus: 'APPROVED', kycStatus: 'APPROVED' });
    expect((await p.get(`/customers/${biz.id}`)).body.kybStatus).toBe('APPROVED');
  });

  it('validates the status, 404s unknown customers, 410s deleted ones, needs MANAGE', async () => {
    const p = await TestPlatform.create(t);
    const c = (await p.post('/customers', individual())).body;
    const bad = expectError(
      await p.post(`/sandbox/customers/${c.id}/kyc`, { kycStatus: 'MAYBE', x: 1 }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(bad)).toEqual(['kycStatus', 'x']);
    expect(errorOn(bad, 'kycStatus')!.constraint).toEqual({
      enum: ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED', 'HOLD'],
    });
    expectError(await p.post(`/sandbox/customers/${c.id}/kyc`, {}), 400, 'INVALID_INPUT');
    expectError(
      await p.post(`/sandbox/customers/${MISSING}/kyc`, { kycStatus: 'APPROVED' }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    const viewer = await p.token(['VIEW', 'TRANSACT']);
    const forbidden = await t.http
      .post(`${V}/sandbox/customers/${c.id}/kyc`)
      .set('Authorization', viewer.authorization)
      .send({ kycStatus: 'APPROVED' });
    expectError(forbidden, 403, 'FORBIDDEN');
    await p.delete(`/customers/${c.id}`);
    expectError(await p.post(`/sandbox/customers/${c.id}/kyc`, { kycStatus: 'APPROVED' }), 410, 'CUSTOMER_DELETED');
  });
});

describe('OpenAPI document', () => {
  it('documents the customer, internal-account and sandbox routes with the discriminated bodies', async () => {
    const doc = (await t.http.get(`${V}/openapi.json`)).body;
    for (const path of [
      '/customers',
      '/customers/{customerId}',
      '/customers/internal-accounts',
      '/platform/internal-accounts',
      '/sandbox/customers/{customerId}/kyc',
      '/sandbox/internal-accounts/{accountId}/fund',
    ])
      expect(doc.paths[path]).toBeDefined();
    expect(doc.paths['/customers'].post.requestBody.content['application/json'].schema.discriminator).toMatchObject({
      propertyName: 'customerType',
    });
    expect(doc.components.schemas.BusinessInfo.required.sort()).toEqual([
      'country',
      'incorporatedOn',
      'legalName',
      'taxId',
    ]);
  });
});
