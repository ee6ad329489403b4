import { DataSource } from 'typeorm';
import { agentPolicy, installedAgent, newAgent } from '../support/agents.js';
import { customerAccount, newCustomer } from '../support/fixtures.js';
import { FakeClock } from '../support/fake-clock.js';
import { expectError, startTestApp, TestApp, TestPlatform } from '../support/test-app.js';

// Agent management (platform side): creation with the spec's defaults, every FieldError, the
// customer rules, list/get/patch/delete, the policy PATCH, permissions and tenancy.
const clock = new FakeClock(new Date('2026-03-31T23:30:00.000Z'));
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { clock });
});
afterAll(() => t.close());

const UNKNOWN_AGENT = 'Agent:019542f5-b3e7-7d02-8000-000000000001';
const fieldsOf = (body: { details?: Record<string, unknown> }) =>
  (body.details!.errors as Array<{ field: string }>).map((e) => e.field).sort();

describe('POST /agents', () => {
  it('201 {agent, deviceCode} with the spec defaults: AUTO modes, VIEW_TRANSACTIONS, zero usage resetting tomorrow and next month (UTC)', async () => {
    const p = await TestPlatform.create(t);
    const customer = await newCustomer(p);
    const account = await customerAccount(p, customer.id);
    const res = await p.post('/agents', {
      name: 'Payroll Automation Agent',
      customerId: customer.id,
      policy: {
        permissions: [],
        spendingLimits: { currency: 'USD', perTransactionLimit: 50000 },
        accountRestrictions: { allowedAccountIds: [account.id], accountRules: [{ accountId: account.id }] },
        approvalThresholds: { currency: 'USD', amount: 100000 },
      },
    });
    expect(res.status).toBe(201);
    const { agent, deviceCode } = res.body;
    expect(agent).toEqual({
      id: expect.stringMatching(/^Agent:[0-9a-f-]{36}$/),
      name: 'Payroll Automation Agent',
      customerId: customer.id,
      isPaused: false,
      isConnected: false,
      policy: {
        permissions: ['VIEW_TRANSACTIONS'],
        defaultExecutionMode: 'AUTO',
        spendingLimits: { currency: 'USD', perTransactionLimit: 50000, dailyLimit: null, monthlyLimit: null },
        accountRestrictions: {
          allowedAccountIds: [account.id],
          accountRules: [{ accountId: account.id, executionMode: 'AUTO', perTransactionLimit: null }],
        },
        approvalThresholds: { currency: 'USD', amount: 100000 },
      },
      // 23:30 UTC on 31 March: the counters reset tomorrow (1 April) and next month (April).
      usage: {
        dailyTransactionCount: 0,
        dailySpend: 0,
        monthlySpend: 0,
        dailyResetDate: '2026-04-01',
        monthlyResetMonth: '2026-04',
      },
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    expect(deviceCode).toEqual({
      code: expect.stringMatching(/^GRID-AGENT-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/),
      agentId: agent.id,
      expiresAt: new Date(clock.now().getTime() + 24 * 3600 * 1000).toISOString(),
      redeemed: false,
    });
    expect((await p.get(`/agents/${agent.id}`)).body).toEqual(agent);
  });

  it('keeps what was set: permissions (VIEW_TRANSACTIONS added once, first), modes, every limit', async () => {
    const p = await TestPlatform.create(t);
    const policy = {
      permissions: ['EXECUTE_QUOTES', 'VIEW_TRANSACTIONS', 'CREATE_QUOTES'],
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: {
        currency: 'EUR',
        perTransactionLimit: 0,
        dailyLimit: 9007199254740991,
        dailyTransactionLimit: 10,
        monthlyLimit: null,
      },
      accountRestrictions: { allowedAccountIds: null },
    };
    const { agent } = await newAgent(p, { policy });
    expect(agent.policy).toEqual({
      permissions: ['VIEW_TRANSACTIONS', 'EXECUTE_QUOTES', 'CREATE_QUOTES'],
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: {
        currency: 'EUR',
        perTransactionLimit: 0,
        dailyLimit: 9007199254740991,
        dailyTransactionLimit: 10,
        monthlyLimit: null,
      },
      accountRestrictions: { allowedAccountIds: null, accountRules: [] },
    });
  });

  it('name, customerId and policy are required: every FieldError in one response', async () => {
    const p = await TestPlatform.create(t);
    const err = expectError(await p.post('/agents', {}), 400, 'INVALID_INPUT');
    expect(fieldsOf(err)).toEqual(['customerId', 'name', 'policy']);
    expectError(await p.post('/agents', [1]), 400, 'INVALID_INPUT');
  });

  it('each policy rule is a FieldError on its dot path, all together', async () => {
    const p = await TestPlatform.create(t);
    const customer = await newCustomer(p);
    const res = await p.post('/agents', {
      name: '',
      customerId: 'Customer:nope',
      surprise: true,
      policy: {
        permissions: ['VIEW_TRANSACTIONS', 'FLY'],
        defaultExecutionMode: 'SOMETIMES',
        spendingLimits: { dailyLimit: -1, monthlyLimit: 1.5, dailyTransactionLimit: 'ten' },
        accountRestrictions: {
          allowedAccountIds: ['Account:1'],
          accountRules: [{ executionMode: 'AUTO', perTransactionLimit: 9007199254740992 }],
        },
        approvalThresholds: { amount: 100 },
      },
    });
    const err = expectError(res, 400, 'INVALID_INPUT');
    expect(fieldsOf(err)).toEqual(
      [
        'customerId',
        'name',
        'policy.accountRestrictions.accountRules.0.accountId',
        'policy.accountRestrictions.accountRules.0.perTransactionLimit',
        'policy.accountRestrictions.allowedAccountIds',
        'policy.approvalThresholds.currency',
        'policy.defaultExecutionMode',
        'policy.permissions',
        'policy.spendingLimits.currency',
        'policy.spendingLimits.dailyLimit',
        'policy.spendingLimits.dailyTransactionLimit',
        'policy.spendingLimits.monthlyLimit',
        'policy.spendingLimits.perTransactionLimit',
        'surprise',
      ].sort(),
    );
    const byField = Object.fromEntries(
      (err.details!.errors as Array<{ field: string; constraint?: unknown }>).map((e) => [e.field, e]),
    );
    expect(byField['policy.permissions'].constraint).toEqual({
      enum: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'],
    });
    expect(byField['policy.defaultExecutionMode'].constraint).toEqual({ enum: ['AUTO', 'APPROVAL_REQUIRED'] });
    // Nothing was created.
    expect((await p.get(`/agents?customerId=${customer.id}`)).body.totalCount).toBe(0);
  });

  it('a missing spendingLimits, a non-object policy and a duplicate account rule are FieldErrors', async () => {
    const p = await TestPlatform.create(t);
    const customer = await newCustomer(p);
    const account = await customerAccount(p, customer.id);
    const post = (policy: unknown) => p.post('/agents', { name: 'a', customerId: customer.id, policy });
    expect(fieldsOf(expectError(await post({ permissions: [] }), 400, 'INVALID_INPUT'))).toEqual([
      'policy.spendingLimits',
    ]);
    expect(fieldsOf(expectError(await post('all'), 400, 'INVALID_INPUT'))).toEqual(['policy']);
    const rules = [{ accountId: account.id }, { accountId: account.id, executionMode: 'APPROVAL_REQUIRED' }];
    expect(
      fieldsOf(
        expectError(await post(agentPolicy({ accountRestrictions: { accountRules: rules } })), 400, 'INVALID_INPUT'),
      ),
    ).toEqual(['policy.accountRestrictions.accountRules.1.accountId']);
  });

  it("accountRestrictions may name only the customer's own internal accounts", async () => {
    const p = await TestPlatform.create(t);
    const customer = await newCustomer(p);
    const other = await newCustomer(p);
    const mine = await customerAccount(p, customer.id);
    const theirs = await customerAccount(p, other.id);
    const platformOwn = (await p.get('/platform/internal-accounts')).body.data[0].id as string;
    const foreign = await customerAccount(await foreignPlatform(), (await newCustomer(await foreignPlatform())).id);
    const res = await p.post('/agents', {
      name: 'a',
      customerId: customer.id,
      policy: agentPolicy({
        accountRestrictions: {
          allowedAccountIds: [mine.id, theirs.id, platformOwn],
          accountRules: [{ accountId: foreign.id }, { accountId: mine.id }],
        },
      }),
    });
    const err = expectError(res, 400, 'INVALID_INPUT');
    expect(fieldsOf(err)).toEqual([
      'policy.accountRestrictions.accountRules.0.accountId',
      'policy.accountRestrictions.allowedAccountIds.1',
      'policy.accountRestrictions.allowedAccountIds.2',
    ]);
  });

  it('an unknown or foreign customer is 404 CUSTOMER_NOT_FOUND, a deleted one 410 CUSTOMER_DELETED (as external accounts)', async () => {
    const p = await TestPlatform.create(t);
    const post = (customerId: string) => p.post('/agents', { name: 'a', customerId, policy: agentPolicy() });
    expectError(await post('Customer:019542f5-b3e7-7d02-8000-000000000001'), 404, 'CUSTOMER_NOT_FOUND');
    const foreign = await newCustomer(await foreignPlatform());
    expectError(await post(foreign.id), 404, 'CUSTOMER_NOT_FOUND');
    const gone = await newCustomer(p);
    expect((await p.delete(`/customers/${gone.id}`)).status).toBe(200);
    expectError(await post(gone.id), 410, 'CUSTOMER_DELETED');
  });

  it('accepts Idempotency-Key: the same key and body replay the first agent and device code', async () => {
    const p = await TestPlatform.create(t);
    const customer = await newCustomer(p);
    const body = { name: 'a', customerId: customer.id, policy: agentPolicy() };
    const first = await p.post('/agents', body).set('Idempotency-Key', 'agent-1');
    const again = await p.post('/agents', body).set('Idempotency-Key', 'agent-1');
    expect(first.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await p.get('/agents')).body.totalCount).toBe(1);
  });
});

let foreign: TestPlatform | undefined;
async function foreignPlatform(): Promise<TestPlatform> {
  foreign ??= await TestPlatform.create(t, 'Foreign platform');
  return foreign;
}

describe('GET /agents, GET/PATCH/DELETE /agents/{agentId}', () => {
  it('lists the platform’s live agents, newest first, with the reference filters and pagination', async () => {
    const p = await TestPlatform.create(t);
    const customer = await newCustomer(p);
    const a = await newAgent(p, { customer, name: 'a' });
    const b = await installedAgent(p, { name: 'b' });
    const c = await newAgent(p, { customer, name: 'c' });
    expect((await p.patch(`/agents/${c.agent.id}`, { isPaused: true })).status).toBe(200);
    await newAgent(await foreignPlatform());

    const ids = async (q: string) => ((await p.get(`/agents${q}`)).body.data as Array<{ id: string }>).map((x) => x.id);
    expect(await ids('')).toEqual([c.agent.id, b.agent.id, a.agent.id]);
    expect(await ids(`?customerId=${customer.id}`)).toEqual([c.agent.id, a.agent.id]);
    expect(await ids('?isPaused=true')).toEqual([c.agent.id]);
    expect(await ids('?isConnected=true')).toEqual([b.agent.id]);
    expect(await ids('?isConnected=false&isPaused=false')).toEqual([a.agent.id]);
    expect(await ids(`?createdAfter=${encodeURIComponent(clock.now().toISOString())}`)).toHaveLength(3);

    const page1 = (await p.get('/agents?limit=2')).body;
    expect(page1).toMatchObject({ hasMore: true, totalCount: 3 });
    const page2 = (await p.get(`/agents?limit=2&cursor=${page1.nextCursor}`)).body;
    expect(page2.data.map((x: { id: string }) => x.id)).toEqual([a.agent.id]);

    expect((await p.delete(`/agents/${b.agent.id}`)).status).toBe(204);
    expect(await ids('')).toEqual([c.agent.id, a.agent.id]);
    expectError(await p.get('/agents?isPaused=maybe'), 400, 'INVALID_INPUT');
    expectError(await p.get('/agents?customerId=nope'), 400, 'INVALID_INPUT');
  });

  it('PATCH renames and pauses (at least one member); DELETE is 204 and then the agent is 404', async () => {
    const p = await TestPlatform.create(t);
    const { agent } = await newAgent(p);
    const empty = expectError(await p.patch(`/agents/${agent.id}`, {}), 400, 'INVALID_INPUT');
    expect(fieldsOf(empty)).toEqual(['body']);
    expect(
      fieldsOf(expectError(await p.patch(`/agents/${agent.id}`, { isPaused: 'yes', name: '' }), 400, 'INVALID_INPUT')),
    ).toEqual(['isPaused', 'name']);
    clock.advance(1000);
    const renamed = await p.patch(`/agents/${agent.id}`, { name: 'Renamed', isPaused: true });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', isPaused: true, updatedAt: clock.now().toISOString() });
    expect((await p.patch(`/agents/${agent.id}`, { isPaused: false })).body).toMatchObject({
      name: 'Renamed',
      isPaused: false,
    });
    expect((await p.delete(`/agents/${agent.id}`)).status).toBe(204);
    for (const res of [
      await p.get(`/agents/${agent.id}`),
      await p.patch(`/agents/${agent.id}`, { name: 'x' }),
      await p.patch(`/agents/${agent.id}/policy`, { defaultExecutionMode: 'AUTO' }),
      await p.post(`/agents/${agent.id}/device-codes`),
      await p.delete(`/agents/${agent.id}`),
    ])
      expectError(res, 404, 'NOT_FOUND');
  });

  it('unknown ids are 404 NOT_FOUND, malformed ones 400 on the parameter', async () => {
    const p = await TestPlatform.create(t);
    expectError(await p.get(`/agents/${UNKNOWN_AGENT}`), 404, 'NOT_FOUND');
    expectError(await p.delete(`/agents/${UNKNOWN_AGENT}`), 404, 'NOT_FOUND');
    const bad = expectError(await p.get('/agents/Customer:019542f5-b3e7-7d02-8000-000000000001'), 400, 'INVALID_INPUT');
    expect(fieldsOf(bad)).toEqual(['agentId']);
  });

  it("tenancy: another platform's agent is 404 on every route, never a hint it exists", async () => {
    const p = await TestPlatform.create(t);
    const { agent, deviceCode } = await newAgent(p);
    const other = await foreignPlatform();
    for (const res of [
      await other.get(`/agents/${agent.id}`),
      await other.patch(`/agents/${agent.id}`, { isPaused: true }),
      await other.patch(`/agents/${agent.id}/policy`, { permissions: [] }),
      await other.post(`/agents/${agent.id}/device-codes`),
      await other.delete(`/agents/${agent.id}`),
      await other.get(`/agents/device-codes/${deviceCode.code}/status`),
    ])
      expectError(res, 404, 'NOT_FOUND');
    expect((await other.get('/agents')).body.data.map((a: { id: string }) => a.id)).not.toContain(agent.id);
    expect((await p.get(`/agents/${agent.id}`)).body).toMatchObject({ isPaused: false, name: agent.name });
  });

  it('permissions: reads need VIEW, everything else TRANSACT (403 FORBIDDEN)', async () => {
    const p = await TestPlatform.create(t);
    const { agent, deviceCode, customer } = await newAgent(p);
    const view = await p.token(['VIEW']);
    const transact = await p.token(['TRANSACT']);
    const as = (auth: string) => ({
      get: (path: string) => t.http.get(`/2025-10-13${path}`).set('Authorization', auth),
      post: (path: string, body?: object) => t.http.post(`/2025-10-13${path}`).set('Authorization', auth).send(body),
      patch: (path: string, body: object) => t.http.patch(`/2025-10-13${path}`).set('Authorization', auth).send(body),
      delete: (path: string) => t.http.delete(`/2025-10-13${path}`).set('Authorization', auth),
    });
    const v = as(view.authorization);
    expect((await v.get('/agents')).status).toBe(200);
    expect((await v.get(`/agents/${agent.id}`)).status).toBe(200);
    expect((await v.get(`/agents/device-codes/${deviceCode.code}/status`)).status).toBe(200);
    for (const res of [
      await v.post('/agents', { name: 'a', customerId: customer.id, policy: agentPolicy() }),
      await v.patch(`/agents/${agent.id}`, { isPaused: true }),
      await v.patch(`/agents/${agent.id}/policy`, { permissions: [] }),
      await v.post(`/agents/${agent.id}/device-codes`),
      await v.delete(`/agents/${agent.id}`),
    ])
      expectError(res, 403, 'FORBIDDEN');
    const x = as(transact.authorization);
    expect((await x.post('/agents', { name: 'a', customerId: customer.id, policy: agentPolicy() })).status).toBe(201);
    expect((await x.patch(`/agents/${agent.id}/policy`, { permissions: [] })).status).toBe(200);
    expect((await x.post(`/agents/${agent.id}/device-codes`)).status).toBe(201);
    expect((await x.delete(`/agents/${agent.id}`)).status).toBe(204);
  });
});

describe('PATCH /agents/{agentId}/policy', () => {
  it('is partial: permissions replaces the list, spendingLimits merges member by member (null clears), the rest stays', async () => {
    const p = await TestPlatform.create(t);
    const { agent } = await newAgent(p, {
      policy: agentPolicy({
        defaultExecutionMode: 'APPROVAL_REQUIRED',
        approvalThresholds: { currency: 'USD', amount: 1000 },
      }),
    });
    clock.advance(1000);
    const res = await p.patch(`/agents/${agent.id}/policy`, {
      permissions: ['MANAGE_EXTERNAL_ACCOUNTS'],
      spendingLimits: { perTransactionLimit: 100, dailyLimit: null, dailyTransactionLimit: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.body.updatedAt).toBe(clock.now().toISOString());
    expect(res.body.policy).toEqual({
      permissions: ['VIEW_TRANSACTIONS', 'MANAGE_EXTERNAL_ACCOUNTS'],
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: {
        currency: 'USD',
        perTransactionLimit: 100,
        dailyLimit: null,
        dailyTransactionLimit: 3,
        monthlyLimit: 5000000,
      },
      approvalThresholds: { currency: 'USD', amount: 1000 },
    });
    // Objects are replaced whole; null removes them.
    const next = await p.patch(`/agents/${agent.id}/policy`, {
      approvalThresholds: null,
      accountRestrictions: { allowedAccountIds: [] },
      spendingLimits: { currency: 'EUR' },
    });
    expect(next.body.policy).toMatchObject({
      spendingLimits: { currency: 'EUR', perTransactionLimit: 100 },
      accountRestrictions: { allowedAccountIds: [], accountRules: [] },
    });
    expect(next.body.policy.approvalThresholds).toBeUndefined();
    expect((await p.get(`/agents/${agent.id}`)).body).toEqual(next.body);
  });

  it('an empty permissions list comes back as ["VIEW_TRANSACTIONS"]', async () => {
    const p = await TestPlatform.create(t);
    const { agent } = await newAgent(p);
    expect((await p.patch(`/agents/${agent.id}/policy`, { permissions: [] })).body.policy.permissions).toEqual([
      'VIEW_TRANSACTIONS',
    ]);
  });

  it('FieldErrors: empty body, bad members, required ones cleared, a threshold amount left without currency, foreign accounts', async () => {
    const p = await TestPlatform.create(t);
    const { agent } = await newAgent(p);
    const patch = (body: unknown) => p.patch(`/agents/${agent.id}/policy`, body as object);
    expect(fieldsOf(expectError(await patch({}), 400, 'INVALID_INPUT'))).toEqual(['body']);
    expect(
      fieldsOf(
        expectError(
          await patch({
            permissions: 'VIEW_TRANSACTIONS',
            defaultExecutionMode: null,
            spendingLimits: { currency: null, perTransactionLimit: null, monthlyLimit: -5 },
            unknown: 1,
          }),
          400,
          'INVALID_INPUT',
        ),
      ),
    ).toEqual([
      'defaultExecutionMode',
      'permissions',
      'spendingLimits.currency',
      'spendingLimits.monthlyLimit',
      'spendingLimits.perTransactionLimit',
      'unknown',
    ]);
    expect(fieldsOf(expectError(await patch({ approvalThresholds: { amount: 5 } }), 400, 'INVALID_INPUT'))).toEqual([
      'approvalThresholds.currency',
    ]);
    const foreignAccount = await customerAccount(p, (await newCustomer(p)).id);
    expect(
      fieldsOf(
        expectError(
          await patch({ accountRestrictions: { allowedAccountIds: [foreignAccount.id] } }),
          400,
          'INVALID_INPUT',
        ),
      ),
    ).toEqual(['accountRestrictions.allowedAccountIds.0']);
    // Nothing changed.
    expect((await p.get(`/agents/${agent.id}`)).body.policy).toEqual(agent.policy);
  });
});

describe('usage', () => {
  it('GET shows the counters reset once a UTC day or month has passed since they were counted', async () => {
    const p = await TestPlatform.create(t);
    clock.set(new Date('2026-05-31T12:00:00.000Z'));
    const { agent } = await newAgent(p);
    const ds = t.app.get(DataSource);
    const uuid = agent.id.slice('Agent:'.length);
    // As the quote executor leaves them after spending today (31 May).
    await ds.query(
      `UPDATE agents SET daily_transaction_count = 2, daily_spend = 700, monthly_spend = 900 WHERE id = $1`,
      [uuid],
    );
    const usage = async () => (await p.get(`/agents/${agent.id}`)).body.usage as unknown;
    clock.set(new Date('2026-05-31T23:59:59.999Z'));
    expect(await usage()).toEqual({
      dailyTransactionCount: 2,
      dailySpend: 700,
      monthlySpend: 900,
      dailyResetDate: '2026-06-01',
      monthlyResetMonth: '2026-06',
    });
    clock.set(new Date('2026-06-01T00:00:00.000Z')); // a new UTC day and month
    expect(await usage()).toEqual({
      dailyTransactionCount: 0,
      dailySpend: 0,
      monthlySpend: 0,
      dailyResetDate: '2026-06-02',
      monthlyResetMonth: '2026-07',
    });
    // A new day in the same month keeps the monthly counter.
    await ds.query(
      `UPDATE agents SET daily_transaction_count = 1, daily_spend = 50, monthly_spend = 950,
         daily_reset_date = '2026-06-02', monthly_reset_month = '2026-07' WHERE id = $1`,
      [uuid],
    );
    clock.set(new Date('2026-06-02T08:00:00.000Z'));
    expect(await usage()).toEqual({
      dailyTransactionCount: 0,
      dailySpend: 0,
      monthlySpend: 950,
      dailyResetDate: '2026-06-03',
      monthlyResetMonth: '2026-07',
    });
  });
});
