import { DEFAULT_CARD_PROGRAM } from '../../src/platform-config/card-program.js';
import { formatId, newUuid, parseId } from '../../src/common/ids.js';
import { CardsRepository } from '../../src/cards/cards.repository.js';
import type { CardStatus } from '../../src/cards/card.types.js';
import { TransactionService } from '../../src/database/transaction.service.js';
import { fundedAccount } from './fixtures.js';
import type { Customer, InternalAccount } from './fixtures.js';
import type { TestApp, TestPlatform } from './test-app.js';

export interface TestCard {
  id: string;
  customer: Customer;
  account: InternalAccount;
}

/**
 * A card of a KYC-approved customer whose USD account holds `funds`, in `status` (ACTIVE by
 * default) with the given limits. Written through CardsRepository: these tests are about what
 * happens after issuance.
 */
export async function cardWithFunds(
  t: TestApp,
  p: TestPlatform,
  funds: number,
  options: {
    status?: CardStatus;
    maxSpendPerTransaction?: number;
    maxSpendPerDay?: number;
    maxTransactionsPerDay?: number;
  } = {},
): Promise<TestCard> {
  const { customer, account } = await fundedAccount(p, funds);
  const id = newUuid();
  const now = new Date('2026-01-01T00:00:00Z');
  await t.app.get(TransactionService).run((m) =>
    t.app.get(CardsRepository).insert(m, {
      id,
      platformId: parseId('Platform', p.platformId)!,
      customerId: parseId('Customer', customer.id)!,
      platformCardId: `card_${id}`,
      status: options.status ?? 'ACTIVE',
      statusReason: options.status === 'CLOSED' ? 'CLOSED_BY_PLATFORM' : null,
      form: 'VIRTUAL',
      brand: 'VISA',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
      currency: 'USD',
      fundingSourceId: parseId('InternalAccount', account.id)!,
      fundingDetachedAt: options.status === 'CLOSED' ? now : null,
      cardCapabilities: DEFAULT_CARD_PROGRAM.cardCapabilities,
      maxSpendPerTransaction: options.maxSpendPerTransaction?.toString() ?? null,
      maxSpendPerDay: options.maxSpendPerDay?.toString() ?? null,
      maxTransactionsPerDay: options.maxTransactionsPerDay ?? null,
      processorRef: null,
      issuerRef: null,
      provisioningDueAt: null,
      provisioningOutcome: null,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return { id: formatId('Card', id), customer, account };
}

/** The body of a simulated authorization. */
export const authorization = (amount: number, descriptor = 'BLUE BOTTLE COFFEE SF') => ({
  amount,
  currency: { code: 'USD' },
  merchant: { descriptor, mcc: '5814', country: 'US' },
});
