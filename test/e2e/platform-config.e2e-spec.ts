import fc from 'fast-check';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const fields = (body: { details?: Record<string, unknown> }) =>
  (body.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();

describe('GET/PATCH /config', () => {
  it('starts with sandbox defaults', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.get('/config');
    expect(res.status).toBe(200);
    expect(res.body.id).toMatch(/^PlatformConfig:/);
    expect(res.body.supportedCurrencies.map((c: { currencyCode: string }) => c.currencyCode)).toEqual(['USD']);
    expect(res.body.cardConfigs).toEqual({
      pinTargetOrigin: null,
      maxSpendPerTransaction: null,
      maxSpendPerDay: null,
      maxTransactionsPerDay: null,
      panRevealCssUrl: null,
    });
    expect(res.body.cardProgram).toEqual({
      authorizationDecisionMaker: 'SERVICE',
      cardCapabilities: {
        supportsSpendLimits: true,
        supportsSpendLimitsAtIssuance: true,
        supportsTransactionCountLimit: true,
        supports3dSecurePassword: true,
        supportsPanReveal: true,
        supportsDigitalWalletTokenization: true,
      },
      maxLiveCards: 1000,
      oneLiveCardPerCardholder: false,
      sandboxProvisioning: 'AUTOMATIC',
    });
    expect(res.body.webhookEndpoint).toBeUndefined();
    expect(res.body.counterpartyRequirements).toBe(false);
  });

  it('omitted fields stay, null clears, values set', async () => {
    const p = await TestPlatform.create(t);
    const set = await p.patch('/config', {
      webhookEndpoint: 'https://hooks.example.com/grid',
      cardConfigs: { maxSpendPerDay: 50000, maxTransactionsPerDay: 20 },
      cardProgram: { cardCapabilities: { supportsPanReveal: false }, maxLiveCards: 5 },
    });
    expect(set.status).toBe(200);
    expect(set.body.webhookEndpoint).toBe('https://hooks.example.com/grid');
    expect(set.body.cardConfigs).toMatchObject({
      maxSpendPerDay: 50000,
      maxTransactionsPerDay: 20,
      maxSpendPerTransaction: null,
    });
    expect(set.body.cardProgram.cardCapabilities.supportsPanReveal).toBe(false);
    expect(set.body.cardProgram.cardCapabilities.supportsSpendLimits).toBe(true);
    expect(set.body.cardProgram.maxLiveCards).toBe(5);

    const partial = await p.patch('/config', { cardConfigs: { maxSpendPerDay: null } });
    expect(partial.body.cardConfigs).toMatchObject({ maxSpendPerDay: null, maxTransactionsPerDay: 20 });
    expect(partial.body.webhookEndpoint).toBe('https://hooks.example.com/grid');

    const cleared = await p.patch('/config', { webhookEndpoint: null });
    expect(cleared.body.webhookEndpoint).toBeUndefined();
    expect((await p.get('/config')).body.cardConfigs.maxTransactionsPerDay).toBe(20);
  });

  it('an array where an entry object belongs is a FieldError, not a 500 (found by the fuzz test)', async () => {
    const p = await TestPlatform.create(t);
    for (const supportedCurrencies of [[[]], [[{ currencyCode: 'USD' }]], [null], ['USD']]) {
      const res = await p.patch('/config', { supportedCurrencies });
      expect({ supportedCurrencies, fields: fields(expectError(res, 400, 'INVALID_INPUT')) }).toEqual({
        supportedCurrencies,
        fields: expect.arrayContaining(['supportedCurrencies']) as unknown,
      });
    }
    expect((await p.get('/config')).body.supportedCurrencies).toHaveLength(1);
  });

  it('replaces supportedCurrencies and checks each entry', async () => {
    const p = await TestPlatform.create(t);
    const usd = {
      currencyCode: 'USD',
      minAmount: 1,
      maxAmount: 100,
      requiredCounterpartyFields: [],
      enabledTransactionTypes: ['OUTGOING'],
    };
    const ok = await p.patch('/config', { supportedCurrencies: [usd, { ...usd, currencyCode: 'EUR' }] });
    expect(ok.status).toBe(200);
    expect(ok.body.supportedCurrencies).toHaveLength(2);
    const bad = await p.patch('/config', {
      supportedCurrencies: [
        { ...usd, currencyCode: 'usd', enabledTransactionTypes: ['TELEPORT'] },
        { ...usd, requiredCounterpartyFields: [{ name: 'SHOE_SIZE' }] },
      ],
    });
    const body = expectError(bad, 400, 'INVALID_INPUT');
    expect(fields(body)).toEqual([
      'supportedCurrencies.0.currencyCode',
      'supportedCurrencies.0.enabledTransactionTypes',
      'supportedCurrencies.1.requiredCounterpartyFields.0.mandatory',
      'supportedCurrencies.1.requiredCounterpartyFields.0.name',
    ]);
    const dup = await p.patch('/config', { supportedCurrencies: [usd, { ...usd, minAmount: 500 }] });
    expect(fields(expectError(dup, 400, 'INVALID_INPUT'))).toEqual([
      'supportedCurrencies.1.currencyCode',
      'supportedCurrencies.1.minAmount',
    ]);
    expectError(await p.patch('/config', { supportedCurrencies: [] }), 400, 'INVALID_INPUT');
  });

  it('validates limits, URLs and unknown fields all at once', async () => {
    const p = await TestPlatform.create(t);
    const res = await p.patch('/config', {
      webhookEndpoint: 'ftp://files.example.com',
      cardConfigs: {
        maxSpendPerTransaction: 0,
        maxTransactionsPerDay: 2147483648,
        pinTargetOrigin: 'http://x.com/path',
      },
      cardProgram: { authorizationDecisionMaker: 'BANK' },
      surprise: true,
    });
    const body = expectError(res, 400, 'INVALID_INPUT');
    expect(fields(body)).toEqual([
      'cardConfigs.maxSpendPerTransaction',
      'cardConfigs.maxTransactionsPerDay',
      'cardConfigs.pinTargetOrigin',
      'cardProgram.authorizationDecisionMaker',
      'surprise',
    ]);
    const url = expectError(await p.patch('/config', { webhookEndpoint: 'not a url' }), 400, 'INVALID_INPUT');
    expect(url.details!.errors).toEqual([
      expect.objectContaining({ field: 'webhookEndpoint', constraint: { format: 'url' } }),
    ]);
  });

  it('accepts http endpoints only in sandbox', async () => {
    const p = await TestPlatform.create(t);
    expect((await p.patch('/config', { webhookEndpoint: 'http://localhost:9999/hook' })).status).toBe(200);
    const live = await startTestApp({ SANDBOX: 'false' });
    try {
      const q = await TestPlatform.create(live);
      const res = await q.patch('/config', { webhookEndpoint: 'http://hooks.example.com/x' });
      expectError(res, 400, 'INVALID_INPUT');
      expect((await q.patch('/config', { webhookEndpoint: 'https://hooks.example.com/x' })).status).toBe(200);
    } finally {
      await live.close();
    }
  });

  it('needs MANAGE to change, VIEW to read', async () => {
    const p = await TestPlatform.create(t);
    const viewer = await p.token(['VIEW']);
    expect((await t.http.get('/2025-10-13/config').set('Authorization', viewer.authorization)).status).toBe(200);
    const res = await t.http
      .patch('/2025-10-13/config')
      .set('Authorization', viewer.authorization)
      .send({ counterpartyRequirements: true });
    expectError(res, 403, 'FORBIDDEN');
  });

  it('random bodies never give a 5xx', async () => {
    const p = await TestPlatform.create(t);
    const anyBody = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          webhookEndpoint: fc.oneof(fc.webUrl(), fc.string(), fc.constant(null), fc.integer()),
          supportedCurrencies: fc.jsonValue(),
          cardConfigs: fc.oneof(
            fc.jsonValue(),
            fc.record({ maxSpendPerDay: fc.oneof(fc.integer(), fc.double(), fc.constant(null)) }),
          ),
          cardProgram: fc.jsonValue(),
          counterpartyRequirements: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(anyBody, async (body) => {
        const res = await p.patch('/config', {}).send(JSON.stringify(body)).set('Content-Type', 'application/json');
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });
});
