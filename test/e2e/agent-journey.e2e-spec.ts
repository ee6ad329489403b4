import { customerExternalAccount, Json, quoteBody } from '../support/agent-quotes.js';
import { AgentClient, redeem } from '../support/agents.js';
import { signedSubscriber, stopSubscribers } from '../support/events.js';
import { customerAccount, kycApprovedCustomer } from '../support/fixtures.js';
import { isolatedDatabase, IsolatedDatabase } from '../support/isolated-database.js';
import { startTestApp, TestApp } from '../support/test-app.js';

/**
 * The whole agent journey over HTTP, as a platform and its agent software live it: create the
 * agent, install it (redeem the device code), the agent quotes and executes, the action waits for
 * approval, the platform hears of it by a signed webhook at a real receiver, and approves (or
 * rejects). The worker runs on a database of this file's own.
 */
let db: IsolatedDatabase;
let t: TestApp;
beforeAll(async () => {
  db = await isolatedDatabase();
  t = await startTestApp({}, { databaseUrl: db.url });
});
afterAll(async () => {
  await t.close();
  await stopSubscribers();
  await db.close();
});

/** Up to the pending action: a subscribed platform, an installed agent, a funded account, a quote executed. */
async function journeyToPending() {
  // Every webhook delivered is checked for both signatures, as a receiver would.
  const { p, deliver } = await signedSubscriber(t);

  // 1. The platform creates the agent for its customer.
  const customer = await kycApprovedCustomer(p);
  const created = await p.post('/agents', {
    name: 'Bill payer',
    customerId: customer.id,
    policy: {
      permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      spendingLimits: { currency: 'USD', perTransactionLimit: 100_000, dailyLimit: 200_000 },
    },
  });
  expect(created.status).toBe(201);
  const { agent, deviceCode } = created.body as { agent: Json; deviceCode: { code: string } };

  // 2. The agent software installs itself with the device code.
  const redeemed = await redeem(p, deviceCode.code);
  expect(redeemed.status).toBe(200);
  const client = new AgentClient(p, agent.id as string, (redeemed.body as { accessToken: string }).accessToken);

  // 3. Money to spend, and somewhere to send it.
  const account = await customerAccount(p, customer.id);
  expect((await p.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 80_000 })).status).toBe(200);
  const payee = await customerExternalAccount(p, customer);

  // 4. The agent quotes and executes: the policy asks for approval.
  const quote = await client.post('/agents/me/quotes', quoteBody(account.id, payee, 30_000));
  expect(quote.status).toBe(201);
  const executed = await client.post(`/agents/me/quotes/${(quote.body as Json).id}/execute`);
  expect(executed.status).toBe(200);
  const action = executed.body as Json;
  expect(action).toMatchObject({ status: 'PENDING_APPROVAL', agentId: agent.id, quote: quote.body });

  // 5. The platform hears of it: a signed AGENT_ACTION.PENDING_APPROVAL carrying the action.
  const got = await deliver();
  const webhook = got.find((w) => w.body.type === 'AGENT_ACTION.PENDING_APPROVAL');
  expect(webhook?.body.data).toEqual(action);
  // Each aggregate's events in order; across aggregates in any order.
  expect(got.map((w) => w.body.type).sort()).toEqual([
    'AGENT_ACTION.PENDING_APPROVAL',
    'CUSTOMER.KYC_APPROVED',
    'INTERNAL_ACCOUNT.BALANCE_UPDATED',
  ]);

  const path = `/agents/${agent.id}/actions/${action.id}`;
  return { p, client, deliver, agent, account, action, path };
}

describe('agent journey', () => {
  it('create, install, quote, execute, pending, webhook, approve: the money moves and the agent sees it', async () => {
    const j = await journeyToPending();
    // 6. The platform finds it among its approvals and approves it.
    expect((await j.p.get('/agents/approvals')).body.data).toEqual([j.action]);
    const approved = await j.p.post(`${j.path}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'APPROVED',
      // A payout to an external account: on the rail (PENDING) once the money left the account.
      transaction: { status: 'PENDING', sentAmount: { amount: 30_000 }, agentId: j.agent.id },
    });
    expect((await customerAccount(j.p, j.agent.customerId as string)).balance.amount).toBe(50_000);
    // The debit is announced like every ledger movement, and the payout like every payment, signed.
    const got = await j.deliver();
    expect(
      got
        .map((w): unknown[] => [w.body.type, (w.body.data as { balance?: { amount: number } }).balance?.amount])
        .sort(),
    ).toEqual([
      ['INTERNAL_ACCOUNT.BALANCE_UPDATED', 50_000],
      ['OUTGOING_PAYMENT.PENDING', undefined],
    ]);
    // 7. The agent polls its action and sees the outcome, its transaction and its usage.
    expect((await j.client.get(`/agents/me/actions/${j.action.id}`)).body).toEqual(approved.body);
    expect((await j.client.get('/agents/me/transactions')).body.data).toEqual([approved.body.transaction]);
    expect((await j.client.get('/agents/me')).body.usage).toMatchObject({
      dailySpend: 30_000,
      dailyTransactionCount: 1,
    });
    expect((await j.p.get('/agents/approvals')).body.totalCount).toBe(0);
  });

  it('the same journey rejected: nothing moves, the agent sees the reason', async () => {
    const j = await journeyToPending();
    const rejected = await j.p.post(`${j.path}/reject`, { reason: 'Not this vendor' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'Not this vendor' });
    expect(rejected.body).not.toHaveProperty('transaction');
    expect(await j.deliver()).toEqual([]);
    expect((await customerAccount(j.p, j.agent.customerId as string)).balance.amount).toBe(80_000);
    expect((await j.client.get(`/agents/me/actions/${j.action.id}`)).body).toEqual(rejected.body);
    expect((await j.client.get('/agents/me')).body.usage).toMatchObject({ dailySpend: 0, dailyTransactionCount: 0 });
  });
});
