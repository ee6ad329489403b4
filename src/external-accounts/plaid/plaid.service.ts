import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { noteAuditResource } from '../../audit/audit-trail.js';
import { Clock, later } from '../../common/clock.js';
import { formatId, parseId } from '../../common/ids.js';
import { CustomersService } from '../../customers/customers.service.js';
import { TransactionService } from '../../database/transaction.service.js';
import { ApiError } from '../../errors/api-error.js';
import { fieldError } from '../../errors/field-error.js';
import { invalidInput } from '../../errors/validation-errors.js';
import type { ExternalAccount } from '../external-account.dto.js';
import { ExternalAccountEntity } from '../external-account.entity.js';
import { ExternalAccountsService } from '../external-accounts.service.js';
import { PlaidClient, type PlaidBankAccount } from './plaid-client.js';
import type { PlaidCreateLinkTokenRequest, PlaidSubmitPublicTokenRequest } from './plaid.dto.js';
import { PlaidLinkTokenEntity } from './plaid-link-token.entity.js';

/** Plaid Link tokens last 4 hours (Plaid's default), counted on the platform's clock. */
export const PLAID_LINK_TOKEN_TTL_MS = 4 * 60 * 60 * 1000;

/**
 * Bank accounts linked through Plaid (the SDK's `plaid.createLinkToken` and
 * `plaid.submitPublicToken`): a Link token for one customer, then the callback with the public
 * token Plaid Link returned, which creates the customer's `USD_ACCOUNT` from the account Plaid
 * verified (its ACH numbers and owner): ACTIVE at once (Plaid's Auth stands in for the micro-entry)
 * and `beneficiaryVerificationStatus: MATCHED` with the owner's name in `beneficiaryVerifiedData`.
 * A Link token is used once and expires on the platform's `Clock`.
 */
@Injectable()
export class PlaidService {
  constructor(
    private readonly tx: TransactionService,
    private readonly customers: CustomersService,
    private readonly accounts: ExternalAccountsService,
    private readonly plaid: PlaidClient,
    private readonly clock: Clock,
  ) {}

  async createLinkToken(
    platformId: string,
    body: PlaidCreateLinkTokenRequest,
  ): Promise<{ linkToken: string; expiration: string; requestId?: string }> {
    const customerId = parseId('Customer', body.customerId)!;
    // Plaid first, then one transaction (the request's audit event is written by its first commit).
    const created = await this.plaid.createLinkToken({ clientUserId: body.customerId });
    return this.tx.run(async (m) => {
      await this.customers.requireActive(m, platformId, customerId);
      noteAuditResource(body.customerId);
      const now = this.clock.now();
      const expiresAt = later(now, PLAID_LINK_TOKEN_TTL_MS);
      await m.insert(PlaidLinkTokenEntity, {
        linkToken: created.linkToken,
        platformId,
        customerId,
        expiresAt,
        externalAccountId: null,
        createdAt: now,
      });
      return {
        linkToken: created.linkToken,
        expiration: expiresAt.toISOString(),
        ...(created.requestId ? { requestId: created.requestId } : {}),
      };
    });
  }

  /**
   * 404 NOT_FOUND for a Link token this platform did not create; 409 CONFLICT once it was used
   * (`details.externalAccountId`); 400 INVALID_INPUT when it expired or Plaid rejects the public
   * token or account.
   */
  async submitPublicToken(
    platformId: string,
    linkToken: string,
    body: PlaidSubmitPublicTokenRequest,
  ): Promise<ExternalAccount> {
    // Checked before Plaid is called, outside a transaction (no lock, nothing recorded yet); again below, locked.
    await this.usableLinkToken(this.tx.manager, platformId, linkToken, false);
    const exchanged = await this.plaid.exchangePublicToken(body.publicToken);
    if (!exchanged) throw invalidInput([fieldError('publicToken', 'Plaid did not accept this public token')]);
    const bank = await this.plaid.getAccount(exchanged.accessToken, body.accountId);
    if (!bank) throw invalidInput([fieldError('accountId', 'no such depository account in this Plaid item')]);
    return this.tx.run(async (m) => {
      const token = await this.usableLinkToken(m, platformId, linkToken);
      const account = await this.accounts.createForCustomer(platformId, {
        customerId: formatId('Customer', token.customerId),
        currency: 'USD',
        accountInfo: usdAccountInfo(bank),
      });
      const id = parseId('ExternalAccount', account.id)!;
      const verified = { fullName: bank.owner.fullName };
      await m.update(
        ExternalAccountEntity,
        { id, platformId },
        {
          status: 'ACTIVE',
          bankValidation: 'VALIDATED',
          bankValidationDueAt: null,
          beneficiaryVerificationStatus: 'MATCHED',
          beneficiaryVerifiedData: verified,
        },
      );
      await m.update(PlaidLinkTokenEntity, { linkToken, platformId }, { externalAccountId: id });
      noteAuditResource(account.id);
      noteAuditResource(formatId('Customer', token.customerId));
      return {
        ...account,
        status: 'ACTIVE',
        beneficiaryVerificationStatus: 'MATCHED',
        beneficiaryVerifiedData: verified,
      };
    });
  }

  private async usableLinkToken(
    m: EntityManager,
    platformId: string,
    linkToken: string,
    lock = true,
  ): Promise<PlaidLinkTokenEntity> {
    const token = await m.findOne(PlaidLinkTokenEntity, {
      where: { linkToken, platformId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!token) throw new ApiError('NOT_FOUND', 'No such Plaid Link token');
    if (token.externalAccountId !== null)
      throw new ApiError('CONFLICT', 'This Plaid Link token was already used', {
        details: { externalAccountId: formatId('ExternalAccount', token.externalAccountId) },
      });
    if (this.clock.now().getTime() >= token.expiresAt.getTime())
      throw invalidInput([
        fieldError('plaidLinkToken', `the Link token expired at ${token.expiresAt.toISOString()}; create a new one`),
      ]);
    return token;
  }
}

/** The reference's USD_ACCOUNT create info for a Plaid-verified account, its owner the beneficiary. */
function usdAccountInfo(bank: PlaidBankAccount): Record<string, unknown> {
  return {
    accountType: 'USD_ACCOUNT',
    accountNumber: bank.accountNumber,
    routingNumber: bank.routingNumber,
    bankAccountType: bank.subtype === 'savings' ? 'SAVINGS' : 'CHECKING',
    bankName: bank.institutionName,
    beneficiary: {
      beneficiaryType: 'INDIVIDUAL',
      fullName: bank.owner.fullName,
      address: bank.owner.address,
    },
  };
}
