import { business, individual } from '../support/customers.js';
import { expectError, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

/**
 * The End User Terms (`GET /customers/end-user-terms`, END_USER_TERMS_VERSION_NOT_FOUND) and the
 * provider's required customer information (PROVIDER_REQUIRED_CUSTOMER_FIELDS,
 * MISSING_MANDATORY_USER_INFO), on a deployment that offers V1 and V2 and whose provider requires
 * a birth date and a tax id for USD.
 */
let t: TestApp;
let plain: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    END_USER_TERMS_VERSIONS: 'V1,V2',
    END_USER_TERMS_URL: 'https://terms.example.com/grid/v2',
    PROVIDER_REQUIRED_CUSTOMER_FIELDS: 'USD=BIRTH_DATE|TAX_ID;EUR=EMAIL',
  });
  plain = await startTestApp();
});
afterAll(async () => {
  await t.close();
  await plain.close();
});

const consent = (termsVersion: string) => ({
  acceptedAt: '2026-01-02T03:04:05Z',
  ipAddress: '198.51.100.24',
  termsVersion,
  acceptanceMethod: 'CHECKBOX',
});

describe('GET /customers/end-user-terms', () => {
  it('answers the current version and its URL (not the customer route), Basic auth required', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.get('/customers/end-user-terms');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 'V2', url: 'https://terms.example.com/grid/v2' });
    expectError(await t.http.get(`${V}/customers/end-user-terms`), 401, 'UNAUTHORIZED');

    const q = await TestPlatform.create(plain);
    expect((await q.get('/customers/end-user-terms')).body).toEqual({
      version: 'V1',
      url: 'https://www.lightspark.com/legal/grid/enduserterms',
    });
  });
});

describe('endUserTermsConsent.termsVersion', () => {
  it('accepts an offered version on create and update; another answers 400 END_USER_TERMS_VERSION_NOT_FOUND', async () => {
    const p = await TestPlatform.create(t);
    const created = await p.post(
      '/customers',
      individual({ identifier: '123-45-6789', idType: 'SSN', endUserTermsConsent: consent('V1') }),
    );
    expect(created.status).toBe(201);
    expect(created.body.endUserTermsConsent).toEqual(consent('V1'));

    const refused = expectError(
      await p.post('/customers', individual({ endUserTermsConsent: consent('V9') })),
      400,
      'END_USER_TERMS_VERSION_NOT_FOUND',
    );
    expect(refused.details).toEqual({ field: 'endUserTermsConsent.termsVersion', supportedVersions: ['V1', 'V2'] });

    const patched = await p.patch(`/customers/${created.body.id}`, {
      customerType: 'INDIVIDUAL',
      endUserTermsConsent: consent('V2'),
    });
    expect(patched.status).toBe(200);
    expect(patched.body.endUserTermsConsent.termsVersion).toBe('V2');
    expectError(
      await p.patch(`/customers/${created.body.id}`, {
        customerType: 'INDIVIDUAL',
        endUserTermsConsent: consent('2025-10-13'),
      }),
      400,
      'END_USER_TERMS_VERSION_NOT_FOUND',
    );
    // Nothing changed by the refusal.
    expect((await p.get(`/customers/${created.body.id}`)).body.endUserTermsConsent.termsVersion).toBe('V2');
  });

  it('a malformed consent is INVALID_INPUT first (the version is checked on a valid body)', async () => {
    const p = await TestPlatform.create(t);
    expectError(
      await p.post('/customers', individual({ endUserTermsConsent: { ...consent('V9'), acceptanceMethod: 'NOD' } })),
      400,
      'INVALID_INPUT',
    );
  });
});

describe('MISSING_MANDATORY_USER_INFO', () => {
  it('a USD customer without the provider-required fields is refused on create and on update', async () => {
    const p = await TestPlatform.create(t);
    const config = await p.get('/config');
    expect(
      config.body.supportedCurrencies.find((c: { currencyCode: string }) => c.currencyCode === 'USD'),
    ).toMatchObject({
      providerRequiredCustomerFields: ['BIRTH_DATE', 'TAX_ID'],
    });

    const missing = expectError(
      await p.post('/customers', individual({ birthDate: undefined, currencies: ['USD'] })),
      400,
      'MISSING_MANDATORY_USER_INFO',
    );
    expect(missing.details).toEqual({
      missingFields: [
        { field: 'BIRTH_DATE', requiredFor: ['USD'] },
        { field: 'TAX_ID', requiredFor: ['USD'] },
      ],
    });
    expect((await p.get('/customers')).body.data).toEqual([]);

    const ok = await p.post('/customers', individual({ idType: 'SSN', identifier: '123-45-6789' }));
    expect(ok.status).toBe(201);
    // Removing a required field later is refused the same way, and nothing changes.
    expectError(
      await p.patch(`/customers/${ok.body.id}`, { customerType: 'INDIVIDUAL', birthDate: null }),
      400,
      'MISSING_MANDATORY_USER_INFO',
    );
    expect((await p.get(`/customers/${ok.body.id}`)).body.birthDate).toBe('1990-01-15');

    // A business: its tax id is businessInfo.taxId (present in the fixture); birth date does not apply.
    expect((await p.post('/customers', business())).status).toBe(201);
  });

  it('GET /config sent back as a PATCH keeps working: providerRequiredCustomerFields is read-only, not stored', async () => {
    const p = await TestPlatform.create(t);
    const before = (await p.get('/config')).body as { supportedCurrencies: Array<Record<string, unknown>> };
    const eur = {
      ...before.supportedCurrencies[0],
      currencyCode: 'EUR',
      providerRequiredCustomerFields: ['NATIONALITY'],
    };
    const res = await p.patch('/config', { supportedCurrencies: [...before.supportedCurrencies, eur] });
    expect(res.status).toBe(200);
    const shown = (res.body as typeof before).supportedCurrencies.map((c) => [
      c.currencyCode,
      c.providerRequiredCustomerFields,
    ]);
    // What the deployment requires, not what was sent.
    expect(shown).toEqual([
      ['USD', ['BIRTH_DATE', 'TAX_ID']],
      ['EUR', ['EMAIL']],
    ]);
    expectError(
      await p.post('/customers', individual({ email: undefined, currencies: ['EUR'] })),
      400,
      'MISSING_MANDATORY_USER_INFO',
    );
  });

  it('a currency with no requirement needs nothing more (the default deployment requires nothing)', async () => {
    const q = await TestPlatform.create(plain);
    expect((await q.post('/customers', individual({ birthDate: undefined }))).status).toBe(201);
    const config = await q.get('/config');
    expect(config.body.supportedCurrencies[0].providerRequiredCustomerFields).toBeUndefined();
  });
});
