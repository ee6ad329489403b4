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
import { IsNull } from 'typeorm';
import { renderPolicy } from '../agents/agent-policy.js';
import { AgentEntity } from '../agents/agent.entity.js';
import { accountOutsidePolicy } from '../agents/policy-evaluator.js';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { currencyInfo } from '../customers/currencies.js';
import { InternalAccountEntity } from '../customers/internal-account.entity.js';
import { lockOption } from '../database/queries.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { ExternalAccountEntity } from '../external-accounts/external-account.entity.js';
import { FxRatesService } from './fx-rates.service.js';
import { priceQuote } from './quote-pricing.js';
import { QuoteEntity } from './quote.entity.js';
import { renderQuote } from './quote.render.js';
const accountNotFound = (id) => new ApiError('ACCOUNT_NOT_FOUND', `Account ${id} not found`);
export const quoteNotFound = (id) => new ApiError('QUOTE_NOT_FOUND', `Quote ${formatId('Quote', id)} not found`);
/**
 * Quotes created by agents for their customer: the source is one of the customer's internal
 * accounts, the destination an internal or (live) external account of the same customer; any
 * other account, of another customer or platform included, is 404 ACCOUNT_NOT_FOUND. Accounts
 * outside the policy's `allowedAccountIds` are 403 FORBIDDEN. Same-currency quotes are 1:1 without
 * fees; cross-currency ones are priced from the rate table (FxRatesService, `priceQuote`). A quote
 * can be executed until `expiresAt` (QUOTE_TTL_SECONDS after creation).
 */
let QuotesService = class QuotesService {
    tx;
    clock;
    config;
    rates;
    constructor(tx, clock, config, rates) {
        this.tx = tx;
        this.clock = clock;
        this.config = config;
        this.rates = rates;
    }
    create(agent, body) {
        return this.tx.run(async (m) => {
            if (body.source.customerId !== undefined && parseId('Customer', body.source.customerId) !== agent.customerId) {
                throw invalidInput([fieldError('source.customerId', "must be the agent's customer (or omitted)")]);
            }
            if (body.source.accountId === body.destination.accountId) {
                throw invalidInput([fieldError('destination.accountId', 'must differ from source.accountId')]);
            }
            const sourceId = parseId('InternalAccount', body.source.accountId);
            const source = await this.customerInternalAccount(m, agent, sourceId);
            if (!source)
                throw accountNotFound(body.source.accountId);
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
                expiresAt: new Date(now.getTime() + this.config.QUOTE_TTL_SECONDS * 1000),
                createdAt: now,
                updatedAt: now,
            });
            await m.insert(QuoteEntity, quote);
            return renderQuote(quote, now);
        });
    }
    async get(agent, quoteId) {
        const quote = await this.agentQuote(this.tx.manager, agent, quoteId);
        return renderQuote(quote, this.clock.now());
    }
    /** One of this agent's quotes (another agent's, even of the same customer, is not found). */
    async agentQuote(m, agent, quoteId, lock) {
        const quote = await m.findOne(QuoteEntity, {
            where: { id: quoteId, agentId: agent.agentId, platformId: agent.platformId },
            ...lockOption(lock),
        });
        if (!quote)
            throw quoteNotFound(quoteId);
        return quote;
    }
    customerInternalAccount(m, agent, id) {
        return m.findOne(InternalAccountEntity, {
            where: { id, platformId: agent.platformId, customerId: agent.customerId },
        });
    }
    async destination(m, agent, accountId) {
        const internal = parseId('InternalAccount', accountId);
        if (internal) {
            const account = await this.customerInternalAccount(m, agent, internal);
            if (account)
                return { kind: 'InternalAccount', id: account.id, currency: account.currency };
        }
        const external = parseId('ExternalAccount', accountId);
        if (external) {
            const account = await m.findOne(ExternalAccountEntity, {
                where: { id: external, platformId: agent.platformId, customerId: agent.customerId, deletedAt: IsNull() },
            });
            if (account)
                return { kind: 'ExternalAccount', id: account.id, currency: account.currency };
        }
        throw accountNotFound(accountId);
    }
};
QuotesService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [TransactionService,
        Clock,
        AppConfig,
        FxRatesService])
], QuotesService);
export { QuotesService };
//# sourceMappingURL=quotes.service.js.map