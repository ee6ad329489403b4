import type { CardStatus } from '../../src/cards/card.types.js';
import { activeCard, issuedCard, provisioned, statusChange } from './cards.js';
import { fundedAccount } from './fixtures.js';
import type { Customer, InternalAccount } from './fixtures.js';
import type { TestPlatform } from './test-app.js';

export interface TestCard {
  id: string;
  customer: Customer;
  account: InternalAccount;
}

function ok(res: { status: number; body: unknown }, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * A card issued through the API (limits at issuance) to a KYC-approved customer whose USD account,
 * its funding source, holds `funds`; brought to `status` (ACTIVE by default) as a platform would:
 * PROCESSING is left unprovisioned, PENDING_KYC is provisioned while the holder's KYC is PENDING,
 * FROZEN and CLOSED are PATCHed.
 */
export async function cardWithFunds(
  p: TestPlatform,
  funds: number,
  options: {
    status?: CardStatus;
    maxSpendPerTransaction?: number;
    maxSpendPerDay?: number;
    maxTransactionsPerDay?: number;
  } = {},
): Promise<TestCard> {
  const { status = 'ACTIVE', ...limits } = options;
  const { customer, account } = await fundedAccount(p, funds);
  if (status === 'PROCESSING' || status === 'PENDING_KYC') {
    const { card } = await issuedCard(p, { customer, extra: limits });
    if (status === 'PENDING_KYC') {
      ok(await p.post(`/sandbox/customers/${customer.id}/kyc`, { kycStatus: 'PENDING' }), 200, 'KYC PENDING');
      const waiting = await provisioned(p, card.id);
      if (waiting.status !== 'PENDING_KYC') throw new Error(`expected PENDING_KYC, got ${waiting.status}`);
    }
    return { id: card.id, customer, account };
  }
  const { card } = await activeCard(p, { customer, extra: limits });
  if (status === 'FROZEN' || status === 'CLOSED')
    ok(await p.patch(`/cards/${card.id}`, statusChange(status)), 200, `PATCH status ${status}`);
  return { id: card.id, customer, account };
}

/** The body of a simulated authorization. */
export const authorization = (amount: number, descriptor = 'BLUE BOTTLE COFFEE SF') => ({
  amount,
  currency: { code: 'USD' },
  merchant: { descriptor, mcc: '5814', country: 'US' },
});
