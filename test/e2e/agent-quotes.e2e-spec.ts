import { spendingAgent, quoteBody, customerExternalAccount, Json } from '../support/agent-quotes.js';
import { agentPolicy, installedAgent } from '../support/agents.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { recordedEvents } from '../support/events.js';
import { FakeClock } from '../support/fake-clock.js';
import { customerAccount, newCustomer } from '../support/fixtures.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * Agent quotes, execution under the policy, and the platform's approvals, over HTTP on the real
 * app. The clock is injected: quote expiry and the UTC resets of usage are driven by hand.
 */
const clock = new FakeClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ QUOTE_TTL_SECONDS: '300' }, { clock });
});
afterAll(() => t.close());

const platform = () => TestPlatform.create(t);
/** The ids of a list page, in order. */
const ids = (page: unknown): string[] => (page as { data: Array<{ id: string }> }).data.map((x) => x.id);
/** The fields of an INVALID_INPUT body's FieldErrors, sorted. */
const fields = (body: { details?: Record<string, unknown> }): string[] =>
  (body.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();
const QUOTE_REQUIRED = [
  'id',
  'status',
  'expiresAt',
  'createdAt',
  'source',
  'destination',
  'sendingCurrency',
  'receivingCurrency',
  'totalSendingAmount',
  'totalReceivingAmount',
  'exchangeRate',
  'feesIncluded',
  'transactionId',
];

describe('POST /agents/me/quotes', () => {
  it('quotes a same-currency transfer 1:1 to an external account of the customer, with every member the reference requires', async () => {
    const p = await platform();
    const a = await spendingAgent(p);
    const res = await a.client.post('/agents/me/quotes', {
      ...quoteBody(a.accountId, a.externalAccountId, 12_345),
      description: 'Invoice 7',
    });
    expect(res.status).toBe(201);
    const q = res.body as Json;
    for (const member of QUOTE_REQUIRED) expect(q).toHaveProperty(member);
    const now = clock.now();
    expect(q).toEqual({
      id: expect.stringMatching(/^Quote:/),
      status: 'PENDING',
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 300_000).toISOString(),
      source: { sourceType: 'ACCOUNT', accountId: a.accountId, customerId: a.customer.id },
      destination: { destinationType: 'ACCOUNT', accountId: a.externalAccountId },
      sendingCurrency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
      receivingCurrency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 },
      totalSendingAmount: 12_345,
      totalReceivingAmount: 12_345,
      exchangeRate: 1,
      feesIncluded: 0,
      platformFeesIncluded: 0,
      transactionId: expect.stringMatching(/^Transaction:/),
      rateDetails: {
        counterpartyMultiplier: 1,
        counterpartyFixedFee: 0,
        serviceApiMultiplier: 1,
        serviceApiFixedFee: 0,
        serviceApiVariableFeeRate: 0,
        serviceApiVariableFeeAmount: 0,
      },
    });
    expect((await a.client.get(`/agents/me/quotes/${q.id}`)).body).toEqual(q);
  });

  it('prices a cross-currency quote from the rate table, with fees and rateDetails, either side locked', async () => {
    const p = await platform();
    const cfg = (await p.get('/config')).body.supportedCurrencies[0];
    await p.patch('/config', { supportedCurrencies: [cfg, { ...cfg, currencyCode: 'EUR' }] });
    const a = await spendingAgent(p);
    const eur = await customerAccount(p, a.customer.id, 'EUR');
    const sending = await a.client.post('/agents/me/quotes', quoteBody(a.accountId, eur.id, 10_000));
    expect(sending.status).toBe(201);
    // 10000 cents - 10 fixed - 30 (0.3%) = 9960 cents at 0.92 = 9163.2 -> 9163 EUR cents.
    expect(sending.body).toMatchObject({
      sendingCurrency: { code: 'USD' },
      receivingCurrency: { code: 'EUR', decimals: 2 },
      totalSendingAmount: 10_000,
      totalReceivingAmount: 9163,
      exchangeRate: 0.92,
      feesIncluded: 40,
      rateDetails: {
        counterpartyMultiplier: 0.92,
        counterpartyFixedFee: 0,
        serviceApiMultiplier: 0.997,
        serviceApiFixedFee: 10,
        serviceApiVariableFeeRate: 0.003,
        serviceApiVariableFeeAmount: 30,
      },
    });
    const receiving = await a.client.post('/agents/me/quotes', {
      ...quoteBody(a.accountId, eur.id, 9163),
      lockedCurrencySide: 'RECEIVING',
    });
    expect(receiving.status).toBe(201);
    expect(receiving.body.totalReceivingAmount).toBe(9163);
    expect(receiving.body.totalSendingAmount).toBeLessThanOrEqual(10_000);
  });

  it('reports every invalid field at once, and refuses what an agent cannot quote', async () => {
    const a = await spendingAgent(await platform());
    const all = expectError(await a.client.post('/agents/me/quotes', {}), 400, 'INVALID_INPUT');
    expect(fields(all)).toEqual(['destination', 'lockedCurrencyAmount', 'lockedCurrencySide', 'source']);
    const bad = expectError(
      await a.client.post('/agents/me/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', accountId: a.accountId },
        destination: { destinationType: 'UMA_ADDRESS', accountId: 'nope' },
        lockedCurrencySide: 'BOTH',
        lockedCurrencyAmount: 0,
        immediatelyExecute: true,
        surprise: 1,
      }),
      400,
      'INVALID_INPUT',
    );
    expect(fields(bad)).toEqual([
      'destination.accountId',
      'destination.destinationType',
      'immediatelyExecute',
      'lockedCurrencyAmount',
      'lockedCurrencySide',
      'source.sourceType',
      'surprise',
    ]);
    // Same account both sides: the quotes area's SELF_PAYMENT.
    const same = expectError(
      await a.client.post('/agents/me/quotes', quoteBody(a.accountId, a.accountId, 100)),
      400,
      'SELF_PAYMENT',
    );
    expect(same.details).toEqual({ accountId: a.accountId });
  });

  it('refuses accounts of another customer or platform (404) and outside allowedAccountIds (403 naming the account)', async () => {
    const p = await platform();
    const a = await spendingAgent(p);
    const other = await newCustomer(p);
    const otherAccount = (await customerAccount(p, other.id)).id;
    const otherExternal = await customerExternalAccount(p, other);
    expectError(
      await a.client.post('/agents/me/quotes', quoteBody(otherAccount, a.externalAccountId, 100)),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expectError(
      await a.client.post('/agents/me/quotes', quoteBody(a.accountId, otherExternal, 100)),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expectError(
      await a.client.post('/agents/me/quotes', quoteBody(a.accountId, otherAccount, 100)),
      404,
      'ACCOUNT_NOT_FOUND',
    );
    const foreign = await spendingAgent(await platform());
    expectError(
      await a.client.post('/agents/me/quotes', quoteBody(a.accountId, foreign.externalAccountId, 100)),
      404,
      'ACCOUNT_NOT_FOUND',
    );

    const restricted = await spendingAgent(p, { accountRestrictions: { allowedAccountIds: [] } });
    const denied = expectError(
      await restricted.client.post(
        '/agents/me/quotes',
        quoteBody(restricted.accountId, restricted.externalAccountId, 100),
      ),
      403,
      'FORBIDDEN',
    );
    expect(denied.details).toEqual({ limit: 'allowedAccountIds', accountId: restricted.accountId });
  });

  it('needs CREATE_QUOTES, agent credentials, and an agent that is not paused', async () => {
    const p = await platform();
    const a = await spendingAgent(p, { permissions: ['EXECUTE_QUOTES'] });
    const body = quoteBody(a.accountId, a.externalAccountId, 100);
    const res = expectError(await a.client.post('/agents/me/quotes', body), 403, 'FORBIDDEN');
    expect(res.details).toEqual({ permission: 'CREATE_QUOTES' });
    expectError(await p.post('/agents/me/quotes', body), 401, 'UNAUTHORIZED');
    expectError(await a.client.get('/agents/approvals'), 401, 'UNAUTHORIZED');

    const b = await spendingAgent(p);
    await p.patch(`/agents/${b.agent.id}`, { isPaused: true });
    const paused = expectError(
      await b.client.post('/agents/me/quotes', quoteBody(b.accountId, b.externalAccountId, 100)),
      403,
      'FORBIDDEN',
    );
    expect(paused.reason).toMatch(/paused/);
  });

  it("Idempotency-Key replays the agent's own quote and is scoped to the agent", async () => {
    const p = await platform();
    const a = await spendingAgent(p);
    const body = quoteBody(a.accountId, a.externalAccountId, 500);
    const first = await a.client.post('/agents/me/quotes', body).set('Idempotency-Key', 'q-1');
    const again = await a.client.post('/agents/me/quotes', body).set('Idempotency-Key', 'q-1');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    // Another agent of the same customer, same key: its own quote.
    const second = await installedAgent(p, { customer: a.customer, policy: agentPolicy() });
    const other = await second.client.post('/agents/me/quotes', body).set('Idempotency-Key', 'q-1');
    expect(other.status).toBe(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.id).not.toBe(first.body.id);
    // And it cannot read the first agent's quote.
    expectError(await second.client.get(`/agents/me/quotes/${first.body.id}`), 404, 'QUOTE_NOT_FOUND');
  });
});

describe('POST /agents/me/quotes/{quoteId}/execute', () => {
  it('counts each committed execution in agent_executions_total by the action status', async () => {
    const counter = t.app.get(MetricsService).agentExecutions;
    const approved = async () => (await counter.get()).values.find((v) => v.labels.outcome === 'approved')?.value ?? 0;
    const before = await approved();
    const p = await platform();
    const a = await spendingAgent(p, {}, 100_000);
    const q = await a.quote(1_000);
    expect((await a.client.post(`/agents/me/quotes/${q.id}/execute`)).status).toBe(200);
    expect(await approved()).toBe(before + 1);
  });

  it('AUTO: runs at once, debits the source through the ledger, records the transaction and counts the spend', async () => {
    const p = await platform();
    const a = await spendingAgent(p, {}, 100_000);
    const q = await a.quote(25_000);
    const res = await a.client.post(`/agents/me/quotes/${q.id}/execute`);
    expect(res.status).toBe(200);
    const action = res.body as Json;
    expect(action).toEqual({
      id: expect.stringMatching(/^AgentAction:/),
      agentId: a.agent.id,
      customerId: a.customer.id,
      platformCustomerId: a.customer.platformCustomerId,
      status: 'APPROVED',
      type: 'EXECUTE_QUOTE',
      // A payout to an external account: the quote is PROCESSING, its transaction PENDING on the rail.
      quote: { ...q, status: 'PROCESSING' },
      transaction: expect.objectContaining({
        id: q.transactionId,
        status: 'PENDING',
        type: 'OUTGOING',
        direction: 'DEBIT',
        source: { sourceType: 'ACCOUNT', accountId: a.accountId, currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: a.externalAccountId, currency: 'USD' },
        customerId: a.customer.id,
        platformCustomerId: a.customer.platformCustomerId,
        agentId: a.agent.id,
        sentAmount: { amount: 25_000, currency: expect.objectContaining({ code: 'USD' }) },
        receivedAmount: { amount: 25_000, currency: expect.objectContaining({ code: 'USD' }) },
        quoteId: q.id,
        fees: 0,
        createdAt: clock.now().toISOString(),
      }),
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    expect(await a.balance()).toBe(75_000);
    expect((await a.client.get('/agents/me')).body.usage).toMatchObject({
      dailyTransactionCount: 1,
      dailySpend: 25_000,
      monthlySpend: 25_000,
    });
    const txs = (await a.client.get('/agents/me/transactions')).body as Json;
    expect(txs).toMatchObject({ data: [action.transaction], hasMore: false, totalCount: 1 });
    expect((await a.client.get(`/agents/me/transactions/${q.transactionId}`)).body).toEqual(action.transaction);
    expect((await a.client.get(`/agents/me/actions/${action.id}`)).body).toEqual(action);
    // Once executed, never again.
    expectError(await a.client.post(`/agents/me/quotes/${q.id}/execute`), 409, 'CONFLICT');
  });

  it('pays into an internal account of the customer: both legs through the ledger', async () => {
    const p = await platform();
    const cfg = (await p.get('/config')).body.supportedCurrencies[0];
    await p.patch('/config', { supportedCurrencies: [cfg, { ...cfg, currencyCode: 'EUR' }] });
    const a = await spendingAgent(p, {}, 20_000);
    const eur = await customerAccount(p, a.customer.id, 'EUR');
    const q = (await a.client.post('/agents/me/quotes', quoteBody(a.accountId, eur.id, 10_000))).body as Json;
    expect((await a.client.post(`/agents/me/quotes/${q.id}/execute`)).body.status).toBe('APPROVED');
    expect(await a.balance()).toBe(10_000);
    expect((await customerAccount(p, a.customer.id, 'EUR')).balance.amount).toBe(9163);
  });

  it('a hard limit exceeded is 403 naming the limit, its value and the amount; exactly at the limit runs; nothing is reserved', async () => {
    const p = await platform();
    const a = await spendingAgent(p, {
      spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 1500, dailyTransactionLimit: 3 },
    });
    const over = expectError(
      await a.client.post(`/agents/me/quotes/${(await a.quote(1001)).id}/execute`),
      403,
      'FORBIDDEN',
    );
    expect(over.details).toEqual({ limit: 'perTransactionLimit', value: 1000, amount: 1001, currency: 'USD' });
    expect((await a.client.post(`/agents/me/quotes/${(await a.quote(1000)).id}/execute`)).status).toBe(200);
    const daily = expectError(
      await a.client.post(`/agents/me/quotes/${(await a.quote(501)).id}/execute`),
      403,
      'FORBIDDEN',
    );
    expect(daily.details).toEqual({ limit: 'dailyLimit', value: 1500, amount: 1501, currency: 'USD' });
    expect((await a.client.post(`/agents/me/quotes/${(await a.quote(500)).id}/execute`)).status).toBe(200);
    expect((await a.client.post(`/agents/me/quotes/${(await a.quote(0 + 1)).id}/execute`)).status).toBe(403);
    expect((await a.client.get('/agents/me')).body.usage).toMatchObject({ dailyTransactionCount: 2, dailySpend: 1500 });
    expect(await a.balance()).toBe(1_000_000 - 1500);
    // Refused quotes are not executed: no action, no transaction.
    expect((await a.client.get('/agents/me/actions')).body.totalCount).toBe(2);
    expect((await a.client.get('/agents/me/transactions')).body.totalCount).toBe(2);
  });

  it('dailyTransactionLimit counts this one: the limit-th runs, the next is refused', async () => {
    const a = await spendingAgent(await platform(), {
      spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyTransactionLimit: 2 },
    });
    for (let i = 0; i < 2; i++)
      expect((await a.client.post(`/agents/me/quotes/${(await a.quote(10)).id}/execute`)).status).toBe(200);
    const refused = expectError(
      await a.client.post(`/agents/me/quotes/${(await a.quote(10)).id}/execute`),
      403,
      'FORBIDDEN',
    );
    expect(refused.details).toEqual({ limit: 'dailyTransactionLimit', value: 2, amount: 3 });
  });

  it("the account rule's perTransactionLimit applies to its account", async () => {
    const p = await platform();
    const a = await spendingAgent(p);
    await p.patch(`/agents/${a.agent.id}/policy`, {
      accountRestrictions: { accountRules: [{ accountId: a.accountId, perTransactionLimit: 200 }] },
    });
    const refused = expectError(
      await a.client.post(`/agents/me/quotes/${(await a.quote(201)).id}/execute`),
      403,
      'FORBIDDEN',
    );
    expect(refused.details).toMatchObject({ limit: 'accountRules.perTransactionLimit', value: 200, amount: 201 });
    expect((await a.client.post(`/agents/me/quotes/${(await a.quote(200)).id}/execute`)).status).toBe(200);
  });

  it('APPROVAL_REQUIRED: PENDING_APPROVAL without a transaction, the event in the outbox, nothing moved or counted', async () => {
    const p = await platform();
    const a = await spendingAgent(p, { defaultExecutionMode: 'APPROVAL_REQUIRED' }, 50_000);
    const q = await a.quote(20_000);
    const res = await a.client.post(`/agents/me/quotes/${q.id}/execute`);
    expect(res.status).toBe(200);
    const action = res.body as Json;
    expect(action).toMatchObject({ status: 'PENDING_APPROVAL', type: 'EXECUTE_QUOTE', quote: q });
    expect(action).not.toHaveProperty('transaction');
    expect(action).not.toHaveProperty('rejectionReason');
    expect(await a.balance()).toBe(50_000);
    expect((await a.client.get('/agents/me')).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
    const events = await recordedEvents(p, 'AGENT_ACTION.PENDING_APPROVAL');
    expect(events).toEqual([expect.objectContaining({ type: 'AGENT_ACTION.PENDING_APPROVAL', data: action })]);
    expect((await a.client.get('/agents/me/transactions')).body.totalCount).toBe(0);
  });

  it('an amount exactly at approvalThresholds runs at once; one unit above waits for approval', async () => {
    const a = await spendingAgent(await platform(), { approvalThresholds: { currency: 'USD', amount: 5000 } });
    expect((await a.client.post(`/agents/me/quotes/${(await a.quote(5000)).id}/execute`)).body.status).toBe('APPROVED');
    expect((await a.client.post(`/agents/me/quotes/${(await a.quote(5001)).id}/execute`)).body.status).toBe(
      'PENDING_APPROVAL',
    );
  });

  it('insufficient funds: 400 INSUFFICIENT_FUNDS with nothing recorded; the quote can run once funded', async () => {
    const p = await platform();
    const a = await spendingAgent(p, {}, 999);
    const q = await a.quote(1000);
    expectError(await a.client.post(`/agents/me/quotes/${q.id}/execute`), 400, 'INSUFFICIENT_FUNDS');
    expect((await a.client.get('/agents/me/actions')).body.totalCount).toBe(0);
    expect((await a.client.get('/agents/me')).body.usage.dailySpend).toBe(0);
    expect((await a.client.get(`/agents/me/quotes/${q.id}`)).body.status).toBe('PENDING');
    await p.post(`/sandbox/internal-accounts/${a.accountId}/fund`, { amount: 1 });
    expect((await a.client.post(`/agents/me/quotes/${q.id}/execute`)).body.status).toBe('APPROVED');
    expect(await a.balance()).toBe(0);
  });

  it('an expired quote is 400 QUOTE_EXPIRED (and renders EXPIRED); an unknown one 404 QUOTE_NOT_FOUND', async () => {
    const a = await spendingAgent(await platform());
    const q = await a.quote(100);
    clock.advance(300_000);
    expectError(await a.client.post(`/agents/me/quotes/${q.id}/execute`), 400, 'QUOTE_EXPIRED');
    expect((await a.client.get(`/agents/me/quotes/${q.id}`)).body.status).toBe('EXPIRED');
    expectError(
      await a.client.post(`/agents/me/quotes/Quote:019542f5-b3e7-7d02-8000-000000000001/execute`),
      404,
      'QUOTE_NOT_FOUND',
    );
    expectError(await a.client.post(`/agents/me/quotes/nope/execute`), 400, 'INVALID_INPUT');
  });

  it('needs EXECUTE_QUOTES and an agent that is not paused', async () => {
    const p = await platform();
    const a = await spendingAgent(p, { permissions: ['CREATE_QUOTES'] });
    expectError(await a.client.post(`/agents/me/quotes/${(await a.quote(100)).id}/execute`), 403, 'FORBIDDEN');
    const b = await spendingAgent(p);
    const q = await b.quote(100);
    await p.patch(`/agents/${b.agent.id}`, { isPaused: true });
    expectError(await b.client.post(`/agents/me/quotes/${q.id}/execute`), 403, 'FORBIDDEN');
    // Reading still works while paused.
    expect((await b.client.get(`/agents/me/quotes/${q.id}`)).status).toBe(200);
    expect((await b.client.get('/agents/me/actions')).status).toBe(200);
  });

  it('parallel executes that together exceed dailyLimit never all go through: counters equal what moved', async () => {
    const a = await spendingAgent(await platform(), {
      spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 1000 },
    });
    const quotes = await Promise.all([1, 2, 3, 4, 5].map(() => a.quote(300)));
    const results = await Promise.all(quotes.map((q) => a.client.post(`/agents/me/quotes/${q.id}/execute`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 403, 403]);
    expect((await a.client.get('/agents/me')).body.usage).toMatchObject({ dailySpend: 900, dailyTransactionCount: 3 });
    expect(await a.balance()).toBe(1_000_000 - 900);
  });

  it('two executes of one quote at once: exactly one runs', async () => {
    const a = await spendingAgent(await platform());
    const q = await a.quote(100);
    const results = await Promise.all([1, 2].map(() => a.client.post(`/agents/me/quotes/${q.id}/execute`)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await a.balance()).toBe(1_000_000 - 100);
  });
});

describe('usage resets by UTC date and month (injected clock)', () => {
  it('a full day is refused until 00:00 UTC, a full month until the 1st', async () => {
    clock.set(new Date('2031-01-31T23:58:00.000Z'));
    const a = await spendingAgent(await platform(), {
      spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 1000, monthlyLimit: 1500 },
    });
    expect((await a.client.post(`/agents/me/quotes/${(await a.quote(1000)).id}/execute`)).status).toBe(200);
    expect((await a.client.get('/agents/me')).body.usage).toEqual({
      dailyTransactionCount: 1,
      dailySpend: 1000,
      monthlySpend: 1000,
      dailyResetDate: '2031-02-01',
      monthlyResetMonth: '2031-02',
    });
    const q = await a.quote(1);
    clock.set(new Date('2031-01-31T23:59:59.999Z'));
    expectError(await a.client.post(`/agents/me/quotes/${q.id}/execute`), 403, 'FORBIDDEN');

    clock.set(new Date('2031-02-01T00:00:00.000Z'));
    expect((await a.client.post(`/agents/me/quotes/${q.id}/execute`)).status).toBe(200);
    expect((await a.client.get('/agents/me')).body.usage).toEqual({
      dailyTransactionCount: 1,
      dailySpend: 1,
      monthlySpend: 1,
      dailyResetDate: '2031-02-02',
      monthlyResetMonth: '2031-03',
    });
  });

  it('the monthly limit holds across days of one month, and resets on the 1st', async () => {
    clock.set(new Date('2031-03-30T12:00:00.000Z'));
    const a = await spendingAgent(await platform(), {
      spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 1000, monthlyLimit: 1500 },
    });
    expect((await a.client.post(`/agents/me/quotes/${(await a.quote(1000)).id}/execute`)).status).toBe(200);
    clock.set(new Date('2031-03-31T12:00:00.000Z'));
    const refused = expectError(
      await a.client.post(`/agents/me/quotes/${(await a.quote(501)).id}/execute`),
      403,
      'FORBIDDEN',
    );
    expect(refused.details).toEqual({ limit: 'monthlyLimit', value: 1500, amount: 1501, currency: 'USD' });
    expect((await a.client.post(`/agents/me/quotes/${(await a.quote(500)).id}/execute`)).status).toBe(200);
    clock.set(new Date('2031-04-01T00:00:00.000Z'));
    expect((await a.client.post(`/agents/me/quotes/${(await a.quote(1000)).id}/execute`)).status).toBe(200);
  });

  let before: Date;
  beforeAll(() => {
    before = clock.now();
  });
  afterAll(() => clock.set(before));
});

/** An agent whose executions wait for approval, and a pending action of `amount`. */
async function pending(p: TestPlatform, amount = 1000, funds = 1_000_000) {
  const a = await spendingAgent(p, { defaultExecutionMode: 'APPROVAL_REQUIRED' }, funds);
  const q = await a.quote(amount);
  const action = (await a.client.post(`/agents/me/quotes/${q.id}/execute`)).body as Json;
  expect(action.status).toBe('PENDING_APPROVAL');
  return { ...a, q, action, path: `/agents/${a.agent.id}/actions/${action.id}` };
}

describe('approvals', () => {
  it('approve executes the quote now: APPROVED with its transaction, money moved, spend counted', async () => {
    const p = await platform();
    const x = await pending(p, 2500);
    const res = await p.post(`${x.path}/approve`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: x.action.id,
      status: 'APPROVED',
      quote: { id: x.q.id, status: 'PROCESSING' },
      transaction: { id: x.q.transactionId, status: 'PENDING', sentAmount: { amount: 2500 } },
    });
    expect(res.body).not.toHaveProperty('rejectionReason');
    expect(await x.balance()).toBe(1_000_000 - 2500);
    expect((await x.client.get('/agents/me')).body.usage).toMatchObject({ dailySpend: 2500, dailyTransactionCount: 1 });
    expect((await x.client.get(`/agents/me/actions/${x.action.id}`)).body).toEqual(res.body);
    // Decided once.
    expectError(await p.post(`${x.path}/approve`), 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
    expectError(await p.post(`${x.path}/reject`), 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
  });

  it('reject: REJECTED with the reason, no transaction, nothing moved; without a reason no rejectionReason', async () => {
    const p = await platform();
    const x = await pending(p);
    const res = await p.post(`${x.path}/reject`, { reason: 'Over budget' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'Over budget', quote: { id: x.q.id } });
    expect(res.body).not.toHaveProperty('transaction');
    expect(await x.balance()).toBe(1_000_000);
    expect((await x.client.get('/agents/me')).body.usage.dailySpend).toBe(0);
    expectError(await p.post(`${x.path}/approve`), 409, 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
    // The quote it held is spent: it cannot be executed again.
    expectError(await x.client.post(`/agents/me/quotes/${x.q.id}/execute`), 409, 'CONFLICT');

    const y = await pending(p);
    const bare = await p.post(`${y.path}/reject`);
    expect(bare.status).toBe(200);
    expect(bare.body.status).toBe('REJECTED');
    expect(bare.body).not.toHaveProperty('rejectionReason');
    expect(bare.body).not.toHaveProperty('transaction');
    expectError(await p.post(`${(await pending(p)).path}/reject`, { reason: 7 }), 400, 'INVALID_INPUT');
  });

  it('approve of an expired quote: FAILED, its transaction FAILED with failureReason QUOTE_EXPIRED, nothing moved', async () => {
    const p = await platform();
    const x = await pending(p);
    clock.advance(300_000);
    const res = await p.post(`${x.path}/approve`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'FAILED',
      quote: { status: 'EXPIRED' },
      transaction: { status: 'FAILED', failureReason: 'QUOTE_EXPIRED', quoteId: x.q.id },
    });
    expect(await x.balance()).toBe(1_000_000);
    expect((await x.client.get('/agents/me')).body.usage.dailySpend).toBe(0);
  });

  it('approve re-checks funds: FAILED with failureReason QUOTE_EXECUTION_FAILED when the account cannot pay', async () => {
    const p = await platform();
    const x = await pending(p, 1000, 999);
    const res = await p.post(`${x.path}/approve`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'FAILED',
      quote: { status: 'FAILED' },
      transaction: { status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' },
    });
    expect(await x.balance()).toBe(999);
    expect((await x.client.get('/agents/me')).body.usage.dailySpend).toBe(0);
    expect((await x.client.get('/agents/me/transactions?status=FAILED')).body.totalCount).toBe(1);
  });

  it('approve re-checks the hard limits against the day it runs: FAILED with LIMIT_EXCEEDED', async () => {
    const p = await platform();
    const a = await spendingAgent(p, {
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: { currency: 'USD', perTransactionLimit: 1000, dailyLimit: 1000 },
    });
    const first = (await a.client.post(`/agents/me/quotes/${(await a.quote(600)).id}/execute`)).body as Json;
    const second = (await a.client.post(`/agents/me/quotes/${(await a.quote(600)).id}/execute`)).body as Json;
    expect((await p.post(`/agents/${a.agent.id}/actions/${first.id}/approve`)).body.status).toBe('APPROVED');
    const res = await p.post(`/agents/${a.agent.id}/actions/${second.id}/approve`);
    expect(res.body).toMatchObject({ status: 'FAILED', transaction: { failureReason: 'LIMIT_EXCEEDED' } });
    expect((await a.client.get('/agents/me')).body.usage.dailySpend).toBe(600);
  });

  it("unknown agent or action, another agent's action, another platform's: 404 TRANSACTION_NOT_FOUND", async () => {
    const p = await platform();
    const x = await pending(p);
    const other = await spendingAgent(p);
    const unknownAction = 'AgentAction:019542f5-b3e7-7d02-8000-000000000001';
    const unknownAgent = 'Agent:019542f5-b3e7-7d02-8000-000000000001';
    for (const op of ['approve', 'reject']) {
      expectError(await p.post(`/agents/${x.agent.id}/actions/${unknownAction}/${op}`), 404, 'TRANSACTION_NOT_FOUND');
      expectError(await p.post(`/agents/${unknownAgent}/actions/${x.action.id}/${op}`), 404, 'TRANSACTION_NOT_FOUND');
      expectError(await p.post(`/agents/${other.agent.id}/actions/${x.action.id}/${op}`), 404, 'TRANSACTION_NOT_FOUND');
      expectError(await (await platform()).post(`${x.path}/${op}`), 404, 'TRANSACTION_NOT_FOUND');
    }
    // Still pending after all that.
    expect((await x.client.get(`/agents/me/actions/${x.action.id}`)).body.status).toBe('PENDING_APPROVAL');
    // And the agent side: another agent cannot read it.
    expectError(await other.client.get(`/agents/me/actions/${x.action.id}`), 404, 'TRANSACTION_NOT_FOUND');
  });

  it('approve and reject racing on one action: exactly one wins, the other gets 409', async () => {
    const p = await platform();
    for (let i = 0; i < 3; i++) {
      const x = await pending(p);
      const [approve, reject] = await Promise.all([p.post(`${x.path}/approve`), p.post(`${x.path}/reject`)]);
      expect([approve.status, reject.status].sort()).toEqual([200, 409]);
      const loser = approve.status === 409 ? approve : reject;
      expect(loser.body.code).toBe('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
      const final = (await x.client.get(`/agents/me/actions/${x.action.id}`)).body as Json;
      expect(final.status).toBe(approve.status === 200 ? 'APPROVED' : 'REJECTED');
      expect(await x.balance()).toBe(approve.status === 200 ? 1_000_000 - 1000 : 1_000_000);
    }
  });

  it('needs TRANSACT; GET /agents/approvals lists only pending actions, with the reference filters, paginated', async () => {
    const p = await platform();
    const x = await pending(p);
    const y = await pending(p);
    const z = await pending(p);
    await p.post(`${z.path}/reject`);
    const view = await p.post('/tokens', { name: 'viewer', permissions: ['VIEW'] });
    const viewer = `Basic ${Buffer.from(`${view.body.clientId}:${view.body.clientSecret}`).toString('base64')}`;
    expectError(await t.http.post(`/2025-10-13${x.path}/approve`).set('Authorization', viewer), 403, 'FORBIDDEN');
    const all = (await p.get('/agents/approvals')).body as Json;
    expect(ids(all)).toEqual([y.action.id, x.action.id]);
    expect(all.totalCount).toBe(2);
    expect((await t.http.get('/2025-10-13/agents/approvals').set('Authorization', viewer)).status).toBe(200);
    const page1 = (await p.get('/agents/approvals?limit=1&sortOrder=asc')).body as Json;
    expect(page1).toMatchObject({ data: [{ id: x.action.id }], hasMore: true, totalCount: 2 });
    const page2 = (await p.get(`/agents/approvals?limit=1&sortOrder=asc&cursor=${page1.nextCursor}`)).body as Json;
    expect(page2).toMatchObject({ data: [{ id: y.action.id }], hasMore: false });
    expect(ids((await p.get(`/agents/approvals?agentId=${x.agent.id}`)).body)).toEqual([x.action.id]);
    expect(ids((await p.get(`/agents/approvals?customerId=${y.customer.id}`)).body)).toEqual([y.action.id]);
    const later = new Date(clock.now().getTime() + 1000).toISOString();
    expect((await p.get(`/agents/approvals?startDate=${later}`)).body.totalCount).toBe(0);
    expectError(await p.get('/agents/approvals?agentId=nope'), 400, 'INVALID_INPUT');
    // Another platform sees none of them.
    expect((await (await platform()).get('/agents/approvals')).body.totalCount).toBe(0);
  });
});

describe("the agent's lists", () => {
  it('GET /agents/me/actions filters by status; transactions by account and status; both need VIEW_TRANSACTIONS only', async () => {
    const p = await platform();
    const a = await spendingAgent(p, { approvalThresholds: { currency: 'USD', amount: 100 } });
    const done = (await a.client.post(`/agents/me/quotes/${(await a.quote(100)).id}/execute`)).body as Json;
    const waiting = (await a.client.post(`/agents/me/quotes/${(await a.quote(101)).id}/execute`)).body as Json;
    expect(ids((await a.client.get('/agents/me/actions')).body)).toEqual([waiting.id, done.id]);
    expect(ids((await a.client.get('/agents/me/actions?status=PENDING_APPROVAL')).body)).toEqual([waiting.id]);
    expectError(await a.client.get('/agents/me/actions?status=NOPE'), 400, 'INVALID_INPUT');
    const byAccount = (await a.client.get(`/agents/me/transactions?accountIdentifier=${a.externalAccountId}`))
      .body as Json;
    expect(ids(byAccount)).toEqual([done.transaction.id]);
    expect(
      (await a.client.get(`/agents/me/transactions?senderAccountIdentifier=${a.externalAccountId}`)).body.totalCount,
    ).toBe(0);
    expect((await a.client.get('/agents/me/transactions?type=INCOMING')).body.totalCount).toBe(0);
    expect((await a.client.get(`/agents/me/transactions?reference=${done.quote.id}`)).body.totalCount).toBe(1);

    // The customer's transactions are visible to its other agents (the customer is the scope), not to others.
    const sibling = await installedAgent(p, { customer: a.customer, policy: agentPolicy({ permissions: [] }) });
    expect((await sibling.client.get('/agents/me/transactions')).body.totalCount).toBe(1);
    expect((await sibling.client.get('/agents/me/actions')).body.totalCount).toBe(0);
    const stranger = await installedAgent(p, { policy: agentPolicy() });
    expect((await stranger.client.get('/agents/me/transactions')).body.totalCount).toBe(0);
    expectError(
      await stranger.client.get(`/agents/me/transactions/${done.transaction.id}`),
      404,
      'TRANSACTION_NOT_FOUND',
    );
    expectError(await p.get('/agents/me/transactions'), 401, 'UNAUTHORIZED');
  });
});

describe('the OpenAPI document', () => {
  it("carries the reference's operationIds, with AgentAuth on /agents/me routes and Basic on the platform's", async () => {
    const doc = (await t.http.get('/2025-10-13/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId?: string; security?: Array<Record<string, unknown>> }>>;
    };
    const expected: Array<[string, string, string]> = [
      ['/agents/me/quotes', 'post', 'agentCreateQuote'],
      ['/agents/me/quotes/{quoteId}', 'get', 'agentGetQuote'],
      ['/agents/me/quotes/{quoteId}/execute', 'post', 'agentExecuteQuote'],
      ['/agents/me/actions', 'get', 'agentListActions'],
      ['/agents/me/actions/{actionId}', 'get', 'agentGetAction'],
      ['/agents/me/transactions', 'get', 'agentListTransactions'],
      ['/agents/me/transactions/{transactionId}', 'get', 'agentGetTransaction'],
      ['/agents/approvals', 'get', 'listAgentApprovals'],
      ['/agents/{agentId}/actions/{actionId}/approve', 'post', 'approveAgentAction'],
      ['/agents/{agentId}/actions/{actionId}/reject', 'post', 'rejectAgentAction'],
    ];
    for (const [path, method, operationId] of expected) {
      const o = doc.paths[path]?.[method] ?? {};
      const schemes = (o.security ?? []).flatMap((s) => Object.keys(s));
      expect({ path, method, operationId: o.operationId, schemes }).toEqual({
        path,
        method,
        operationId,
        schemes: [path.startsWith('/agents/me') ? 'AgentAuth' : 'BasicAuth'],
      });
    }
  });
});
