var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { TransactionService } from '../database/transaction.service.js';
import { CustomersService } from './customers.service.js';
import { InternalAccountsService, renderInternalAccount } from './internal-accounts.service.js';
import { LedgerService } from './ledger.service.js';
export const SANDBOX_FUNDING = 'SANDBOX_FUNDING';
/** Test triggers that stand in for the outside world (a KYC provider, an incoming bank transfer). */
let CustomersSandboxService = class CustomersSandboxService {
    tx;
    customers;
    accounts;
    ledger;
    constructor(tx, customers, accounts, ledger) {
        this.tx = tx;
        this.customers = customers;
        this.accounts = accounts;
        this.ledger = ledger;
    }
    /**
     * Credits one of the platform's internal accounts (its own or a customer's) through the ledger.
     * A deleted customer's account receives nothing (410 CUSTOMER_DELETED).
     */
    async fund(platformId, accountId, amount) {
        return this.tx.run(async (m) => {
            const account = await this.accounts.find(m, platformId, accountId);
            // Lock order everywhere: customer (FOR SHARE) before account (FOR UPDATE).
            if (account.customerId !== null)
                await this.customers.requireActive(m, platformId, account.customerId);
            const { account: funded } = await this.ledger.post(m, {
                accountId: account.id,
                amount: BigInt(amount),
                reason: SANDBOX_FUNDING,
                reference: null,
            });
            return renderInternalAccount(funded);
        });
    }
};
CustomersSandboxService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [TransactionService,
        CustomersService,
        InternalAccountsService,
        LedgerService])
], CustomersSandboxService);
export { CustomersSandboxService };
//# sourceMappingURL=customers-sandbox.service.js.map