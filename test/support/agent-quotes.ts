import type { AgentClient } from './agents.js';
import { agentPolicy, installedAgent } from './agents.js';
import type { Customer } from './fixtures.js';
import type { TestPlatform } from './test-app.js';

/** A Quote or AgentAction as the API renders it (the members tests look at). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read members at any depth
export type Json = Record<string, any>;

/** A same-currency quote body from `source` to `destination` for `amount` (sending side locked). */
export function quoteBody(source: string, destination: string, amount: number, extra: Record<string, unknown> = {}) {
  return {
    source: { sourceType: 'ACCOUNT', accountId: source },
    destination: { destinationType: 'ACCOUNT', accountId: destination },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
    ...extra,
  };
}

/** A USD external account of `customer` (the platform registers it), for quote destinations. */
export async function customerExternalAccount(p: TestPlatform, customer: Customer): Promise<string> {
  const res = await p.post(`/customers/external-accounts`, {
    customerId: customer.id,
    currency: 'USD',
    accountInfo: {
      accountType: 'USD_ACCOUNT',
      accountNumber: String(Math.floor(Math.random() * 1e11)).padStart(11, '1'),
      routingNumber: '123456789',
      bankAccountType: 'CHECKING',
      bankName: 'Chase Bank',
      beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'John Doe', birthDate: '1990-01-15', nationality: 'US' },
    },
  });
  if (res.status !== 201) throw new Error(`external account: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { id: string }).id;
}

/**
 * An installed agent (policy: `agentPolicy(policy)`) whose customer's USD account holds `funds`,
 * with a USD external account of the same customer to pay into; `quote(amount)` creates a quote
 * from the account to it and answers its body.
 */
export async function spendingAgent(p: TestPlatform, policy: Record<string, unknown> = {}, funds = 1_000_000) {
  const installed = await installedAgent(p, { policy: agentPolicy(policy) });
  if (funds > 0) {
    const res = await p.post(`/sandbox/internal-accounts/${installed.accountId}/fund`, { amount: funds });
    if (res.status !== 200) throw new Error(`fund: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const externalAccountId = await customerExternalAccount(p, installed.customer);
  const quote = async (amount: number, client: AgentClient = installed.client): Promise<Json> => {
    const res = await client.post('/agents/me/quotes', quoteBody(installed.accountId, externalAccountId, amount));
    if (res.status !== 201) throw new Error(`quote: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Json;
  };
  const balance = async (): Promise<number> =>
    ((await p.get(`/customers/internal-accounts?customerId=${installed.customer.id}&currency=USD`)).body as Json)
      .data[0].balance.amount as number;
  return { ...installed, externalAccountId, quote, balance };
}
