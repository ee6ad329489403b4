import { spendingAgent, type Json } from '../support/agent-quotes.js';
import { recordedEvents } from '../support/events.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

/**
 * `POST /agents/me/transfer-in` and `/transfer-out` (docs/agents.md#transfers): the platform's
 * transfer path (TransfersService) under the agent's policy: CREATE_TRANSFERS, hard limits (403,
 * nothing moves), the approval threshold and execution mode (PENDING_APPROVAL, then the platform
 * approves or rejects), the counters, and the agent's customer only.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const transfers = ['CREATE_TRANSFERS'];
type Agent = Awaited<ReturnType<typeof spendingAgent>>;
const out = (a: Agent, amount: number) =>
  a.client.post('/agents/me/transfer-out', {
    source: { accountId: a.accountId },
    destination: { accountId: a.externalAccountId },
    amount,
  });
const inn = (a: Agent, amount: number) =>
  a.client.post('/agents/me/transfer-in', {
    source: { accountId: a.externalAccountId },
    destination: { accountId: a.accountId },
    amount,
  });
const usage = async (a: Agent) => ((await a.client.get('/agents/me')).body as Json).usage as Json;

describe('permission', () => {
  it('needs CREATE_TRANSFERS (403 otherwise), and a paused agent is refused', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, { permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'] });
    expectError(await out(a, 1000), 403, 'FORBIDDEN');
    expectError(await inn(a, 1000), 403, 'FORBIDDEN');
    const b = await spendingAgent(p, { permissions: transfers });
    expect((await p.patch(`/agents/${b.agent.id}`, { isPaused: true })).status).toBe(200);
    expectError(await out(b, 1000), 403, 'FORBIDDEN');
    expect(await b.balance()).toBe(1_000_000);
  });
});

describe('AUTO', () => {
  it('transfer-out: APPROVED with its outgoing transaction, money moved, spend counted', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, { permissions: transfers });
    const res = await out(a, 12_550);
    expect(res.status).toBe(201);
    const action = res.body as Json;
    expect(action).toMatchObject({
      agentId: a.agent.id,
      customerId: a.customer.id,
      type: 'TRANSFER_OUT',
      status: 'APPROVED',
      transferDetails: {
        amount: 12_550,
        currency: 'USD',
        sourceAccountId: a.accountId,
        destinationAccountId: a.externalAccountId,
      },
      transaction: { type: 'OUTGOING' },
    });
    expect(action.quote).toBeUndefined();
    expect(await a.balance()).toBe(1_000_000 - 12_550);
    expect(await usage(a)).toMatchObject({ dailyTransactionCount: 1, dailySpend: 12_550 });
    expect(((await a.client.get(`/agents/me/actions/${action.id}`)).body as Json).transferDetails.amount).toBe(12_550);
  });

  it('transfer-in: APPROVED with its incoming transaction (COMPLETED in sandbox), money credited', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, { permissions: transfers }, 0);
    const res = await inn(a, 4_000);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'TRANSFER_IN',
      status: 'APPROVED',
      transferDetails: { amount: 4_000, currency: 'USD', sourceAccountId: a.externalAccountId },
      transaction: { type: 'INCOMING', status: 'COMPLETED', receivedAmount: { amount: 4_000 } },
    });
    expect(await a.balance()).toBe(4_000);
    expect(await usage(a)).toMatchObject({ dailyTransactionCount: 1, dailySpend: 4_000 });
    const tx = await p.get(`/transactions/${(res.body as Json).transaction.id as string}`);
    expect(tx.status).toBe(200);
  });
});

describe('policy refusals', () => {
  it('over perTransactionLimit or the dailyLimit: 403 naming the limit, nothing moves, no action', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, {
      permissions: transfers,
      spendingLimits: { currency: 'USD', perTransactionLimit: 50_000, dailyLimit: 60_000 },
    });
    const over = expectError(await out(a, 50_001), 403, 'FORBIDDEN');
    expect(over.details).toMatchObject({ limit: 'perTransactionLimit', value: 50_000, amount: 50_001 });
    expectError(await inn(a, 50_001), 403, 'FORBIDDEN');
    // Exactly at the limit is allowed; then the day's limit refuses the next one.
    expect((await out(a, 50_000)).status).toBe(201);
    const daily = expectError(await inn(a, 10_001), 403, 'FORBIDDEN');
    expect(daily.details).toMatchObject({ limit: 'dailyLimit' });
    expect(await a.balance()).toBe(1_000_000 - 50_000);
    expect(((await a.client.get('/agents/me/actions')).body as Json).data).toHaveLength(1);
  });

  it('outside allowedAccountIds: 403 naming the account', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, { permissions: transfers, accountRestrictions: { allowedAccountIds: [] } });
    const denied = expectError(await inn(a, 100), 403, 'FORBIDDEN');
    expect(denied.details).toEqual({ limit: 'allowedAccountIds', accountId: a.accountId });
    expectError(await out(a, 100), 403, 'FORBIDDEN');
  });

  it("another customer's accounts: 404 ACCOUNT_NOT_FOUND", async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, { permissions: transfers });
    const b = await spendingAgent(p, { permissions: transfers });
    const foreignOut = await a.client.post('/agents/me/transfer-out', {
      source: { accountId: a.accountId },
      destination: { accountId: b.externalAccountId },
      amount: 100,
    });
    expectError(foreignOut, 404, 'ACCOUNT_NOT_FOUND');
    const foreignIn = await a.client.post('/agents/me/transfer-in', {
      source: { accountId: b.externalAccountId },
      destination: { accountId: a.accountId },
      amount: 100,
    });
    expectError(foreignIn, 404, 'ACCOUNT_NOT_FOUND');
    const otherDestination = await a.client.post('/agents/me/transfer-in', {
      source: { accountId: a.externalAccountId },
      destination: { accountId: b.accountId },
      amount: 100,
    });
    expectError(otherDestination, 404, 'ACCOUNT_NOT_FOUND');
    expect(await b.balance()).toBe(1_000_000);
  });

  it('a malformed body is 400 INVALID_INPUT with every field', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, { permissions: transfers }, 0);
    const res = await a.client.post('/agents/me/transfer-in', { source: {}, amount: -1 });
    const body = expectError(res, 400, 'INVALID_INPUT');
    const fields = (body.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();
    expect(fields).toEqual(['amount', 'destination', 'source.accountId']);
  });
});

describe('race', () => {
  it('concurrent transfer-outs and transfer-ins against the dailyLimit: exactly what fits runs', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, {
      permissions: transfers,
      spendingLimits: { currency: 'USD', perTransactionLimit: 10_000, dailyLimit: 30_000 },
    });
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => out(a, 10_000)),
      ...Array.from({ length: 4 }, () => inn(a, 10_000)),
    ]);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 403)).toHaveLength(5);
    const outs = answers.slice(0, 4).filter((r) => r.status === 201).length;
    const ins = answers.slice(4).filter((r) => r.status === 201).length;
    expect(await a.balance()).toBe(1_000_000 - outs * 10_000 + ins * 10_000);
    expect(await usage(a)).toMatchObject({ dailyTransactionCount: 3, dailySpend: 30_000 });
  });
});

describe('approval', () => {
  it('transfer-out above the approval threshold waits; the platform approves: executed then', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, {
      permissions: transfers,
      approvalThresholds: { currency: 'USD', amount: 5_000 },
    });
    expect((await out(a, 5_000)).body.status).toBe('APPROVED'); // at the threshold: runs
    const res = await out(a, 5_001);
    expect(res.status).toBe(201);
    const action = res.body as Json;
    expect(action).toMatchObject({ type: 'TRANSFER_OUT', status: 'PENDING_APPROVAL' });
    expect(action.transaction).toBeUndefined();
    expect(await a.balance()).toBe(1_000_000 - 5_000);
    const events = await recordedEvents(p, 'AGENT_ACTION.PENDING_APPROVAL');
    expect(events.map((e) => (e.data as Json).id as string)).toEqual([action.id]);
    expect((events[0].data as Json).transferDetails).toMatchObject({ amount: 5_001 });
    const pending = (await p.get('/agents/approvals')).body as Json;
    expect((pending.data as Json[]).map((x) => x.id as string)).toEqual([action.id]);

    const approved = await p.post(`/agents/${a.agent.id}/actions/${action.id as string}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'APPROVED', transaction: { type: 'OUTGOING' } });
    expect(await a.balance()).toBe(1_000_000 - 10_001);
    expect(await usage(a)).toMatchObject({ dailyTransactionCount: 2, dailySpend: 10_001 });
    expectError(
      await p.post(`/agents/${a.agent.id}/actions/${action.id as string}/approve`),
      409,
      'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    );
  });

  it('transfer-in under APPROVAL_REQUIRED waits; approve runs it, reject moves nothing', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(p, { permissions: transfers, defaultExecutionMode: 'APPROVAL_REQUIRED' }, 0);
    const first = (await inn(a, 2_500)).body as Json;
    const second = (await inn(a, 700)).body as Json;
    expect([first.status, second.status]).toEqual(['PENDING_APPROVAL', 'PENDING_APPROVAL']);
    expect(first.transaction).toBeUndefined();
    expect(await a.balance()).toBe(0);
    expect(await usage(a)).toMatchObject({ dailyTransactionCount: 0 });

    const approved = await p.post(`/agents/${a.agent.id}/actions/${first.id as string}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      type: 'TRANSFER_IN',
      status: 'APPROVED',
      transaction: { type: 'INCOMING', status: 'COMPLETED', receivedAmount: { amount: 2_500 } },
    });
    expect(await a.balance()).toBe(2_500);
    expect(await usage(a)).toMatchObject({ dailyTransactionCount: 1, dailySpend: 2_500 });

    const rejected = await p.post(`/agents/${a.agent.id}/actions/${second.id as string}/reject`, { reason: 'no' });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'no' });
    expect(rejected.body.transaction).toBeUndefined();
    expect(await a.balance()).toBe(2_500);
    // The agent sees both, newest first or not: by id.
    const mine = ((await a.client.get('/agents/me/actions')).body as Json).data as Json[];
    expect(mine.map((x) => x.status as string).sort()).toEqual(['APPROVED', 'REJECTED']);
  });

  it('a pending transfer-in the day no longer has room for fails on approval, nothing moves', async () => {
    const p = await TestPlatform.create(t);
    const a = await spendingAgent(
      p,
      {
        permissions: transfers,
        defaultExecutionMode: 'APPROVAL_REQUIRED',
        spendingLimits: { currency: 'USD', perTransactionLimit: 5_000, dailyLimit: 6_000 },
      },
      0,
    );
    const first = (await inn(a, 4_000)).body as Json;
    const second = (await inn(a, 4_000)).body as Json;
    expect((await p.post(`/agents/${a.agent.id}/actions/${first.id as string}/approve`)).body.status).toBe('APPROVED');
    const failed = await p.post(`/agents/${a.agent.id}/actions/${second.id as string}/approve`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'FAILED' });
    expect(failed.body.transaction).toBeUndefined();
    expect(await a.balance()).toBe(4_000);
  });
});
