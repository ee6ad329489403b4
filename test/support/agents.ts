import { customerAccount, newCustomer } from './fixtures.js';
import type { Customer } from './fixtures.js';
import { TestPlatform, V } from './test-app.js';

/** A valid policy body for POST /agents (the spec's minimum: spendingLimits.currency and perTransactionLimit). */
export function agentPolicy(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    permissions: ['CREATE_QUOTES', 'EXECUTE_QUOTES'],
    spendingLimits: { currency: 'USD', perTransactionLimit: 50000, dailyLimit: 500000, monthlyLimit: 5000000 },
    ...overrides,
  };
}

/** An agent as the API renders it (the members tests look at). */
export interface Agent {
  id: string;
  name: string;
  customerId: string;
  isPaused: boolean;
  isConnected: boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read members at any depth
  policy: Record<string, any>;
  usage: {
    dailyTransactionCount: number;
    dailySpend: number;
    monthlySpend: number;
    dailyResetDate: string;
    monthlyResetMonth: string;
  };
  createdAt: string;
  updatedAt: string;
}

export interface DeviceCode {
  code: string;
  agentId: string;
  expiresAt: string;
  redeemed: boolean;
}

/** A new agent of `customer` (a new customer when omitted) with `policy`; not installed yet. */
export async function newAgent(
  p: TestPlatform,
  options: { customer?: Customer; policy?: Record<string, unknown>; name?: string } = {},
): Promise<{ agent: Agent; deviceCode: DeviceCode; customer: Customer }> {
  const customer = options.customer ?? (await newCustomer(p));
  const res = await p.post('/agents', {
    name: options.name ?? 'Payroll agent',
    customerId: customer.id,
    policy: options.policy ?? agentPolicy(),
  });
  if (res.status !== 201) throw new Error(`create agent: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...(res.body as { agent: Agent; deviceCode: DeviceCode }), customer };
}

/** Calls the API as an agent: `Authorization: Bearer <accessToken>`. */
export class AgentClient {
  constructor(
    readonly p: TestPlatform,
    readonly agentId: string,
    readonly accessToken: string,
  ) {}

  private auth = () => `Bearer ${this.accessToken}`;

  get(path: string) {
    return this.p.t.http.get(`${V}${path}`).set('Authorization', this.auth());
  }
  post(path: string, body?: object) {
    const r = this.p.t.http.post(`${V}${path}`).set('Authorization', this.auth());
    return body === undefined ? r : r.send(body);
  }
  patch(path: string, body: object) {
    return this.p.t.http.patch(`${V}${path}`).set('Authorization', this.auth()).send(body);
  }
  delete(path: string) {
    return this.p.t.http.delete(`${V}${path}`).set('Authorization', this.auth());
  }
}

/** Redeems a device code (public route). */
export function redeem(p: TestPlatform, code: string) {
  return p.t.http.post(`${V}/agents/device-codes/${encodeURIComponent(code)}/redeem`);
}

/**
 * An installed agent: created, its device code redeemed. `account` is the customer's USD internal
 * account; `client` calls as the agent.
 */
export async function installedAgent(
  p: TestPlatform,
  options: { customer?: Customer; policy?: Record<string, unknown>; name?: string } = {},
): Promise<{ agent: Agent; customer: Customer; client: AgentClient; accountId: string }> {
  const { agent, deviceCode, customer } = await newAgent(p, options);
  const res = await redeem(p, deviceCode.code);
  if (res.status !== 200) throw new Error(`redeem: ${res.status} ${JSON.stringify(res.body)}`);
  const { accessToken } = res.body as { accessToken: string };
  const account = await customerAccount(p, customer.id);
  return { agent, customer, client: new AgentClient(p, agent.id, accessToken), accountId: account.id };
}
