import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { noteAuditResource } from '../../audit/audit-trail.js';
import { Clock } from '../../common/clock.js';
import { formatId, parseId } from '../../common/ids.js';
import type { CustomerEntity } from '../../customers/customer.entity.js';
import { TransactionService } from '../../database/transaction.service.js';
import { ApiError } from '../../errors/api-error.js';
import { ExternalAccountEntity } from '../../external-accounts/external-account.entity.js';
import {
  AUTHORIZE_PAYMENT,
  ScaChallengesService,
  type ChallengeTarget,
  type ScaFactor,
  type ScaProof,
} from '../../sca/sca-challenges.service.js';
import { ScaCustomers } from '../../sca/sca-customers.js';
import { OutgoingTransactionEntity } from '../transactions/outgoing-transaction.entity.js';
import { QuoteExecutionService } from './quote-execution.service.js';
import type { QuoteView } from './quote.dto.js';
import { QuoteEntity } from './quote.entity.js';
import { renderQuote } from './quote.render.js';
import { type RetryHeaders, WalletSignatures } from '../../embedded-wallets/wallet-signatures.service.js';
import { verifyWalletPayment } from './wallet-quote.js';

/** Finds the caller's quote (scoped to its platform/agent), locked when asked. */
export type QuoteFinder = (m: EntityManager, lock?: 'update') => Promise<QuoteEntity>;

/**
 * What a payment challenge is bound to (dynamic linking): both amounts with their currencies and
 * the payee. A challenge issued for another amount or payee does not authorize this quote.
 */
export function paymentTarget(quote: QuoteEntity): ChallengeTarget {
  return {
    purpose: AUTHORIZE_PAYMENT,
    subject: formatId('Quote', quote.id),
    binding: [
      `${quote.totalSendingAmount} ${quote.sendingCurrency}`,
      `${quote.totalReceivingAmount} ${quote.receivingCurrency}`,
      formatId(quote.destinationKind, quote.destinationAccountId),
    ].join('|'),
  };
}

const noPendingChallenge = (quote: QuoteEntity) =>
  new ApiError(
    'CONFLICT',
    `Quote ${formatId('Quote', quote.id)} has no pending SCA challenge to authorize (status ${quote.status})`,
    { details: { status: quote.status } },
  );

/**
 * SCA for quotes (docs/sca.md, "Quote authorization"): a quote whose paying customer is in an SCA
 * region waits in PENDING_AUTHORIZATION with a challenge bound to its amounts and payee, unless
 * the payee is a trusted beneficiary. An execution asked for before the authorization (execute,
 * or `immediatelyExecute`) records the transaction as PENDING_AUTHORIZATION with its
 * OUTGOING_PAYMENT.PENDING_AUTHORIZATION event and moves no money; the authorization then
 * executes it. The challenge itself (issue, proof, single use, expiry, lock) is ScaChallengesService's.
 */
@Injectable()
export class QuoteAuthorizationService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly customers: ScaCustomers,
    private readonly challenges: ScaChallengesService,
    private readonly payments: QuoteExecutionService,
    private readonly walletSignatures: WalletSignatures,
  ) {}

  /**
   * Right after a quote is stored: when its customer needs SCA and the payee is not trusted, issues
   * the challenge (`factor`, else SMS_OTP when the customer has a phone number, else an enrolled
   * passkey or TOTP) and puts the quote in PENDING_AUTHORIZATION.
   */
  async gate(m: EntityManager, quote: QuoteEntity, factor?: ScaFactor): Promise<void> {
    if (quote.customerId === null) return;
    const customer = await this.customers.find(m, quote.platformId, quote.customerId);
    if (!this.customers.requiresSca(customer) || (await this.trustedPayee(m, quote))) return;
    const { view } = await this.challenges.issue(
      m,
      customer,
      paymentTarget(quote),
      factor ?? (await this.defaultFactor(m, customer)),
    );
    quote.status = 'PENDING_AUTHORIZATION';
    quote.scaChallenge = view;
    await m.update(
      QuoteEntity,
      { id: quote.id, platformId: quote.platformId },
      { status: quote.status, scaChallenge: view },
    );
  }

  /**
   * An execution of a PENDING_AUTHORIZATION quote (locked by the caller): the first records the
   * transaction as PENDING_AUTHORIZATION (no money moves); a second is 409 CONFLICT.
   */
  async requestExecution(m: EntityManager, quote: QuoteEntity, now: Date): Promise<void> {
    if (await m.existsBy(OutgoingTransactionEntity, { id: quote.transactionId, platformId: quote.platformId }))
      throw new ApiError(
        'CONFLICT',
        `Quote ${formatId('Quote', quote.id)} is waiting for its SCA authorization: authorize it (POST /quotes/{quoteId}/authorize)`,
        { details: { status: quote.status } },
      );
    if (now >= quote.expiresAt)
      throw new ApiError(
        'QUOTE_EXPIRED',
        `Quote ${formatId('Quote', quote.id)} expired at ${quote.expiresAt.toISOString()}; request a new quote`,
      );
    await this.payments.awaitAuthorization(m, quote, now);
  }

  /**
   * `POST /quotes/{quoteId}/authorize`: checks the proof against the quote's challenge; on success
   * the quote is PENDING (executable) or, when an execution was asked for, executed in the same
   * transaction as the challenge's use.
   */
  async authorize(
    find: QuoteFinder,
    proof: ScaProof & { challengeId?: string | null },
    headers: RetryHeaders = {},
  ): Promise<QuoteView> {
    let quote!: QuoteEntity;
    let stamped = false;
    return this.challenges.authorize(
      async (m) => {
        quote = await find(m, 'update');
        noteAuditResource(formatId('Quote', quote.id));
        const customer = await this.pendingCustomer(m, quote);
        // A wallet-funded quote: a wallet signature sent with the authorization is checked first
        // (401, nothing counted); a valid one is the holder's execution of the quote.
        const sent = headers.signature !== undefined || headers.conflicting === true;
        if (quote.walletPayloadToSign !== null && sent) {
          await verifyWalletPayment(this.walletSignatures, m, headers, quote);
          stamped = true;
        }
        const challengeId = proof.challengeId ? parseId('ScaChallenge', proof.challengeId) : null;
        const ownChallenge = quote.scaChallenge ? parseId('ScaChallenge', quote.scaChallenge.id) : null;
        return { customer, target: paymentTarget(quote), challengeId: challengeId ?? ownChallenge };
      },
      proof,
      async (m) => {
        const now = this.clock.now();
        const requested = await m.findOneBy(OutgoingTransactionEntity, {
          id: quote.transactionId,
          platformId: quote.platformId,
        });
        quote.status = 'PENDING';
        quote.scaChallenge = null;
        quote.updatedAt = now;
        await m.update(
          QuoteEntity,
          { id: quote.id, platformId: quote.platformId },
          { status: 'PENDING', scaChallenge: null, updatedAt: now },
        );
        // Only an execution the wallet signed is released: a wallet-funded quote's execution is
        // recorded only after its stamp verified (QuotesService.execute), or is stamped here.
        const walletSigned = quote.walletPayloadToSign !== null && (requested !== null || stamped);
        if (requested) await this.payments.execute(m, quote, now, requested, { walletSigned });
        else if (stamped) await this.payments.execute(m, quote, now, undefined, { walletSigned });
        return renderQuote(quote, now);
      },
    );
  }

  /** `POST /quotes/{quoteId}/authorize/resend`: the SMS code again (409 for another factor). */
  async resend(find: QuoteFinder): Promise<void> {
    await this.tx.run(async (m) => {
      const quote = await find(m);
      noteAuditResource(formatId('Quote', quote.id));
      const customer = await this.pendingCustomer(m, quote);
      const challengeId = quote.scaChallenge ? parseId('ScaChallenge', quote.scaChallenge.id) : null;
      if (!challengeId) throw noPendingChallenge(quote);
      await this.challenges.resend(m, customer, challengeId);
    });
  }

  /** The quote's customer when the quote waits for its authorization; 409 otherwise. */
  private async pendingCustomer(m: EntityManager, quote: QuoteEntity): Promise<CustomerEntity> {
    if (quote.customerId === null)
      throw new ApiError('CONFLICT', "SCA is not required for a payment from the platform's own account");
    const customer = await this.customers.findScaCustomer(m, quote.platformId, quote.customerId);
    if (quote.status !== 'PENDING_AUTHORIZATION') throw noPendingChallenge(quote);
    return customer;
  }

  private async trustedPayee(m: EntityManager, quote: QuoteEntity): Promise<boolean> {
    if (quote.destinationKind !== 'ExternalAccount') return false;
    const account = await m.findOneBy(ExternalAccountEntity, {
      id: quote.destinationAccountId,
      platformId: quote.platformId,
    });
    return Boolean(account?.trustedAt);
  }

  private async defaultFactor(m: EntityManager, customer: CustomerEntity): Promise<ScaFactor> {
    if (customer.phoneNumber) return 'SMS_OTP';
    const factors = await this.challenges.factors(m, customer);
    return this.challenges.passkeyOf(factors)
      ? 'PASSKEY'
      : factors.some((f) => f.factor === 'TOTP')
        ? 'TOTP'
        : 'SMS_OTP';
  }
}
