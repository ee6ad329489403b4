import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { Clock, later } from '../../common/clock.js';
import { formatId, newUuid, parseId } from '../../common/ids.js';
import { Page, paginate } from '../../common/pagination.js';
import { whereTimeRange } from '../../common/time-range.js';
import { AppConfig } from '../../config/app-config.js';
import { currencyInfo } from '../../customers/currencies.js';
import { CustomerEntity } from '../../customers/customer.entity.js';
import { InternalAccountEntity } from '../../customers/internal-account.entity.js';
import { lockOption, RowLock } from '../../database/queries.js';
import { TransactionService } from '../../database/transaction.service.js';
import { ApiError } from '../../errors/api-error.js';
import { fieldError } from '../../errors/field-error.js';
import { invalidInput } from '../../errors/validation-errors.js';
import { ExternalAccountEntity } from '../../external-accounts/external-account.entity.js';
import { bankValidationError } from '../../external-accounts/bank-validation.js';
import { PlatformConfigService, platformFeeFor } from '../../platform-config/platform-config.service.js';
import { PaymentDocumentsService } from '../../payment-documents/payment-documents.service.js';
import { FxRatesService } from '../exchange-rates/fx-rates.service.js';
import { QuoteExecutionService } from './quote-execution.service.js';
import { QuoteAuthorizationService } from './quote-authorization.service.js';
import type { ScaProof } from '../../sca/sca-challenges.service.js';
import { type RetryHeaders, WalletSignatures } from '../../embedded-wallets/wallet-signatures.service.js';
import { verifyWalletPayment, walletPayloadOf } from './wallet-quote.js';
import { priceQuote } from '../exchange-rates/quote-pricing.js';
import type { AgentQuoteRequest, QuoteRequest, QuoteView, SandboxSendRequest } from './quote.dto.js';
import type { OutgoingTransactionView } from '../transactions/transaction.render.js';
import { DestinationKind, QuoteEntity } from './quote.entity.js';
import { renderQuote } from './quote.render.js';
import type { QuotesQuery } from './quotes-query.dto.js';
import { noteAuditResource } from '../../audit/audit-trail.js';
import { UmaDestinations, type UmaQuotePlan } from './uma-destination.js';

const accountNotFound = (id: string) => new ApiError('ACCOUNT_NOT_FOUND', `Account ${id} not found`);
export const quoteNotFound = (id: string) =>
  new ApiError('QUOTE_NOT_FOUND', `Quote ${formatId('Quote', id)} not found`);

const customerNotFound = (id: string) =>
  new ApiError('CUSTOMER_NOT_FOUND', `Customer ${formatId('Customer', id)} not found`);
const awaitingFunds = (quote: QuoteEntity) =>
  new ApiError(
    'CONFLICT',
    `Quote ${formatId('Quote', quote.id)} is funded from outside: it proceeds when the funds sent per its paymentInstructions arrive`,
    { details: { sourceType: quote.sourceType, status: quote.status } },
  );

/**
 * Who is quoting: a platform (any of its accounts), or an agent (its customer's accounts only;
 * anything else is 404 as if it did not exist).
 */
export interface QuoteScope {
  platformId: string;
  /** Restricts source and destination to this customer's accounts (an agent's customer). */
  customerId?: string;
  agentId?: string;
}

/** The public ids of the internal accounts a quote touches (an agent's policy checks them). */
export type QuoteAccountsCheck = (m: EntityManager, internalAccountIds: string[]) => Promise<void>;

/** An account a quote may pay into, resolved within the scope. */
interface Destination {
  kind: DestinationKind;
  id: string;
  currency: string;
  /** An external account still PENDING_OWNERSHIP_VERIFICATION: it may receive below the threshold only. */
  ownershipPending?: { accountId: string };
}

/**
 * What a wallet awaiting ownership verification may receive (spec: "transfers below regulatory
 * thresholds are still allowed"): below EUR 1,000 equivalent, the EU Transfer of Funds
 * Regulation's threshold for transfers to self-hosted wallets. Converted with the quote's rate
 * provider; a currency without a EUR rate counts as above it.
 */
export const OWNERSHIP_UNVERIFIED_THRESHOLD_EUR = 1000;

/** The platform's configuration row, as PlatformConfigService loads it. */
type PlatformSettings = Awaited<ReturnType<PlatformConfigService['load']>>;

/**
 * Quotes, for platforms and agents: the source is an internal account (a customer's or the
 * platform's own), the destination an internal account or a live external account. Same-currency
 * quotes carry no service fee; cross-currency ones are priced from the rate table (FxRatesService,
 * `priceQuote`); the platform's fee (`platformFeeOverride`) applies to both. A quote can be executed
 * until `expiresAt` (QUOTE_TTL_SECONDS after creation, on the platform's clock).
 */
@Injectable()
export class QuotesService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly rates: FxRatesService,
    private readonly platformConfig: PlatformConfigService,
    private readonly payments: QuoteExecutionService,
    private readonly authorization: QuoteAuthorizationService,
    private readonly paymentDocuments: PaymentDocumentsService,
    private readonly uma: UmaDestinations,
    private readonly walletSignatures: WalletSignatures,
  ) {}

  /**
   * `POST /quotes` (and an agent's quote). A platform's quote paid by a customer in an SCA region
   * waits in PENDING_AUTHORIZATION with its challenge (QuoteAuthorizationService); an
   * `immediatelyExecute` of it waits for the authorization.
   */
  async create(
    scope: QuoteScope,
    body: QuoteRequest | AgentQuoteRequest,
    check?: QuoteAccountsCheck,
  ): Promise<QuoteView> {
    // An UMA_ADDRESS destination is priced by the pay-request exchange, before the transaction opens.
    const uma =
      (body.destination as { destinationType: string }).destinationType === 'UMA_ADDRESS'
        ? await this.uma.prepare(scope, body)
        : undefined;
    return this.tx.run(async (m) => {
      const quote = await this.createIn(m, scope, body, check, 'QUOTE', false, uma);
      const now = this.clock.now();
      if (scope.agentId === undefined)
        await this.authorization.gate(m, quote, 'scaFactor' in body ? body.scaFactor : undefined);
      if ('immediatelyExecute' in body && body.immediatelyExecute === true) {
        if (quote.status === 'PENDING_AUTHORIZATION') await this.authorization.requestExecution(m, quote, now);
        else await this.payments.execute(m, quote, now);
      }
      return renderQuote(quote, now);
    });
  }

  /** `POST /quotes/{quoteId}/authorize`: the quote's SCA challenge satisfied (then executed when asked for). */
  authorize(
    scope: QuoteScope,
    quoteId: string,
    proof: ScaProof & { challengeId?: string | null },
    headers: RetryHeaders = {},
  ): Promise<QuoteView> {
    return this.authorization.authorize((m, lock) => this.scopedQuote(m, scope, quoteId, lock), proof, headers);
  }

  /**
   * The wallet holder's stamp over a wallet-funded quote's payloadToSign (401 otherwise), for the
   * callers that execute one elsewhere (an agent's execute). Nothing to check for other quotes.
   */
  async verifyWalletStamp(m: EntityManager, quote: QuoteEntity, headers: RetryHeaders): Promise<boolean> {
    if (quote.walletPayloadToSign === null) return false;
    await verifyWalletPayment(this.walletSignatures, m, headers, quote);
    return true;
  }

  /** `POST /quotes/{quoteId}/authorize/resend`: the SMS code of the quote's challenge, again. */
  resend(scope: QuoteScope, quoteId: string): Promise<void> {
    return this.authorization.resend((m, lock) => this.scopedQuote(m, scope, quoteId, lock));
  }

  /** Prices and stores a quote in the caller's transaction. */
  async createIn(
    m: EntityManager,
    scope: QuoteScope,
    body: QuoteRequest | AgentQuoteRequest,
    check?: QuoteAccountsCheck,
    origin: QuoteEntity['origin'] = 'QUOTE',
    sameCurrency = false,
    uma?: UmaQuotePlan,
  ): Promise<QuoteEntity> {
    if (
      scope.customerId !== undefined &&
      body.source.customerId !== undefined &&
      parseId('Customer', body.source.customerId) !== scope.customerId
    ) {
      throw invalidInput([fieldError('source.customerId', "must be the agent's customer (or omitted)")]);
    }
    const realtime = body.source.sourceType === 'REALTIME_FUNDING';
    let wallet = false;
    let platform: PlatformSettings | undefined;
    let payer: { id: string | null; customerId: string | null; currency: string };
    let destination: Destination;
    if (realtime) {
      if ('immediatelyExecute' in body && body.immediatelyExecute === true) {
        throw invalidInput([
          fieldError(
            'immediatelyExecute',
            'cannot be true for a REALTIME_FUNDING source: the quote proceeds when the funds arrive',
          ),
        ]);
      }
      const currency = (body.source as { currency: string }).currency;
      const customerId = body.source.customerId !== undefined ? parseId('Customer', body.source.customerId)! : null;
      if (customerId !== null) {
        const customer = await m.findOne(CustomerEntity, {
          where: { id: customerId, platformId: scope.platformId, deletedAt: IsNull() },
          select: { id: true },
        });
        if (!customer) throw customerNotFound(customerId);
      }
      platform = await this.platformConfig.load(m, scope.platformId);
      if (!platform.supportedCurrencies.some((c) => c.currencyCode === currency)) {
        throw new ApiError('INVALID_CURRENCY', `${currency} is not one of the platform's supported currencies`, {
          details: { currency },
        });
      }
      payer = { id: null, customerId, currency };
      destination = await this.destination(m, scope, body.destination.accountId!);
      await check?.(m, destination.kind === 'InternalAccount' ? [body.destination.accountId!] : []);
    } else {
      const accountId = body.source.accountId!;
      if (accountId === body.destination.accountId) {
        throw new ApiError('SELF_PAYMENT', 'The source and the destination are the same account', {
          details: { accountId },
        });
      }
      const sourceId = parseId('InternalAccount', accountId)!;
      const source = await this.internalAccount(m, scope, sourceId);
      if (!source) throw accountNotFound(accountId);
      if (source.type === 'EMBEDDED_WALLET') {
        wallet = true;
        if ('immediatelyExecute' in body && body.immediatelyExecute === true) {
          throw invalidInput([
            fieldError(
              'immediatelyExecute',
              "cannot be true for an EMBEDDED_WALLET source: create the quote, then execute it with the wallet holder's stamp over its payloadToSign",
            ),
          ]);
        }
      }
      if (
        scope.customerId === undefined &&
        body.source.customerId !== undefined &&
        parseId('Customer', body.source.customerId) !== source.customerId
      ) {
        throw accountNotFound(accountId);
      }
      payer = source;
      if (uma) {
        if (source.currency !== uma.sendingCurrency) throw accountNotFound(accountId);
        destination = { kind: 'UmaAddress', id: uma.lookupId, currency: uma.currency };
        await check?.(m, [accountId]);
      } else {
        destination = await this.destination(m, scope, body.destination.accountId!);
        await check?.(m, [accountId, ...(destination.kind === 'InternalAccount' ? [body.destination.accountId!] : [])]);
      }
    }

    const sending = currencyInfo(payer.currency);
    const receiving = currencyInfo(destination.currency);
    if (sameCurrency && sending.code !== receiving.code) {
      throw new ApiError(
        'INVALID_CURRENCY',
        `A same-currency transfer cannot pay ${sending.code} into a ${receiving.code} account: create a quote instead`,
        { details: { sendingCurrency: sending.code, receivingCurrency: receiving.code } },
      );
    }
    const override = 'platformFeeOverride' in body ? body.platformFeeOverride : undefined;
    if (override && override.platformFixedFee.currency !== sending.code) {
      throw invalidInput([
        fieldError('platformFeeOverride.platformFixedFee.currency', `must be the sending currency (${sending.code})`),
      ]);
    }
    const crossCurrency = sending.code !== receiving.code;
    const config = platform ?? (await this.platformConfig.load(m, scope.platformId));
    // The platform's own fee: the override when given (it replaces any configured one), else the
    // platform's fee config for this kind of transaction in the sending currency.
    const configured = crossCurrency
      ? platformFeeFor(config.feeConfigs, 'CROSS_CURRENCY_TRANSACTION', sending.code)
      : { fixed: 0, variableRate: 0 };
    // An UMA_ADDRESS destination is priced by the pay-request exchange (the receiver's answer).
    const rate = uma ? { multiplier: uma.price.exchangeRate } : this.rates.rate(sending.code, receiving.code);
    const price = uma
      ? uma.price
      : priceQuote({
          side: body.lockedCurrencySide,
          amount: body.lockedCurrencyAmount,
          sendingDecimals: sending.decimals,
          receivingDecimals: receiving.decimals,
          multiplier: rate.multiplier,
          crossCurrency,
          fixedFee: this.config.QUOTE_FIXED_FEE,
          variableFeeRate: this.config.QUOTE_VARIABLE_FEE_RATE,
          platformFixedFee: override ? override.platformFixedFee.amount : configured.fixed,
          platformVariableFeeRate: override ? override.platformVariableFeeBps / 10_000 : configured.variableRate,
        });
    if (!price) {
      throw new ApiError(
        'INVALID_AMOUNT',
        'lockedCurrencyAmount is too small to cover the fees, or too large to transfer',
        { details: { lockedCurrencyAmount: body.lockedCurrencyAmount } },
      );
    }
    this.checkSizeLimit(config, sending.code, price.totalSendingAmount);
    if (destination.ownershipPending)
      this.checkOwnershipThreshold(destination.ownershipPending.accountId, receiving, price.totalReceivingAmount);

    const quoteId = newUuid();
    const documentIds = await this.paymentDocuments.attach(m, scope.platformId, {
      quoteId,
      customerId: payer.customerId,
      purposeOfPayment: body.purposeOfPayment ?? null,
      documentIds: 'documentIds' in body ? body.documentIds : undefined,
    });
    const now = this.clock.now();
    const quote = m.create(QuoteEntity, {
      id: quoteId,
      platformId: scope.platformId,
      agentId: scope.agentId ?? null,
      customerId: payer.customerId,
      sourceType: realtime ? 'REALTIME_FUNDING' : 'ACCOUNT',
      sourceAccountId: payer.id,
      destinationKind: destination.kind,
      destinationAccountId: destination.id,
      destinationUmaAddress: uma?.umaAddress ?? null,
      paymentRail: body.destination.paymentRail ?? null,
      lockedCurrencySide: body.lockedCurrencySide,
      sendingCurrency: sending.code,
      receivingCurrency: receiving.code,
      totalSendingAmount: String(price.totalSendingAmount),
      totalReceivingAmount: String(price.totalReceivingAmount),
      exchangeRate: price.exchangeRate,
      feesIncluded: String(price.feesIncluded),
      platformFeesIncluded: String(price.platformFeesIncluded),
      rateDetails: price.rateDetails,
      description: body.description ?? null,
      purposeOfPayment: body.purposeOfPayment ?? null,
      documentIds,
      remittanceInformation: body.remittanceInformation ?? null,
      senderCustomerInfo: (('senderCustomerInfo' in body ? body.senderCustomerInfo : undefined) ??
        null) as QuoteEntity['senderCustomerInfo'],
      origin,
      transactionId: newUuid(),
      status: 'PENDING',
      scaChallenge: null,
      expiresAt: later(now, this.config.QUOTE_TTL_SECONDS * 1000),
      createdAt: now,
      updatedAt: now,
    });
    quote.walletPayloadToSign = wallet ? walletPayloadOf(quote) : null;
    await m.insert(QuoteEntity, quote);
    await uma?.record(m, quote);
    noteAuditResource(formatId('Quote', quote.id));
    return quote;
  }

  /**
   * `POST /quotes/{quoteId}/execute` for a platform: the executed quote. A REALTIME_FUNDING quote
   * is not executed by a call: it proceeds when its funds arrive (409 until then).
   */
  execute(scope: QuoteScope, quoteId: string, headers: RetryHeaders = {}): Promise<QuoteView> {
    return this.tx.run(async (m) => {
      // One statement locks the quote, its accounts and reads its customer; one writes everything.
      const found = await this.payments.lockQuote(m, { id: quoteId, ...scope });
      if (!found) throw quoteNotFound(quoteId);
      const { quote, locked } = found;
      if (quote.sourceType === 'REALTIME_FUNDING') throw awaitingFunds(quote);
      // An EMBEDDED_WALLET source: the holder's stamp over the quote's payloadToSign at the first
      // execute, whatever its SCA state, before anything is recorded (no stamp: 401, nothing written).
      // A PENDING_AUTHORIZATION execution is recorded only so signed; the authorization releases it.
      const walletSigned =
        quote.walletPayloadToSign !== null && (quote.status === 'PENDING' || quote.status === 'PENDING_AUTHORIZATION');
      if (walletSigned) await verifyWalletPayment(this.walletSignatures, m, headers, quote);
      const now = this.clock.now();
      if (quote.status === 'PENDING_AUTHORIZATION') await this.authorization.requestExecution(m, quote, now);
      else await this.payments.execute(m, quote, now, undefined, { locked, last: true, walletSigned });
      return renderQuote(quote, now);
    });
  }

  /**
   * `POST /sandbox/send`: the funds of a REALTIME_FUNDING quote arrive (in the sandbox the platform
   * says so); the quote proceeds as an executed one would, in the same transaction. The amount must
   * be the quote's total sending amount in its sending currency (omitted: that amount); the quote
   * must still be PENDING and unexpired. Answers the quote's transaction.
   */
  sendFunds(scope: QuoteScope, body: SandboxSendRequest): Promise<OutgoingTransactionView> {
    return this.tx.run(async (m) => {
      const quote = await this.scopedQuote(m, scope, parseId('Quote', body.quoteId)!, 'update');
      noteAuditResource(formatId('Quote', quote.id));
      if (quote.sourceType !== 'REALTIME_FUNDING') {
        throw invalidInput([
          fieldError('quoteId', 'must be a quote with a REALTIME_FUNDING source (this one is paid from an account)'),
        ]);
      }
      if (body.currencyCode !== quote.sendingCurrency) {
        throw new ApiError('INVALID_CURRENCY', `The quote expects ${quote.sendingCurrency}, not ${body.currencyCode}`, {
          details: { expected: quote.sendingCurrency, currencyCode: body.currencyCode },
        });
      }
      if (body.currencyAmount !== undefined && String(body.currencyAmount) !== quote.totalSendingAmount) {
        throw new ApiError(
          'INVALID_AMOUNT',
          `The quote expects exactly ${quote.totalSendingAmount} ${quote.sendingCurrency}, not ${body.currencyAmount}`,
          { details: { expected: Number(quote.totalSendingAmount), currencyAmount: body.currencyAmount } },
        );
      }
      if (quote.status === 'PENDING_AUTHORIZATION')
        throw new ApiError(
          'CONFLICT',
          `Quote ${formatId('Quote', quote.id)} is waiting for its SCA authorization: its payment instructions are issued once it is authorized (POST /quotes/{quoteId}/authorize)`,
          { details: { status: quote.status } },
        );
      const { view } = await this.payments.execute(m, quote, this.clock.now());
      return view;
    });
  }

  async get(scope: QuoteScope, quoteId: string): Promise<QuoteView> {
    const quote = await this.scopedQuote(this.tx.manager, scope, quoteId);
    return renderQuote(quote, this.clock.now());
  }

  /** `GET /quotes`: the platform's quotes, newest first, with the reference's filters. */
  async list(scope: QuoteScope, query: QuotesQuery): Promise<Page<QuoteView>> {
    const now = this.clock.now();
    const qb = this.tx.manager
      .createQueryBuilder(QuoteEntity, 'q')
      .where('q.platform_id = :platformId', { platformId: scope.platformId });
    if (scope.agentId) qb.andWhere('q.agent_id = :agentId', { agentId: scope.agentId });
    if (query.customerId) {
      const customer = parseId('Customer', query.customerId);
      if (customer) qb.andWhere('q.customer_id = :customer', { customer });
      else if (parseId('Platform', query.customerId) === scope.platformId) qb.andWhere('q.customer_id IS NULL');
      else qb.andWhere('false');
    }
    if (query.accountId) {
      const internal = parseId('InternalAccount', query.accountId);
      const external = parseId('ExternalAccount', query.accountId);
      if (internal)
        qb.andWhere(
          `(q.source_account_id = :account OR (q.destination_kind = 'InternalAccount' AND q.destination_account_id = :account))`,
          { account: internal },
        );
      else if (external)
        qb.andWhere(`q.destination_kind = 'ExternalAccount' AND q.destination_account_id = :account`, {
          account: external,
        });
      else qb.andWhere('false');
    }
    if (query.status === 'EXPIRED')
      qb.andWhere(`(q.status = 'EXPIRED' OR (q.status = 'PENDING' AND q.expires_at <= :now))`, { now });
    else if (query.status === 'PENDING') qb.andWhere(`q.status = 'PENDING' AND q.expires_at > :now`, { now });
    else if (query.status) qb.andWhere('q.status = :status', { status: query.status });
    whereTimeRange(qb, 'q', query);
    return paginate(qb, query, (row) => renderQuote(row, now));
  }

  /** One quote of the scope (an agent sees only its own; another platform's is not found). */
  async scopedQuote(m: EntityManager, scope: QuoteScope, quoteId: string, lock?: RowLock): Promise<QuoteEntity> {
    const quote = await m.findOne(QuoteEntity, {
      where: {
        id: quoteId,
        platformId: scope.platformId,
        ...(scope.agentId !== undefined ? { agentId: scope.agentId } : {}),
      },
      ...lockOption(lock),
    });
    if (!quote) throw quoteNotFound(quoteId);
    return quote;
  }

  /** 400 TRANSACTION_SIZE_LIMIT_EXCEEDED above the platform's per-currency `maxAmount` (supportedCurrencies). */
  private checkSizeLimit(config: PlatformSettings, currency: string, amount: number) {
    const limit = config.supportedCurrencies.find((c) => c.currencyCode === currency)?.maxAmount;
    if (limit !== undefined && amount > limit) {
      throw new ApiError(
        'TRANSACTION_SIZE_LIMIT_EXCEEDED',
        `${amount} exceeds the single-transaction maximum of ${limit} ${currency}`,
        { details: { currency, maxAmount: limit, amount } },
      );
    }
  }

  /** 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED at or above OWNERSHIP_UNVERIFIED_THRESHOLD_EUR. */
  private checkOwnershipThreshold(accountId: string, receiving: { code: string; decimals: number }, amount: number) {
    let eur: number;
    try {
      eur = (amount / 10 ** receiving.decimals) * this.rates.rate(receiving.code, 'EUR').multiplier;
    } catch {
      eur = Infinity; // no EUR rate: treated as above the threshold
    }
    if (eur < OWNERSHIP_UNVERIFIED_THRESHOLD_EUR) return;
    throw new ApiError(
      'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
      `External account ${accountId} is PENDING_OWNERSHIP_VERIFICATION: below EUR ${OWNERSHIP_UNVERIFIED_THRESHOLD_EUR} equivalent it may receive; verify its ownership to send more`,
      {
        details: {
          accountId,
          status: 'PENDING_OWNERSHIP_VERIFICATION',
          thresholdAmount: OWNERSHIP_UNVERIFIED_THRESHOLD_EUR * 100,
          thresholdCurrency: 'EUR',
        },
      },
    );
  }

  private internalAccount(m: EntityManager, scope: QuoteScope, id: string) {
    return m.findOne(InternalAccountEntity, {
      where: {
        id,
        platformId: scope.platformId,
        ...(scope.customerId !== undefined ? { customerId: scope.customerId } : {}),
      },
    });
  }

  private async destination(m: EntityManager, scope: QuoteScope, accountId: string): Promise<Destination> {
    const internal = parseId('InternalAccount', accountId);
    if (internal) {
      const account = await this.internalAccount(m, scope, internal);
      if (account) return { kind: 'InternalAccount', id: account.id, currency: account.currency };
    }
    const external = parseId('ExternalAccount', accountId);
    if (external) {
      const account = await m.findOne(ExternalAccountEntity, {
        where: {
          id: external,
          platformId: scope.platformId,
          ...(scope.customerId !== undefined ? { customerId: scope.customerId } : {}),
          deletedAt: IsNull(),
        },
      });
      if (account) {
        const unvalidated = bankValidationError(account);
        if (unvalidated) throw unvalidated;
        if (account.status === 'PENDING_OWNERSHIP_VERIFICATION')
          return {
            kind: 'ExternalAccount',
            id: account.id,
            currency: account.currency,
            ownershipPending: { accountId },
          };
        if (account.status !== 'ACTIVE') {
          throw new ApiError(
            'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
            `External account ${accountId} is ${account.status}: it must be verified (ACTIVE) before it can receive`,
            { details: { accountId, status: account.status } },
          );
        }
        return { kind: 'ExternalAccount', id: account.id, currency: account.currency };
      }
    }
    throw accountNotFound(accountId);
  }
}
