/* eslint-disable @typescript-eslint/no-explicit-any -- rendered bodies are walked at any depth */
import fc from 'fast-check';
import { newAgent } from '../support/agents.js';
import { customerAccount, newCustomer } from '../support/fixtures.js';
import { startTestApp, TestApp, TestPlatform, V } from '../support/test-app.js';

// Random bodies at POST /agents and PATCH /agents/{id}/policy never give a 5xx, every non-2xx has
// the error shape, and whatever was stored always renders with the spec's defaults.
let t: TestApp;
let p: TestPlatform;
let customerId: string;
let accountId: string;
let agentId: string;
beforeAll(async () => {
  t = await startTestApp();
  p = await TestPlatform.create(t);
  const customer = await newCustomer(p);
  customerId = customer.id;
  accountId = (await customerAccount(p, customerId)).id;
  agentId = (await newAgent(p, { customer })).agent.id;
});
afterAll(() => t.close());

const RUNS = Number(process.env.AGENTS_PROPERTY_RUNS ?? 120);
const PERMISSIONS = ['VIEW_TRANSACTIONS', 'CREATE_QUOTES', 'EXECUTE_QUOTES', 'MANAGE_EXTERNAL_ACCOUNTS'];
const MODES = ['AUTO', 'APPROVAL_REQUIRED'];

/** Values the policy's members might meet: valid ones, edges and junk. */
const anyValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(0, -1, 1.5, 9007199254740991, 9007199254740992, 1e308, '', 'USD', 'usd', null, [], {}, [[]]),
    fc.constantFrom(...PERMISSIONS, ...MODES, 'Customer:nope', '__proto__', 'constructor'),
    fc.subarray([...PERMISSIONS, 'FLY', 1]),
    theAccount(),
  );

/** The customer's account (known only once beforeAll ran: read when a value is generated). */
const theAccount = () => fc.constant(null).map(() => accountId);

/** Mostly a valid value, sometimes anything. */
const mostly = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: anyValue() });
/** Always a valid value. */
const always = <T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> => valid;

/**
 * Policies built from valid members (`always`), or with some members replaced by anything
 * (`mostly`); the hostile ones also carry unknown members now and then.
 */
function policyOf(member: typeof mostly, hostile: boolean) {
  const limits = fc.record(
    {
      currency: member(fc.constantFrom('USD', 'EUR', 'USDC')),
      perTransactionLimit: member(fc.nat({ max: 1e9 })),
      dailyLimit: member(fc.option(fc.nat())),
      dailyTransactionLimit: member(fc.nat({ max: 100 })),
      monthlyLimit: member(fc.option(fc.nat())),
      ...(hostile ? { junk: anyValue() } : {}),
    },
    { requiredKeys: ['currency', 'perTransactionLimit'] },
  );
  const rule = fc.record(
    {
      accountId: member(theAccount()),
      executionMode: member(fc.constantFrom(...MODES)),
      perTransactionLimit: member(fc.option(fc.nat())),
    },
    { requiredKeys: hostile ? [] : ['accountId'] },
  );
  return fc.record(
    {
      permissions: member(fc.subarray(PERMISSIONS)),
      defaultExecutionMode: member(fc.constantFrom(...MODES)),
      spendingLimits: member(limits),
      accountRestrictions: member(
        fc.record(
          {
            allowedAccountIds: member(
              fc.oneof(
                theAccount().map((id) => [id]),
                fc.constantFrom(null, []),
              ),
            ),
            accountRules: member(fc.array(member(rule), { maxLength: 1 })),
          },
          { requiredKeys: [] },
        ),
      ),
      approvalThresholds: member(
        fc.record(
          { currency: member(fc.constant('USD')), amount: member(fc.option(fc.nat())) },
          { requiredKeys: hostile ? [] : ['currency'] },
        ),
      ),
    },
    { requiredKeys: hostile ? [] : ['spendingLimits'] },
  );
}
const policy = fc.oneof(policyOf(always, false), policyOf(mostly, true));

const createBody = fc.oneof(
  { weight: 6, arbitrary: fc.record({ name: fc.constant('prop'), customerId: fc.constant('x'), policy }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('name', 'customerId', 'policy', 'x'), anyValue()) },
);

/** The spec's defaults hold on every rendered policy (`sent`: the accepted request's policy or patch). */
function expectDefaults(rendered: Record<string, any>, sent: unknown, created: boolean): void {
  expect(rendered.permissions[0]).toBe('VIEW_TRANSACTIONS');
  expect(new Set(rendered.permissions).size).toBe(rendered.permissions.length);
  for (const p of rendered.permissions) expect(PERMISSIONS).toContain(p);
  expect(MODES).toContain(rendered.defaultExecutionMode);
  expect(typeof rendered.spendingLimits.currency).toBe('string');
  expect(Number.isInteger(rendered.spendingLimits.perTransactionLimit)).toBe(true);
  for (const key of ['dailyLimit', 'monthlyLimit'])
    expect(rendered.spendingLimits[key] === null || Number.isInteger(rendered.spendingLimits[key])).toBe(true);
  for (const r of rendered.accountRestrictions?.accountRules ?? []) {
    expect(MODES).toContain(r.executionMode);
    expect(r).toHaveProperty('perTransactionLimit');
  }
  const s = sent as Record<string, any> | undefined;
  if (created && s && s.defaultExecutionMode === undefined) expect(rendered.defaultExecutionMode).toBe('AUTO');
  if (s && Array.isArray(s.permissions) && s.permissions.length === 0)
    expect(rendered.permissions).toEqual(['VIEW_TRANSACTIONS']);
  const sentRules = s?.accountRestrictions?.accountRules as Array<Record<string, unknown>> | undefined;
  sentRules?.forEach((r, i) => {
    if (r.executionMode === undefined) expect(rendered.accountRestrictions.accountRules[i].executionMode).toBe('AUTO');
  });
}

function expectErrorShape(res: { status: number; body: any }): void {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(typeof res.body.code).toBe('string');
  expect(typeof res.body.reason).toBe('string');
}

it('POST /agents: never a 5xx; a created agent renders its policy with the defaults, also when read back', async () => {
  let created = 0;
  await fc.assert(
    fc.asyncProperty(createBody, async (body) => {
      if (
        body &&
        typeof body === 'object' &&
        !Array.isArray(body) &&
        (body as Record<string, unknown>).customerId === 'x'
      )
        (body as Record<string, unknown>).customerId = customerId;
      const res = await t.http
        .post(`${V}/agents`)
        .set('Authorization', p.authorization)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      if (res.status !== 201) return expectErrorShape(res);
      created++;
      const sent = (body as { policy: unknown }).policy;
      expectDefaults(res.body.agent.policy, sent, true);
      const read = await p.get(`/agents/${res.body.agent.id}`);
      expect(read.body.policy).toEqual(res.body.agent.policy);
    }),
    { numRuns: RUNS },
  );
  // The generator reaches valid bodies too (not only 400s).
  expect(created).toBeGreaterThan(0);
});

it('PATCH /agents/{id}/policy: never a 5xx; the stored policy always renders with the defaults, unchanged by a refused patch', async () => {
  let accepted = 0;
  const patchBody = fc.oneof({ weight: 4, arbitrary: policy }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) });
  await fc.assert(
    fc.asyncProperty(patchBody, async (body) => {
      const before = (await p.get(`/agents/${agentId}`)).body.policy;
      const res = await t.http
        .patch(`${V}/agents/${agentId}/policy`)
        .set('Authorization', p.authorization)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      const after = (await p.get(`/agents/${agentId}`)).body.policy;
      if (res.status !== 200) {
        expectErrorShape(res);
        expect(after).toEqual(before);
      } else {
        accepted++;
        expect(res.body.policy).toEqual(after);
      }
      expectDefaults(after, res.status === 200 ? body : undefined, false);
    }),
    { numRuns: RUNS },
  );
  expect(accepted).toBeGreaterThan(0);
});

it('a policy PATCH that sends an empty permission list, or omits modes, still renders the defaults', async () => {
  const res = await p.patch(`/agents/${agentId}/policy`, {
    permissions: [],
    accountRestrictions: { accountRules: [{ accountId }] },
  });
  expect(res.status).toBe(200);
  expect(res.body.policy.permissions).toEqual(['VIEW_TRANSACTIONS']);
  expect(res.body.policy.accountRestrictions.accountRules[0].executionMode).toBe('AUTO');
});
