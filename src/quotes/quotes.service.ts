import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { renderPolicy } from '../agents/agent-policy.js';
import { AgentEntity } from '../agents/agent.entity.js';
import { accountOutsidePolicy } from '../agents/policy-evaluator.js';
import type { AgentPrincipal } from '../auth/auth.decorators.js';
import { Clock, later } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { currencyInfo } from '../customers/currencies.js';
import { InternalAccountEntity } from '../customers/internal-account.entity.js';
import { lockOption, RowLock } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { ExternalAccountEntity } from '../external-accounts/external-account.entity.js';
import { FxRatesService } from './fx-rates.service.js';
import { priceQuote } from './quote-pricing.js';
import type { AgentQuoteRequest, QuoteView } from './quote.dto.js';
import { DestinationKind, QuoteEntity } from './quote.entity.js';
import { renderQuote } from './quote.render.js';
import { noteAuditResource } from '../audit/audit-trail.js';

const accountNotFound = (id: string) => new ApiError('ACCOUNT_NOT_FOUND', `Account ${id} not found`);
export const quoteNotFound = (id: string) =>
  new ApiError('QUOTE_NOT_FOUND', `Quote ${formatId('Quote', id)} not found`);

/** An account a quote may pay into, resolved within the agent's customer. */
interface Destination {
  kind: DestinationKind;
  id: string;
  currency: string;
}

/**
 * Quotes created by agents for their customer: the source is one of the customer's internal
 * accounts, the destination an internal or (live) external account of the same customer; any
 * other account, of another customer or platform included, is 404 ACCOUNT_NOT_FOUND. Accounts
 * outside the policy's `allowedAccountIds` are 403 FORBIDDEN. Same-currency quotes are 1:1 without
 * fees; cross-currency ones are priced from the rate table (FxRatesService, `priceQuote`). A quote
 * can be executed until `expiresAt` (QUOTE_TTL_SECONDS after creation).
 */
@Injectable()
export class QuotesService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly rates: FxRatesService,
  ) {}

  create(agent: AgentPrincipal, body: AgentQuoteRequest): Promise<QuoteView> {
    return this.tx.run(async (m) => {
      if (body.source.customerId !== undefined && parseId('Customer', body.source.customerId) !== agent.customerId) {
        throw invalidInput([fieldError('source.customerId', "must be the agent's customer (or omitted)")]);
      }
      if (body.source.accountId === body.destination.accountId) {
        throw invalidInput([fieldError('destination.accountId', 'must differ from source.accountId')]);
      }
      const sourceId = parseId('InternalAccount', body.source.accountId)!;
      const source = await this.customerInternalAccount(m, agent, sourceId);
      if (!source) throw accountNotFound(body.source.accountId);
      const destination = await this.destination(m, agent, body.destination.accountId);

      const row = await m.findOne(AgentEntity, { where: { id: agent.agentId } });
      const touched = [
        body.source.accountId,
        ...(destination.kind === 'InternalAccount' ? [body.destination.accountId] : []),
      ];
      const outside = row ? accountOutsidePolicy(renderPolicy(row.policy), touched) : undefined;
      if (outside !== undefined) {
        throw new ApiError('FORBIDDEN', `The agent's policy does not allow account ${outside}`, {
          details: { limit: 'allowedAccountIds', accountId: outside },
        });
      }

      const sending = currencyInfo(source.currency);
      const receiving = currencyInfo(destination.currency);
      const rate = this.rates.rate(sending.code, receiving.code);
      const price = priceQuote({
        side: body.lockedCurrencySide,
        amount: body.lockedCurrencyAmount,
        sendingDecimals: sending.decimals,
        receivingDecimals: receiving.decimals,
        multiplier: rate.multiplier,
        crossCurrency: sending.code !== receiving.code,
        fixedFee: this.config.QUOTE_FIXED_FEE,
        variableFeeRate: this.config.QUOTE_VARIABLE_FEE_RATE,
      });
      if (!price) {
        throw invalidInput([
          fieldError('lockedCurrencyAmount', 'is too small to cover the fees, or too large to transfer'),
        ]);
      }

      const now = this.clock.now();
      const quote = m.create(QuoteEntity, {
        id: newUuid(),
        platformId: agent.platformId,
        agentId: agent.agentId,
        customerId: agent.customerId,
        sourceAccountId: source.id,
        destinationKind: destination.kind,
        destinationAccountId: destination.id,
        paymentRail: body.destination.paymentRail ?? null,
        lockedCurrencySide: body.lockedCurrencySide,
        sendingCurrency: sending.code,
        receivingCurrency: receiving.code,
        totalSendingAmount: String(price.totalSendingAmount),
        totalReceivingAmount: String(price.totalReceivingAmount),
        exchangeRate: price.exchangeRate,
        feesIncluded: String(price.feesIncluded),
        rateDetails: price.rateDetails,
        description: body.description ?? null,
        purposeOfPayment: body.purposeOfPayment ?? null,
        transactionId: newUuid(),
        status: 'PENDING',
        expiresAt: later(now, this.config.QUOTE_TTL_SECONDS * 1000),
        createdAt: now,
        updatedAt: now,
      });
      await m.insert(QuoteEntity, quote);
      noteAuditResource(formatId('Quote', quote.id));
      return renderQuote(quote, now);
    });
  }

  async get(agent: AgentPrincipal, quoteId: string): Promise<QuoteView> {
    const quote = await this.agentQuote(this.tx.manager, agent, quoteId);
    return renderQuote(quote, this.clock.now());
  }

  /** One of this agent's quotes (another agent's, even of the same customer, is not found). */
  async agentQuote(m: EntityManager, agent: AgentPrincipal, quoteId: string, lock?: RowLock): Promise<QuoteEntity> {
    const quote = await m.findOne(QuoteEntity, {
      where: { id: quoteId, agentId: agent.agentId, platformId: agent.platformId },
      ...lockOption(lock),
    });
    if (!quote) throw quoteNotFound(quoteId);
    return quote;
  }

  private customerInternalAccount(m: EntityManager, agent: AgentPrincipal, id: string) {
    return m.findOne(InternalAccountEntity, {
      where: { id, platformId: agent.platformId, customerId: agent.customerId },
    });
  }

  private async destination(m: EntityManager, agent: AgentPrincipal, accountId: string): Promise<Destination> {
    const internal = parseId('InternalAccount', accountId);
    if (internal) {
      const account = await this.customerInternalAccount(m, agent, internal);
      if (account) return { kind: 'InternalAccount', id: account.id, currency: account.currency };
    }
    const external = parseId('ExternalAccount', accountId);
    if (external) {
      const account = await m.findOne(ExternalAccountEntity, {
        where: { id: external, platformId: agent.platformId, customerId: agent.customerId, deletedAt: IsNull() },
      });
      if (account) return { kind: 'ExternalAccount', id: account.id, currency: account.currency };
    }
    throw accountNotFound(accountId);
  }
}
