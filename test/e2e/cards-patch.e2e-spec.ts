import { CARD_SUBSTATUSES } from '../../src/cards/card.types.js';
import { recordedEvents } from '../support/events.js';
import { activeCard, cardIn, CardView, statusChange, usdbAccount } from '../support/cards.js';
import { customerAccount, kycApprovedCustomer, supportCurrencies } from '../support/fixtures.js';
import { expectError, invalidFields, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/** PATCH /cards/{id}: every rule of the spec's PATCH section. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type ErrorBody = { details?: { errors?: Array<{ field: string; message: string }> } };
const errorsOf = (body: ErrorBody) => body.details!.errors!;
const fields = (body: ErrorBody) =>
  errorsOf(body)
    .map((e) => e.field)
    .sort();

const statusEvents = async (p: TestPlatform, cardId: string) =>
  (await recordedEvents(p, 'CARD.STATUS_CHANGE')).filter((e) => e.data.id === cardId);

describe('PATCH /cards/{id}: validation (400, all FieldErrors together, before state)', () => {
  it('needs at least one of status, fundingSource, the limits, threeDSecurePassword', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    expect(invalidFields(await p.patch(`/cards/${card.id}`, {}))).toEqual(['body']);
    expect(invalidFields(await p.patch(`/cards/${card.id}`, { substatus: 'LOST', reason: 'x' }))).toEqual([
      'body',
      'reason',
      'substatus',
    ]);
  });

  it('status requires substatus and a non-empty reason (each missing one a FieldError); only ACTIVE, FROZEN, CLOSED', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    expect(invalidFields(await p.patch(`/cards/${card.id}`, { status: 'FROZEN' }))).toEqual(['reason', 'substatus']);
    expect(invalidFields(await p.patch(`/cards/${card.id}`, { status: 'FROZEN', substatus: 'LOST' }))).toEqual([
      'reason',
    ]);
    for (const reason of ['', '   ', 5, null]) {
      const body = expectError(
        await p.patch(`/cards/${card.id}`, { status: 'FROZEN', substatus: 'LOST', reason }),
        400,
        'INVALID_INPUT',
      ) as ErrorBody;
      expect(fields(body)).toEqual(['reason']);
    }
    for (const status of ['PROCESSING', 'PENDING_KYC', 'frozen', null, 1]) {
      const body = expectError(
        await p.patch(`/cards/${card.id}`, { status, substatus: 'LOST', reason: 'x' }),
        400,
        'INVALID_INPUT',
      ) as ErrorBody;
      expect(fields(body)).toEqual(['status']);
    }
    const badSubstatus = expectError(
      await p.patch(`/cards/${card.id}`, { status: 'FROZEN', substatus: 'STOLEN', reason: 'x' }),
      400,
      'INVALID_INPUT',
    ) as ErrorBody;
    expect(errorsOf(badSubstatus)).toEqual([
      expect.objectContaining({ field: 'substatus', constraint: { enum: expect.arrayContaining(['LOST', 'OTHER']) } }),
    ]);
    // Every one of the spec's 11 substatus values passes validation (then ACTIVE→ACTIVE is a 409).
    expect(CARD_SUBSTATUSES).toHaveLength(11);
    for (const substatus of CARD_SUBSTATUSES) {
      expectError(
        await p.patch(`/cards/${card.id}`, { status: 'ACTIVE', substatus, reason: 'x' }),
        409,
        'INVALID_STATE_TRANSITION',
      );
    }
  });

  it('limits: an integer in range, null to clear, omitted to leave; out of range or not an integer is a FieldError', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p, { extra: { maxSpendPerTransaction: 100, maxSpendPerDay: 1000 } });
    const set = await p.patch(`/cards/${card.id}`, {
      maxSpendPerDay: 9007199254740991,
      maxTransactionsPerDay: 2147483647,
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      maxSpendPerTransaction: 100,
      maxSpendPerDay: 9007199254740991,
      maxTransactionsPerDay: 2147483647,
    });
    const cleared = await p.patch(`/cards/${card.id}`, { maxSpendPerTransaction: null });
    expect(cleared.body).toMatchObject({ maxSpendPerTransaction: null, maxSpendPerDay: 9007199254740991 });
    expect((await p.get(`/cards/${card.id}`)).body).toEqual(cleared.body);
    expect(
      invalidFields(
        await p.patch(`/cards/${card.id}`, {
          maxSpendPerTransaction: 0,
          maxSpendPerDay: 9007199254740992,
          maxTransactionsPerDay: 2147483648,
        }),
      ),
    ).toEqual(['maxSpendPerDay', 'maxSpendPerTransaction', 'maxTransactionsPerDay']);
    for (const value of [1.5, '100', -1, true, {}]) {
      expect(invalidFields(await p.patch(`/cards/${card.id}`, { maxSpendPerTransaction: value }))).toEqual([
        'maxSpendPerTransaction',
      ]);
    }
    expect(await statusEvents(p, card.id)).toHaveLength(1); // provisioning only: limit changes send nothing
  });

  it("a limit on a card whose capability is false is a FieldError naming the capability (the card's own, fixed at issuance)", async () => {
    const p = await TestPlatform.create(t);
    await p
      .patch('/config', {
        cardProgram: { cardCapabilities: { supportsSpendLimits: false, supportsTransactionCountLimit: false } },
      })
      .expect(200);
    const { card } = await activeCard(p);
    // Turning the program's capabilities back on does not change the card's.
    await p
      .patch('/config', {
        cardProgram: { cardCapabilities: { supportsSpendLimits: true, supportsTransactionCountLimit: true } },
      })
      .expect(200);
    const body = expectError(
      await p.patch(`/cards/${card.id}`, { maxSpendPerTransaction: 1, maxSpendPerDay: null, maxTransactionsPerDay: 5 }),
      400,
      'INVALID_INPUT',
    ) as ErrorBody;
    expect(errorsOf(body)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: 'maxSpendPerTransaction',
          message: expect.stringContaining('supportsSpendLimits'),
        }),
        expect.objectContaining({ field: 'maxSpendPerDay', message: expect.stringContaining('supportsSpendLimits') }),
        expect.objectContaining({
          field: 'maxTransactionsPerDay',
          message: expect.stringContaining('supportsTransactionCountLimit'),
        }),
      ]),
    );
    expect(errorsOf(body)).toHaveLength(3);
  });

  it('threeDSecurePassword only alone and only where supported; it is never stored or shown', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    const ok = await p.patch(`/cards/${card.id}`, { threeDSecurePassword: 'NewSecret-123' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual(card);
    expect(JSON.stringify((await p.get(`/cards/${card.id}`)).body)).not.toContain('NewSecret-123');
    expect(
      invalidFields(await p.patch(`/cards/${card.id}`, { threeDSecurePassword: 'x1', maxSpendPerDay: 5 })),
    ).toEqual(['threeDSecurePassword']);
    expect(
      invalidFields(await p.patch(`/cards/${card.id}`, { threeDSecurePassword: 'x1', ...statusChange('FROZEN') })),
    ).toEqual(['threeDSecurePassword']);
    for (const pw of ['', '  ', 7]) {
      expect(invalidFields(await p.patch(`/cards/${card.id}`, { threeDSecurePassword: pw }))).toEqual([
        'threeDSecurePassword',
      ]);
    }
    await p.patch('/config', { cardProgram: { cardCapabilities: { supports3dSecurePassword: false } } }).expect(200);
    const { card: plain } = await activeCard(p, { extra: { threeDSecurePassword: undefined } });
    const unsupported = expectError(
      await p.patch(`/cards/${plain.id}`, { threeDSecurePassword: 'x1' }),
      400,
      'INVALID_INPUT',
    ) as ErrorBody;
    expect(errorsOf(unsupported)).toEqual([
      expect.objectContaining({
        field: 'threeDSecurePassword',
        message: expect.stringContaining('supports3dSecurePassword'),
      }),
    ]);
    expect(await statusEvents(p, card.id)).toHaveLength(1);
  });

  it('status CLOSED with fundingSource or any limit: a FieldError on each', async () => {
    const p = await TestPlatform.create(t);
    const { card, account } = await activeCard(p);
    const body = expectError(
      await p.patch(`/cards/${card.id}`, {
        ...statusChange('CLOSED'),
        fundingSource: account.id,
        maxSpendPerTransaction: 1,
        maxSpendPerDay: null,
        maxTransactionsPerDay: 3,
      }),
      400,
      'INVALID_INPUT',
    ) as ErrorBody;
    expect(fields(body)).toEqual([
      'fundingSource',
      'maxSpendPerDay',
      'maxSpendPerTransaction',
      'maxTransactionsPerDay',
    ]);
    expect((await p.get(`/cards/${card.id}`)).body.status).toBe('ACTIVE');
  });

  it('rule 3: fundingSource with a status is a FieldError where the issuer decides, valid where the service decides', async () => {
    const p = await TestPlatform.create(t);
    const { card, customer } = await activeCard(p);
    const usdb = await usdbAccount(t, p, customer.id);
    const both = await p.patch(`/cards/${card.id}`, { ...statusChange('FROZEN'), fundingSource: usdb.id });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ status: 'FROZEN', fundingSource: usdb.id, currency: 'USD' });

    await p.patch('/config', { cardProgram: { authorizationDecisionMaker: 'ISSUER' } }).expect(200);
    const usd = await customerAccount(p, customer.id);
    expect(
      invalidFields(await p.patch(`/cards/${card.id}`, { ...statusChange('ACTIVE'), fundingSource: usd.id })),
    ).toEqual(['fundingSource']);
    // Separately, both are fine.
    expect((await p.patch(`/cards/${card.id}`, { fundingSource: usd.id })).body.fundingSource).toBe(usd.id);
    expect((await p.patch(`/cards/${card.id}`, statusChange('ACTIVE'))).body.status).toBe('ACTIVE');
  });

  it("fundingSource must be the cardholder's own internal account in a card-eligible currency", async () => {
    const p = await TestPlatform.create(t);
    await supportCurrencies(p, ['USD', 'EUR']);
    const { card, customer } = await activeCard(p);
    const ownEur = await customerAccount(p, customer.id, 'EUR');
    const other = await kycApprovedCustomer(p);
    const othersAccount = await customerAccount(p, other.id);
    const platformAccount = (
      (await p.get('/platform/internal-accounts?currency=USD')).body as { data: Array<{ id: string }> }
    ).data[0].id;
    for (const fundingSource of [
      ownEur.id,
      othersAccount.id,
      platformAccount,
      'InternalAccount:00000000-0000-7000-8000-000000000000',
      'Card:x',
    ]) {
      expect(invalidFields(await p.patch(`/cards/${card.id}`, { fundingSource }))).toEqual(['fundingSource']);
    }
  });

  it('unknown members are FieldErrors, reported with the others', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    expect(
      invalidFields(await p.patch(`/cards/${card.id}`, { status: 'FROZEN', color: 'red', maxSpendPerDay: 0 })),
    ).toEqual(['color', 'maxSpendPerDay', 'reason', 'substatus']);
  });

  it('validation comes before state: an invalid body on a CLOSED card is 400, not 409', async () => {
    const p = await TestPlatform.create(t);
    const closed = await cardIn(p, 'CLOSED');
    expectError(await p.patch(`/cards/${closed.id}`, { status: 'CLOSED' }), 400, 'INVALID_INPUT');
    expectError(await p.patch(`/cards/${closed.id}`, { maxSpendPerDay: 0 }), 400, 'INVALID_INPUT');
  });
});

describe('PATCH /cards/{id}: state (409 after validation)', () => {
  const STATUSES = ['PROCESSING', 'PENDING_KYC', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
  /** The expected answer of each requested change (undefined: a request without status) in each status. */
  const EXPECTED: Record<(typeof STATUSES)[number], Record<string, number | string>> = {
    PROCESSING: {
      ACTIVE: 'INVALID_STATE_TRANSITION',
      FROZEN: 'INVALID_STATE_TRANSITION',
      CLOSED: 'INVALID_STATE_TRANSITION',
      none: 200,
    },
    PENDING_KYC: {
      ACTIVE: 'INVALID_STATE_TRANSITION',
      FROZEN: 'INVALID_STATE_TRANSITION',
      CLOSED: 'INVALID_STATE_TRANSITION',
      none: 200,
    },
    ACTIVE: { ACTIVE: 'INVALID_STATE_TRANSITION', FROZEN: 200, CLOSED: 200, none: 200 },
    FROZEN: { ACTIVE: 200, FROZEN: 'INVALID_STATE_TRANSITION', CLOSED: 200, none: 200 },
    CLOSED: {
      ACTIVE: 'INVALID_STATE_TRANSITION',
      FROZEN: 'INVALID_STATE_TRANSITION',
      CLOSED: 'CARD_ALREADY_CLOSED',
      none: 'CARD_NOT_MUTABLE',
    },
  };

  it.each(STATUSES)('from %s: exactly the allowed edges; one event per transition, none otherwise', async (from) => {
    const p = await TestPlatform.create(t);
    for (const requested of ['ACTIVE', 'FROZEN', 'CLOSED', 'none'] as const) {
      const card = await cardIn(p, from);
      const eventsBefore = (await statusEvents(p, card.id)).length;
      const body =
        requested === 'none' ? { maxSpendPerDay: 500 } : statusChange(requested, 'OTHER', `${from}->${requested}`);
      const res = await p.patch(`/cards/${card.id}`, body);
      const expected = EXPECTED[from][requested];
      const after = (await p.get(`/cards/${card.id}`)).body as CardView;
      const events = await statusEvents(p, card.id);
      if (expected === 200) {
        expect(res.status).toBe(200);
        expect(res.body).toEqual(after);
        expect(after.status).toBe(requested === 'none' ? from : requested);
        expect(events.length - eventsBefore).toBe(requested === 'none' ? 0 : 1);
        if (requested !== 'none') expect(events[events.length - 1].data).toEqual(after);
      } else {
        expectError(res, 409, expected as string);
        expect(after).toEqual(card);
        expect(events.length).toBe(eventsBefore);
      }
    }
  });

  it('closing: CLOSED_BY_PLATFORM, the card stays readable with its last fundingSource, and the change is final', async () => {
    const p = await TestPlatform.create(t);
    const { card, account } = await activeCard(p);
    const closed = await p.patch(`/cards/${card.id}`, statusChange('CLOSED', 'END_USER_REQUEST', 'Offboarding'));
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      status: 'CLOSED',
      statusReason: 'CLOSED_BY_PLATFORM',
      fundingSource: account.id,
    });
    expect((await p.get(`/cards/${card.id}`)).body).toEqual(closed.body);
    expect((await p.get(`/cards?status=CLOSED`)).body.data).toEqual([closed.body]);
    expectError(await p.patch(`/cards/${card.id}`, { fundingSource: account.id }), 409, 'CARD_NOT_MUTABLE');
    expectError(await p.patch(`/cards/${card.id}`, { threeDSecurePassword: 'abc' }), 409, 'CARD_NOT_MUTABLE');
  });

  it('freeze and unfreeze: statusReason absent, one CARD.STATUS_CHANGE each with the card after the change', async () => {
    const p = await TestPlatform.create(t);
    const { card } = await activeCard(p);
    const frozen = await p.patch(`/cards/${card.id}`, statusChange('FROZEN', 'SUSPICIOUS_ACTIVITY', 'Fraud check'));
    expect(frozen.body.status).toBe('FROZEN');
    expect(frozen.body.statusReason).toBeUndefined();
    const active = await p.patch(`/cards/${card.id}`, statusChange('ACTIVE', 'OTHER', 'Cleared'));
    expect(active.body.status).toBe('ACTIVE');
    const events = await statusEvents(p, card.id);
    expect(events.map((e) => e.type)).toEqual(['CARD.STATUS_CHANGE', 'CARD.STATUS_CHANGE', 'CARD.STATUS_CHANGE']);
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ status: 'ACTIVE' }),
      frozen.body,
      active.body,
    ]);
  });

  it('a fundingSource-only change returns the new binding and sends no event', async () => {
    const p = await TestPlatform.create(t);
    const { card, customer } = await activeCard(p);
    const usdb = await usdbAccount(t, p, customer.id);
    const res = await p.patch(`/cards/${card.id}`, { fundingSource: usdb.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fundingSource: usdb.id, status: 'ACTIVE', currency: 'USD' });
    expect(await statusEvents(p, card.id)).toHaveLength(1);
    expect((await p.get(`/cards?accountId=${usdb.id}`)).body.data.map((c: CardView) => c.id)).toEqual([card.id]);
  });

  it('two concurrent freezes of an ACTIVE card: one 200, one 409, exactly one event', async () => {
    const p = await TestPlatform.create(t);
    for (let round = 0; round < 3; round++) {
      const { card } = await activeCard(p);
      const answers = await Promise.all(
        [1, 2].map((i) => p.patch(`/cards/${card.id}`, statusChange('FROZEN', 'LOST', `freeze ${i}`))),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.status === 409)!.body.code).toBe('INVALID_STATE_TRANSITION');
      const events = await statusEvents(p, card.id);
      expect(events.map((e) => e.data.status)).toEqual(['ACTIVE', 'FROZEN']);
      const history = (await p.get(`/cards/${card.id}/status-history`)).body as { data: Array<{ toStatus: string }> };
      expect(history.data.map((h) => h.toStatus)).toEqual(['PROCESSING', 'ACTIVE', 'FROZEN']);
    }
  });
});
