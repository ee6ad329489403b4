import { randomUUID } from 'node:crypto';
import { DEFAULT_CARD_PROGRAM } from '../../src/platform-config/card-program.js';
import { recordedEvents } from '../support/events.js';
import {
  activeCard,
  cardBody,
  CardView,
  issuedCard,
  postCard,
  provisioned,
  statusChange,
  THREE_DS,
  usdbAccount,
} from '../support/cards.js';
import { customerAccount, kycApprovedCustomer, supportCurrencies, newCustomer } from '../support/fixtures.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type ErrorBody = { details?: { errors?: Array<{ field: string; message: string }> } };
const fields = (body: ErrorBody) => body.details!.errors!.map((e) => e.field).sort();

const CARD_ID = /^Card:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_CARD = 'Card:00000000-0000-7000-8000-000000000000';

describe('POST /cards', () => {
  it('issues a PROCESSING card with the server-generated members and the program capabilities', async () => {
    const p = await TestPlatform.create(t);
    const customer = await kycApprovedCustomer(p);
    const account = await customerAccount(p, customer.id);
    const res = await postCard(
      p,
      cardBody(customer.id, account.id, {
        platformCardId: 'mine-ignored',
        maxSpendPerTransaction: 5000,
        maxSpendPerDay: 25000,
        maxTransactionsPerDay: 20,
      }),
    );
    expect(res.status).toBe(201);
    const card = res.body as CardView;
    expect(card).toEqual({
      id: expect.stringMatching(CARD_ID),
      customerId: customer.id,
      platformCardId: expect.not.stringMatching(/^mine-ignored$/),
      status: 'PROCESSING',
      form: 'VIRTUAL',
      brand: 'VISA',
      last4: expect.stringMatching(/^\d{4}$/),
      expMonth: expect.any(Number),
      expYear: expect.any(Number),
      fundingSource: account.id,
      cardCapabilities: DEFAULT_CARD_PROGRAM.cardCapabilities, // the sandbox program's: every capability on
      maxSpendPerTransaction: 5000,
      maxSpendPerDay: 25000,
      maxTransactionsPerDay: 20,
      currency: 'USD',
      processorRef: expect.any(String),
      issuerRef: expect.any(String),
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(card.statusReason).toBeUndefined();
    expect(card.expYear).toBeGreaterThanOrEqual(Number(card.createdAt.slice(0, 4)));
    expect(JSON.stringify(card)).not.toContain(THREE_DS);
    expect((await p.get(`/cards/${card.id}`)).body).toEqual(card);
    // Issuance is not a transition: no event.
    expect(await recordedEvents(p, 'CARD.STATUS_CHANGE')).toEqual([]);
  });

  it('requires Idempotency-Key (missing or over 255 characters: a FieldError on the header)', async () => {
    const p = await TestPlatform.create(t);
    const customer = await kycApprovedCustomer(p);
    const account = await customerAccount(p, customer.id);
    const body = cardBody(customer.id, account.id);
    expect(invalidFields(await p.post('/cards', body))).toEqual(['Idempotency-Key']);
    expect(invalidFields(await postCard(p, body, 'k'.repeat(256)))).toEqual(['Idempotency-Key']);
    expect((await p.get('/cards')).body.totalCount).toBe(0);
    expect((await postCard(p, body, 'k'.repeat(255))).status).toBe(201);
  });

  it('a retry with the same key returns the same card; the same key with another body is 409 CONFLICT', async () => {
    const p = await TestPlatform.create(t);
    const customer = await kycApprovedCustomer(p);
    const account = await customerAccount(p, customer.id);
    const key = randomUUID();
    const first = await postCard(p, cardBody(customer.id, account.id), key);
    expect(first.status).toBe(201);
    const again = await postCard(p, cardBody(customer.id, account.id), key);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expectError(await postCard(p, cardBody(customer.id, account.id, { maxSpendPerDay: 1 }), key), 409, 'CONFLICT');
    expect((await p.get('/cards')).body.totalCount).toBe(1);
  });

  it('every FieldError of the body comes in one response', async () => {
    const p = await TestPlatform.create(t);
    const res = await postCard(p, {
      customerId: 'nope',
      form: 'PHYSICAL',
      fundingSource: 42,
      maxSpendPerTransaction: 0,
      maxSpendPerDay: 9007199254740992,
      maxTransactionsPerDay: 2147483648,
      extra: true,
    });
    const body = expectError(res, 400, 'INVALID_INPUT') as ErrorBody;
    expect(fields(body)).toEqual([
      'customerId',
      'extra',
      'form',
      'fundingSource',
      'maxSpendPerDay',
      'maxSpendPerTransaction',
      'maxTransactionsPerDay',
      'threeDSecurePassword',
    ]);
    expect(invalidFields(await postCard(p, {}))).toEqual([
      'customerId',
      'form',
      'fundingSource',
      'threeDSecurePassword',
    ]);
    expect(invalidFields(await postCard(p, []))).toEqual(['body']);
  });

  it('threeDSecurePassword: required and non-blank where the program supports it, refused where not', async () => {
    const p = await TestPlatform.create(t);
    const customer = await kycApprovedCustomer(p);
    const account = await customerAccount(p, customer.id);
    for (const pw of [undefined, '', '   ']) {
      const body = expectError(
        await postCard(p, cardBody(customer.id, account.id, { threeDSecurePassword: pw })),
        400,
        'INVALID_INPUT',
      ) as ErrorBody;
      expect(fields(body)).toEqual(['threeDSecurePassword']);
    }
    await p.patch('/config', { cardProgram: { cardCapabilities: { supports3dSecurePassword: false } } }).expect(200);
    expect(invalidFields(await postCard(p, cardBody(customer.id, account.id)))).toEqual(['threeDSecurePassword']);
    const res = await postCard(p, cardBody(customer.id, account.id, { threeDSecurePassword: undefined }));
    expect(res.status).toBe(201);
    expect(res.body.cardCapabilities.supports3dSecurePassword).toBe(false);
  });

  it('limits at issuance only where the program accepts them', async () => {
    const p = await TestPlatform.create(t);
    const customer = await kycApprovedCustomer(p);
    const account = await customerAccount(p, customer.id);
    await p
      .patch('/config', {
        cardProgram: {
          cardCapabilities: { supportsSpendLimitsAtIssuance: false, supportsTransactionCountLimit: false },
        },
      })
      .expect(200);
    expect(
      invalidFields(
        await postCard(
          p,
          cardBody(customer.id, account.id, { maxSpendPerTransaction: 1, maxSpendPerDay: 1, maxTransactionsPerDay: 1 }),
        ),
      ),
    ).toEqual(['maxSpendPerDay', 'maxSpendPerTransaction', 'maxTransactionsPerDay']);
    expect((await postCard(p, cardBody(customer.id, account.id))).status).toBe(201);
  });

  it("the cardholder's KYC must be APPROVED: 400 CARDHOLDER_KYC_NOT_APPROVED", async () => {
    const p = await TestPlatform.create(t);
    const customer = await newCustomer(p);
    const account = await customerAccount(p, customer.id);
    expectError(await postCard(p, cardBody(customer.id, account.id)), 400, 'CARDHOLDER_KYC_NOT_APPROVED');
    await p.post(`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'REJECTED' }).expect(200);
    expectError(await postCard(p, cardBody(customer.id, account.id)), 400, 'CARDHOLDER_KYC_NOT_APPROVED');
    expect((await p.get('/cards')).body.totalCount).toBe(0);
  });

  it("the funding source must be the cardholder's own internal account in USD or USDB", async () => {
    const p = await TestPlatform.create(t);
    await supportCurrencies(p, ['USD', 'EUR']);
    const customer = await kycApprovedCustomer(p);
    const other = await kycApprovedCustomer(p);
    const eur = await customerAccount(p, customer.id, 'EUR');
    const othersUsd = await customerAccount(p, other.id);
    const platformUsd = (
      (await p.get('/platform/internal-accounts?currency=USD')).body as { data: Array<{ id: string }> }
    ).data[0];
    const foreign = await TestPlatform.create(t);
    const foreignCustomer = await kycApprovedCustomer(foreign);
    const foreignUsd = await customerAccount(foreign, foreignCustomer.id);
    for (const fundingSource of [
      eur.id,
      othersUsd.id,
      platformUsd.id,
      foreignUsd.id,
      'InternalAccount:00000000-0000-7000-8000-000000000000',
    ]) {
      expect(invalidFields(await postCard(p, cardBody(customer.id, fundingSource)))).toEqual(['fundingSource']);
    }
  });

  it('a USDB funding source makes a USD card', async () => {
    const p = await TestPlatform.create(t);
    const customer = await kycApprovedCustomer(p);
    const usdb = await usdbAccount(t, p, customer.id);
    const res = await postCard(p, cardBody(customer.id, usdb.id));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ fundingSource: usdb.id, currency: 'USD' });
  });

  it('an unknown or foreign customer is 404 CUSTOMER_NOT_FOUND', async () => {
    const p = await TestPlatform.create(t);
    const foreign = await TestPlatform.create(t);
    const foreignCustomer = await kycApprovedCustomer(foreign);
    const own = await kycApprovedCustomer(p);
    const ownAccount = await customerAccount(p, own.id);
    expectError(await postCard(p, cardBody(foreignCustomer.id, ownAccount.id)), 404, 'CUSTOMER_NOT_FOUND');
    const unknown = 'Customer:00000000-0000-7000-8000-000000000000';
    expectError(await postCard(p, cardBody(unknown, ownAccount.id)), 404, 'CUSTOMER_NOT_FOUND');
  });
});

describe('live-card limits', () => {
  it('maxLiveCards: 409 CARD_LIMIT_REACHED at the maximum; closed cards do not count', async () => {
    const p = await TestPlatform.create(t);
    await p.patch('/config', { cardProgram: { maxLiveCards: 2 } }).expect(200);
    const customer = await kycApprovedCustomer(p);
    const a = await activeCard(p, { customer });
    await issuedCard(p, { customer });
    const account = await customerAccount(p, customer.id);
    expectError(await postCard(p, cardBody(customer.id, account.id)), 409, 'CARD_LIMIT_REACHED');
    await p.patch(`/cards/${a.card.id}`, statusChange('CLOSED')).expect(200);
    expect((await postCard(p, cardBody(customer.id, account.id))).status).toBe(201);
    expectError(await postCard(p, cardBody(customer.id, account.id)), 409, 'CARD_LIMIT_REACHED');
  });

  it('two racing issuances never exceed the maximum', async () => {
    const p = await TestPlatform.create(t);
    await p.patch('/config', { cardProgram: { maxLiveCards: 1 } }).expect(200);
    const customers = [await kycApprovedCustomer(p), await kycApprovedCustomer(p)];
    const accounts = [await customerAccount(p, customers[0].id), await customerAccount(p, customers[1].id)];
    const answers = await Promise.all([0, 1].map((i) => postCard(p, cardBody(customers[i].id, accounts[i].id))));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.status === 409)!.body.code).toBe('CARD_LIMIT_REACHED');
    expect((await p.get('/cards')).body.totalCount).toBe(1);
  });

  it('oneLiveCardPerCardholder: a second live card of the same cardholder is 409; another cardholder is fine', async () => {
    const p = await TestPlatform.create(t);
    await p.patch('/config', { cardProgram: { oneLiveCardPerCardholder: true } }).expect(200);
    const { card, customer, account } = await activeCard(p);
    const answers = await Promise.all([1, 2].map(() => postCard(p, cardBody(customer.id, account.id))));
    expect(answers.map((r) => (r.body as { code: string }).code)).toEqual(['CARD_LIMIT_REACHED', 'CARD_LIMIT_REACHED']);
    await issuedCard(p);
    await p.patch(`/cards/${card.id}`, statusChange('CLOSED')).expect(200);
    const racing = await Promise.all([1, 2].map(() => postCard(p, cardBody(customer.id, account.id))));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe('GET /cards and /cards/{id}', () => {
  it('filters by customerId, accountId, platformCardId and status; sortOrder; paginated', async () => {
    const p = await TestPlatform.create(t);
    const first = await activeCard(p);
    const second = await issuedCard(p, { customer: first.customer });
    const third = await issuedCard(p);
    const ids = async (query: string) =>
      ((await p.get(`/cards${query}`)).body as { data: CardView[] }).data.map((c) => c.id);
    expect(await ids('')).toEqual([third.card.id, second.card.id, first.card.id]);
    expect(await ids('?sortOrder=asc')).toEqual([first.card.id, second.card.id, third.card.id]);
    expect(await ids(`?customerId=${first.customer.id}`)).toEqual([second.card.id, first.card.id]);
    expect(await ids(`?accountId=${third.account.id}`)).toEqual([third.card.id]);
    expect(await ids(`?platformCardId=${second.card.platformCardId}`)).toEqual([second.card.id]);
    expect(await ids('?status=ACTIVE')).toEqual([first.card.id]);
    expect(await ids('?status=PROCESSING&sortOrder=asc')).toEqual([second.card.id, third.card.id]);

    const page1 = (await p.get('/cards?limit=2&sortOrder=asc')).body as {
      data: CardView[];
      nextCursor: string;
      hasMore: boolean;
      totalCount: number;
    };
    expect(page1).toMatchObject({ hasMore: true, totalCount: 3 });
    const page2 = (await p.get(`/cards?limit=2&sortOrder=asc&cursor=${page1.nextCursor}`)).body as {
      data: CardView[];
      hasMore: boolean;
    };
    expect([...page1.data, ...page2.data].map((c) => c.id)).toEqual([first.card.id, second.card.id, third.card.id]);
    expect(page2.hasMore).toBe(false);

    expect(invalidFields(await p.get('/cards?status=PENDING&sortOrder=up&customerId=x'))).toEqual([
      'customerId',
      'sortOrder',
      'status',
    ]);
  });

  it('filters by the last four digits (the operator console searches by them)', async () => {
    const p = await TestPlatform.create(t);
    const active = await activeCard(p);
    const processing = await issuedCard(p); // no number yet
    const last4 = active.card.last4 as string;
    expect(last4).toMatch(/^\d{4}$/);
    const found = (await p.get(`/cards?last4=${last4}`)).body as { data: CardView[]; totalCount: number };
    expect(found.data.map((c) => c.id)).toContain(active.card.id);
    expect(found.data.map((c) => c.id)).not.toContain(processing.card.id);
    expect(found.data.every((c) => c.last4 === last4)).toBe(true);
    expect(invalidFields(await p.get('/cards?last4=12a4'))).toEqual(['last4']);
    expect(invalidFields(await p.get('/cards?last4=12345'))).toEqual(['last4']);
  });

  it('an unknown card is 404 NOT_FOUND; a malformed id 400', async () => {
    const p = await TestPlatform.create(t);
    expectError(await p.get(`/cards/${MISSING_CARD}`), 404, 'NOT_FOUND');
    expectError(await p.get('/cards/Card:nope'), 400, 'INVALID_INPUT');
  });
});

describe('tenancy and permissions', () => {
  it("another platform's card is 404 NOT_FOUND on every route, and it is not listed", async () => {
    const owner = await TestPlatform.create(t);
    const { card } = await issuedCard(owner);
    const other = await TestPlatform.create(t);
    const otherCustomer = await kycApprovedCustomer(other);
    const otherAccount = await customerAccount(other, otherCustomer.id);
    expectError(await other.get(`/cards/${card.id}`), 404, 'NOT_FOUND');
    expectError(await other.patch(`/cards/${card.id}`, statusChange('FROZEN')), 404, 'NOT_FOUND');
    expectError(await other.patch(`/cards/${card.id}`, { fundingSource: otherAccount.id }), 404, 'NOT_FOUND');
    expectError(await other.get(`/cards/${card.id}/status-history`), 404, 'NOT_FOUND');
    expectError(
      await other.post(`/sandbox/cards/${card.id}/simulate/provisioning`, { outcome: 'ACTIVE' }),
      404,
      'NOT_FOUND',
    );
    expect((await other.get('/cards')).body.totalCount).toBe(0);
    expect((await other.get(`/cards?customerId=${card.customerId}`)).body.totalCount).toBe(0);
    expect((await owner.get(`/cards/${card.id}`)).body.status).toBe('PROCESSING');
  });

  it('reads need VIEW; issuing and PATCH need TRANSACT', async () => {
    const p = await TestPlatform.create(t);
    const { card, customer, account } = await activeCard(p);
    const viewer = await p.token(['VIEW']);
    const as = (auth: string) => ({
      get: (path: string) => t.http.get(`${V}${path}`).set('Authorization', auth),
      post: (path: string, body: object) =>
        t.http.post(`${V}${path}`).set('Authorization', auth).set('Idempotency-Key', randomUUID()).send(body),
      patch: (path: string, body: object) => t.http.patch(`${V}${path}`).set('Authorization', auth).send(body),
    });
    const v = as(viewer.authorization);
    expect((await v.get(`/cards/${card.id}`)).status).toBe(200);
    expect((await v.get('/cards')).status).toBe(200);
    expect((await v.get(`/cards/${card.id}/status-history`)).status).toBe(200);
    expectError(await v.post('/cards', cardBody(customer.id, account.id)), 403, 'FORBIDDEN');
    expectError(await v.patch(`/cards/${card.id}`, statusChange('FROZEN')), 403, 'FORBIDDEN');
    const transactor = as((await p.token(['TRANSACT'])).authorization);
    expect((await transactor.patch(`/cards/${card.id}`, statusChange('FROZEN'))).status).toBe(200);
    expect((await transactor.post('/cards', cardBody(customer.id, account.id))).status).toBe(201);
    expect((await t.http.get(`${V}/cards`)).status).toBe(401);
  });
});

describe('GET /cards/{id}/status-history', () => {
  it('records issuance, provisioning (SYSTEM) and each requested transition with actor, substatus and reason', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await issuedCard(p);
    await provisioned(p, card.id);
    const freezer = await p.token(['TRANSACT']);
    await t.http
      .patch(`${V}/cards/${card.id}`)
      .set('Authorization', freezer.authorization)
      .send(statusChange('FROZEN', 'SUSPICIOUS_ACTIVITY', 'Unusual spend pattern'))
      .expect(200);
    await p.patch(`/cards/${card.id}`, { maxSpendPerDay: 100 }).expect(200);
    await p.patch(`/cards/${card.id}`, statusChange('CLOSED', 'LOST', 'Cardholder lost it')).expect(200);
    const history = (await p.get(`/cards/${card.id}/status-history`)).body as { data: Array<Record<string, unknown>> };
    const tokens = (await p.get('/tokens')).body as { data: Array<{ id: string; name: string }> };
    const ownToken = tokens.data.find((tk) => tk.id !== freezer.id)!.id;
    expect(history.data).toEqual([
      { at: expect.stringMatching(ISO), actor: ownToken, fromStatus: null, toStatus: 'PROCESSING' },
      {
        at: expect.stringMatching(ISO),
        actor: 'SYSTEM',
        fromStatus: 'PROCESSING',
        toStatus: 'ACTIVE',
        reason: expect.any(String),
      },
      {
        at: expect.stringMatching(ISO),
        actor: freezer.id,
        fromStatus: 'ACTIVE',
        toStatus: 'FROZEN',
        substatus: 'SUSPICIOUS_ACTIVITY',
        reason: 'Unusual spend pattern',
      },
      {
        at: expect.stringMatching(ISO),
        actor: ownToken,
        fromStatus: 'FROZEN',
        toStatus: 'CLOSED',
        substatus: 'LOST',
        reason: 'Cardholder lost it',
        statusReason: 'CLOSED_BY_PLATFORM',
      },
    ]);
  });
});
