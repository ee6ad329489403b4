import { Injectable } from '@nestjs/common';
import { TransactionService } from '../database/transaction.service.js';
import { CustomersService } from '../customers/customers.service.js';
import type { InternalAccount } from '../customers/internal-account.dto.js';
import { InternalAccountsService, renderInternalAccount } from '../customers/internal-accounts.service.js';
import { LedgerService, systemAccount } from './ledger.service.js';

export const SANDBOX_FUNDING = 'SANDBOX_FUNDING';

/** The sandbox's source of money: an incoming bank transfer stands in as a movement from SANDBOX_FUNDING. */
@Injectable()
export class LedgerSandboxService {
  constructor(
    private readonly tx: TransactionService,
    private readonly customers: CustomersService,
    private readonly accounts: InternalAccountsService,
    private readonly ledger: LedgerService,
  ) {}

  /**
   * Credits one of the platform's internal accounts (its own or a customer's) from the platform's
   * SANDBOX_FUNDING account (the ledger's source of sandbox money).
   * A deleted customer's account receives nothing (410 CUSTOMER_DELETED).
   */
  async fund(platformId: string, accountId: string, amount: number): Promise<InternalAccount> {
    return this.tx.run(async (m) => {
      const account = await this.accounts.find(m, platformId, accountId);
      // Lock order everywhere: customer (FOR SHARE) before account (FOR UPDATE).
      if (account.customerId !== null) await this.customers.requireActive(m, platformId, account.customerId);
      const {
        accounts: [funded],
      } = await this.ledger.transfer(m, {
        lines: [
          { account: systemAccount('SANDBOX_FUNDING', platformId, account.currency), amount: -BigInt(amount) },
          { account: { internalAccountId: account.id }, amount: BigInt(amount) },
        ],
        reason: SANDBOX_FUNDING,
        reference: null,
      });
      return renderInternalAccount(funded);
    });
  }
}
