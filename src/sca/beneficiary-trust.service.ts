import { Injectable } from '@nestjs/common';
import { formatId } from '../common/ids.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { ExternalAccountsService } from '../external-accounts/external-accounts.service.js';
import {
  ScaChallengesService,
  TRUST_BENEFICIARY,
  UNTRUST_BENEFICIARY,
  type ScaChallengeView,
  type ScaProof,
} from './sca-challenges.service.js';
import { ScaCustomers } from './sca-customers.js';

/**
 * Trusted beneficiaries: trust and untrust a customer's external account, each started (a
 * challenge bound to that account and that direction) and confirmed with the customer's proof.
 * The mark itself lives on the external account (ExternalAccountsService.setTrusted); deleting a
 * trusted account is 409 BENEFICIARY_TRUSTED there.
 */
@Injectable()
export class BeneficiaryTrustService {
  constructor(
    private readonly tx: TransactionService,
    private readonly accounts: ExternalAccountsService,
    private readonly customers: ScaCustomers,
    private readonly challenges: ScaChallengesService,
  ) {}

  async start(platformId: string, accountId: string, trust: boolean): Promise<{ scaChallenge: ScaChallengeView }> {
    return this.tx.run(async (m) => {
      const account = await this.accounts.findCustomerAccount(m, platformId, accountId);
      const customer = await this.customers.findScaCustomer(m, platformId, account.customerId!);
      if (Boolean(account.trustedAt) === trust)
        throw new ApiError(
          'CONFLICT',
          `External account ${formatId('ExternalAccount', accountId)} is already ${trust ? 'trusted' : 'not trusted'}`,
        );
      const passkey = this.challenges.passkeyOf(await this.challenges.factors(m, customer));
      const { view } = await this.challenges.issue(
        m,
        customer,
        this.target(accountId, trust),
        passkey ? 'PASSKEY' : 'SMS_OTP',
      );
      return { scaChallenge: view };
    });
  }

  async confirm(
    platformId: string,
    accountId: string,
    trust: boolean,
    challengeId: string | null,
    proof: ScaProof,
  ): Promise<{ trusted: boolean }> {
    return this.challenges.authorize(
      async (m) => {
        const account = await this.accounts.findCustomerAccount(m, platformId, accountId);
        const customer = await this.customers.findScaCustomer(m, platformId, account.customerId!);
        return { customer, target: this.target(accountId, trust), challengeId };
      },
      proof,
      async (m) => {
        const account = await this.accounts.findCustomerAccount(m, platformId, accountId);
        if (Boolean(account.trustedAt) !== trust) await this.accounts.setTrusted(m, account, trust);
        return { trusted: trust };
      },
    );
  }

  private target(accountId: string, trust: boolean) {
    const subject = formatId('ExternalAccount', accountId);
    return { purpose: trust ? TRUST_BENEFICIARY : UNTRUST_BENEFICIARY, subject, binding: subject };
  }
}
