import { Injectable } from '@nestjs/common';
import { TransactionService } from '../database/transaction.service.js';
import { CustomersService } from './customers.service.js';
import type { InternalAccount } from './internal-account.dto.js';
import { InternalAccountsService, renderInternalAccount } from './internal-accounts.service.js';
import { LedgerService } from './ledger.service.js';

export const SANDBOX_FUNDING = 'SANDBOX_FUNDING';

/** Test triggers that stand in for the outside world (a KYC provider, an incoming bank transfer). */
@Injectable()
export class CustomersSandboxService {
  constructor(
    private readonly tx: TransactionService,
    private readonly customers: CustomersService,
    private readonly accounts: InternalAccountsService,
    private readonly ledger: LedgerService,
  ) {}

  /**
   * Credits one of the platform's internal accounts (its own or a customer's) through the ledger.
   * A deleted customer's account receives nothing (410 CUSTOMER_DELETED).
   */
  async fund(platformId: string, accountId: string, amount: number): Promise<InternalAccount> {
    return this.tx.run(async (m) => {
      const account = await this.accounts.find(m, platformId, accountId);
      // Lock order everywhere: customer (FOR SHARE) before account (FOR UPDATE).
      if (account.customerId !== null) await this.customers.requireActive(m, platformId, account.customerId);
      const { account: funded } = await this.ledger.post(m, {
        accountId: account.id,
        amount: BigInt(amount),
        reason: SANDBOX_FUNDING,
        reference: null,
      });
      return renderInternalAccount(funded);
    });
  }
}
