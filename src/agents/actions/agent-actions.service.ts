import { Injectable } from '@nestjs/common';
import { updateSql } from '../../database/statement.js';
import { EntityManager, In, IsNull } from 'typeorm';
import type { AgentPrincipal } from '../../auth/auth.decorators.js';
import { type BusinessTime, Clock } from '../../common/clock.js';
import { formatId, newUuid, parseId } from '../../common/ids.js';
import { Page, paginate } from '../../common/pagination.js';
import { whereTimeRange } from '../../common/time-range.js';
import { CustomerEntity } from '../../customers/customer.entity.js';
import { TransactionService } from '../../database/transaction.service.js';
import { ApiError } from '../../errors/api-error.js';
import { MetricsService } from '../../metrics/metrics.service.js';
import { OutboxService } from '../../outbox/outbox.service.js';
import { FxRatesService } from '../../payments/exchange-rates/fx-rates.service.js';
import {
  OutgoingFailureReason,
  OutgoingTransactionEntity,
} from '../../payments/transactions/outgoing-transaction.entity.js';
import type { TransactionView } from '../../payments/transactions/transaction.render.js';
import { ExecutedPayment, QuoteExecutionService } from '../../payments/quotes/quote-execution.service.js';
import { QuoteEntity } from '../../payments/quotes/quote.entity.js';
import { QuoteScope, QuotesService } from '../../payments/quotes/quotes.service.js';
import { TransactionsService } from '../../payments/transactions/transactions.service.js';
import { IncomingTransactionEntity } from '../../payments/transactions/incoming-transaction.entity.js';
import type { TransferInRequest, TransferOutRequest } from '../../payments/transfers/transfers.dto.js';
import { TransfersService } from '../../payments/transfers/transfers.service.js';
import { InternalAccountEntity } from '../../customers/internal-account.entity.js';
import { ExternalAccountEntity } from '../../external-accounts/external-account.entity.js';
import { renderPolicy } from '../agent-policy.js';
import { AgentEntity } from '../agent.entity.js';
import { evaluatePolicy, PolicyDecision, PolicyDenial } from '../policy-evaluator.js';
import { agentActionPendingApproval } from './agent-action-events.js';
import type { AgentActionsQuery, AgentApprovalsQuery, AgentTransactionsQuery } from './agent-action.dto.js';
import { noteAuditResource } from '../../audit/audit-trail.js';
import type { RetryHeaders } from '../../embedded-wallets/wallet-signatures.service.js';
import { walletSignatureRequired } from '../../payments/quotes/wallet-quote.js';
import {
  AgentActionEntity,
  type AgentActionStatus,
  type AgentActionType,
  type AgentTransferDetails,
} from './agent-action.entity.js';
import { AgentActionView, renderAgentAction } from './agent-action.render.js';

const actionNotFound = (id: string) =>
  new ApiError('TRANSACTION_NOT_FOUND', `Agent action ${formatId('AgentAction', id)} not found`);
/** What the quotes area sees of an agent: its platform, its customer's accounts, its own quotes. */
export const agentScope = (agent: AgentPrincipal): QuoteScope => ({
  platformId: agent.platformId,
  customerId: agent.customerId,
  agentId: agent.agentId,
});

function limitExceeded(d: PolicyDenial): ApiError {
  if (d.limit === 'allowedAccountIds') {
    return new ApiError('FORBIDDEN', `The agent's policy does not allow account ${String(d.value)}`, {
      details: { limit: d.limit, accountId: d.value },
    });
  }
  return new ApiError('FORBIDDEN', `This transaction would exceed the agent's ${d.limit} (${d.value})`, {
    details: { limit: d.limit, value: d.value, amount: d.amount, ...(d.currency ? { currency: d.currency } : {}) },
  });
}

/**
 * Agent actions: executing a quote under the agent's policy, the platform's approval or
 * rejection, and the agent's views of its actions and its customer's transactions.
 *
 * Every execution and approval holds the agent row FOR UPDATE (then the quote or action, then the
 * accounts in id order), so the policy is evaluated against counters no one else is changing: two
 * executes that together exceed a limit run one after the other and the second is refused.
 * Counters change only when money moves, by exactly the amount moved (a pending action reserves
 * nothing; approval counts it on the day it runs).
 */
@Injectable()
export class AgentActionsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly outbox: OutboxService,
    private readonly quotes: QuotesService,
    private readonly payments: QuoteExecutionService,
    private readonly transactions: TransactionsService,
    private readonly rates: FxRatesService,
    private readonly metrics: MetricsService,
    private readonly transfers: TransfersService,
  ) {}

  /** Counts an execution's outcome once its transaction committed (`agent_executions_total`). */
  private counted(view: Promise<AgentActionView>): Promise<AgentActionView> {
    return view.then((action) => {
      this.metrics.agentExecutions.inc({ outcome: action.status.toLowerCase() });
      return action;
    });
  }

  /** The agent's row FOR UPDATE (the policy's counters), refused when deleted (401) or paused (403). */
  private async lockAgent(m: EntityManager, agent: AgentPrincipal): Promise<AgentEntity> {
    const row = await m.findOne(AgentEntity, {
      where: { id: agent.agentId, platformId: agent.platformId, deletedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
    if (!row) throw new ApiError('UNAUTHORIZED', 'Invalid agent access token');
    if (row.isPaused) {
      throw new ApiError('FORBIDDEN', 'This agent is paused: it can read but cannot initiate anything until resumed');
    }
    return row;
  }

  /**
   * `POST /agents/me/quotes/{quoteId}/execute`. A quote paid from an EMBEDDED_WALLET needs the
   * holder's stamp over its payloadToSign (`Grid-Wallet-Signature`, 401 otherwise, nothing kept),
   * checked before the policy decides; an action held for approval was so signed, and its approval
   * executes it.
   */
  execute(agent: AgentPrincipal, quoteId: string, headers: RetryHeaders = {}): Promise<AgentActionView> {
    return this.counted(
      this.tx.run(async (m) => {
        const row = await this.lockAgent(m, agent);
        const quote = await this.quotes.scopedQuote(m, agentScope(agent), quoteId, 'update');
        if (
          quote.status !== 'PENDING' ||
          (await m.exists(AgentActionEntity, { where: { quoteId: quote.id, platformId: agent.platformId } }))
        ) {
          throw new ApiError('CONFLICT', `Quote ${formatId('Quote', quote.id)} has already been executed`);
        }
        const now = this.clock.now();
        if (now >= quote.expiresAt) {
          throw new ApiError(
            'QUOTE_EXPIRED',
            `Quote ${formatId('Quote', quote.id)} expired at ${quote.expiresAt.toISOString()}; request a new quote`,
          );
        }
        const walletSigned = await this.quotes.verifyWalletStamp(m, quote, headers);
        return this.decideQuote(m, row, quote, now, 'EXECUTE_QUOTE', null, walletSigned);
      }),
    );
  }

  /**
   * `POST /agents/me/transfer-out`: the platform's transfer-out path (TransfersService's
   * same-currency quote, in the agent's scope), then the policy decides as for an executed quote:
   * 403 over a hard limit (nothing kept), PENDING_APPROVAL (the quote waits for the platform), or
   * executed at once (APPROVED with its transaction).
   */
  transferOut(agent: AgentPrincipal, body: TransferOutRequest): Promise<AgentActionView> {
    return this.counted(
      this.tx.run(async (m) => {
        const row = await this.lockAgent(m, agent);
        const quote = await this.transfers.transferOutQuote(m, agentScope(agent), body);
        const transfer: AgentTransferDetails = {
          amount: Number(quote.totalSendingAmount),
          currency: quote.sendingCurrency,
          sourceAccountId: body.source.accountId,
          destinationAccountId: body.destination.accountId,
        };
        return this.decideQuote(m, row, quote, this.clock.now(), 'TRANSFER_OUT', transfer);
      }),
    );
  }

  /**
   * `POST /agents/me/transfer-in`: a pull from the customer's external account into its internal
   * account, under the policy (the internal account is the one the policy's account rules and
   * restrictions read; the amount counts as the agent's spend): 403 over a hard limit,
   * PENDING_APPROVAL (nothing moves until approved), or the platform's transfer-in at once.
   */
  transferIn(agent: AgentPrincipal, body: TransferInRequest): Promise<AgentActionView> {
    return this.counted(
      this.tx.run(async (m) => {
        const row = await this.lockAgent(m, agent);
        const destination = await this.ownInternalAccount(m, agent, body.destination.accountId);
        const transfer: AgentTransferDetails = {
          amount: body.amount,
          currency: destination.currency,
          sourceAccountId: body.source.accountId,
          destinationAccountId: body.destination.accountId,
        };
        const now = this.clock.now();
        const decision = this.evaluateTransfer(row, transfer, body.destination.accountId, now, false);
        if (decision.outcome === 'DENIED') throw limitExceeded(decision);
        if (decision.outcome === 'APPROVAL_REQUIRED') {
          // The accounts are checked now too (a pending action names real accounts of the customer).
          await this.checkTransferInAccounts(m, agent, body);
          const action = await this.insertAction(m, row, 'TRANSFER_IN', null, transfer, 'PENDING_APPROVAL', now);
          const view = await this.renderOne(m, action, now);
          await this.outbox.write(m, agentActionPendingApproval(row.platformId, view));
          return view;
        }
        const { row: incoming } = await this.transfers.transferInWith(m, agent.platformId, body, agent.customerId);
        await this.writeUsage(m, row, decision.usageAfter);
        const action = await this.insertAction(m, row, 'TRANSFER_IN', null, transfer, 'APPROVED', now, incoming.id);
        return this.renderOne(m, action, now);
      }),
    );
  }

  /** The agent's customer's internal account (404 ACCOUNT_NOT_FOUND otherwise), for its currency. */
  private async ownInternalAccount(m: EntityManager, agent: AgentPrincipal, accountId: string) {
    const account = await m.findOne(InternalAccountEntity, {
      where: { id: parseId('InternalAccount', accountId)!, platformId: agent.platformId, customerId: agent.customerId },
    });
    if (!account) throw new ApiError('ACCOUNT_NOT_FOUND', `Account ${accountId} not found`);
    return account;
  }

  /** A pending transfer-in's source: an external account of the agent's customer (404 otherwise). */
  private async checkTransferInAccounts(m: EntityManager, agent: AgentPrincipal, body: TransferInRequest) {
    const source = await m.findOne(ExternalAccountEntity, {
      where: {
        id: parseId('ExternalAccount', body.source.accountId)!,
        platformId: agent.platformId,
        customerId: agent.customerId,
        deletedAt: IsNull(),
      },
    });
    if (!source) throw new ApiError('ACCOUNT_NOT_FOUND', `Account ${body.source.accountId} not found`);
  }

  /** The policy's decision on a quote (an executed quote or a transfer-out), and what follows it. */
  private async decideQuote(
    m: EntityManager,
    row: AgentEntity,
    quote: QuoteEntity,
    now: BusinessTime,
    type: 'EXECUTE_QUOTE' | 'TRANSFER_OUT',
    transfer: AgentTransferDetails | null,
    walletSigned = false,
  ): Promise<AgentActionView> {
    // Money leaves an embedded wallet only with its holder's stamp: nothing is kept without it.
    if (quote.walletPayloadToSign !== null && !walletSigned) throw walletSignatureRequired(quote);
    // No payout rail (PAYOUT_RAIL=none): 503 before an action is recorded, as for the platform's execute.
    this.payments.assertRailConfigured(quote);
    const decision = this.evaluate(row, quote, now, false);
    switch (decision.outcome) {
      case 'DENIED':
        throw limitExceeded(decision);
      case 'APPROVAL_REQUIRED': {
        const action = await this.insertAction(m, row, type, quote, transfer, 'PENDING_APPROVAL', now);
        const view = await this.renderOne(m, action, now);
        await this.outbox.write(m, agentActionPendingApproval(row.platformId, view));
        return view;
      }
      case 'AUTO': {
        const executed = await this.settle(m, row, quote, decision.usageAfter, now, walletSigned);
        const action = await this.insertAction(m, row, type, quote, transfer, 'APPROVED', now);
        // Rendered from what the execution holds (no re-read: the race holds the agent row).
        return renderAgentAction(
          { action, quote, transaction: executed.row, platformCustomerId: executed.view.platformCustomerId },
          now,
        );
      }
    }
  }

  /**
   * `POST /agents/{agentId}/actions/{actionId}/approve`: executes the quote now. An expired quote,
   * a hard limit the day's counters no longer leave room for, or insufficient funds make the
   * action FAILED, with a FAILED transaction whose `failureReason` says why (nothing moves).
   */
  approve(platformId: string, agentId: string, actionId: string): Promise<AgentActionView> {
    return this.counted(
      this.tx.run(async (m) => {
        const row = await m.findOne(AgentEntity, {
          where: { id: agentId, platformId, deletedAt: IsNull() },
          lock: { mode: 'pessimistic_write' },
        });
        if (!row) throw actionNotFound(actionId);
        const action = await this.pendingAction(m, platformId, agentId, actionId);
        if (action.type === 'TRANSFER_IN') return this.approveTransferIn(m, row, action);
        const quote = await m.findOneOrFail(QuoteEntity, {
          where: { id: action.quoteId!, platformId },
          lock: { mode: 'pessimistic_write' },
        });
        noteAuditResource(formatId('Quote', quote.id));
        const now = this.clock.now();

        let failure: OutgoingFailureReason | null = null;
        if (now >= quote.expiresAt) failure = 'QUOTE_EXPIRED';
        else {
          const decision = this.evaluate(row, quote, now, true);
          if (decision.outcome === 'DENIED') failure = 'LIMIT_EXCEEDED';
          else if (decision.outcome === 'AUTO')
            // An EXECUTE_QUOTE action of a wallet-funded quote exists only once its stamp verified.
            failure = await this.settleOrFail(
              m,
              row,
              quote,
              decision.usageAfter,
              now,
              action.type === 'EXECUTE_QUOTE' && quote.walletPayloadToSign !== null,
            );
        }
        if (failure) await this.recordFailure(m, quote, failure, now);
        action.status = failure ? 'FAILED' : 'APPROVED';
        action.updatedAt = now;
        await m.update(
          AgentActionEntity,
          { id: action.id, platformId: action.platformId },
          { status: action.status, updatedAt: now },
        );
        return this.renderOne(m, action, now);
      }),
    );
  }

  /**
   * Approving a TRANSFER_IN: the platform's transfer-in runs now (the counters counted today). A
   * hard limit the day's counters no longer leave room for, or a transfer-in refused with a 4xx
   * (the external account no longer ACTIVE, deleted, another currency), makes the action FAILED
   * with nothing moved and no transaction.
   */
  private async approveTransferIn(
    m: EntityManager,
    row: AgentEntity,
    action: AgentActionEntity,
  ): Promise<AgentActionView> {
    const now = this.clock.now();
    const transfer = action.transfer!;
    const decision = this.evaluateTransfer(row, transfer, transfer.destinationAccountId, now, true);
    let incomingId: string | null = null;
    if (decision.outcome === 'AUTO') {
      await m.query('SAVEPOINT agent_transfer_in');
      try {
        const { row: incoming } = await this.transfers.transferInWith(
          m,
          row.platformId,
          {
            source: { accountId: transfer.sourceAccountId },
            destination: { accountId: transfer.destinationAccountId },
            amount: transfer.amount,
          },
          row.customerId,
        );
        await this.writeUsage(m, row, decision.usageAfter);
        await m.query('RELEASE SAVEPOINT agent_transfer_in');
        incomingId = incoming.id;
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        await m.query('ROLLBACK TO SAVEPOINT agent_transfer_in');
      }
    }
    action.status = incomingId ? 'APPROVED' : 'FAILED';
    action.incomingTransactionId = incomingId;
    action.updatedAt = now;
    await m.update(
      AgentActionEntity,
      { id: action.id, platformId: action.platformId },
      { status: action.status, incomingTransactionId: incomingId, updatedAt: now },
    );
    return this.renderOne(m, action, now);
  }

  /** `POST /agents/{agentId}/actions/{actionId}/reject`: nothing executes; the reason is kept. */
  reject(platformId: string, agentId: string, actionId: string, reason: string | undefined): Promise<AgentActionView> {
    return this.tx.run(async (m) => {
      const action = await this.pendingAction(m, platformId, agentId, actionId);
      const now = this.clock.now();
      action.status = 'REJECTED';
      action.rejectionReason = reason ?? null;
      action.updatedAt = now;
      await m.update(
        AgentActionEntity,
        { id: action.id, platformId: action.platformId },
        { status: action.status, rejectionReason: action.rejectionReason, updatedAt: now },
      );
      return this.renderOne(m, action, now);
    });
  }

  async listOwn(agent: AgentPrincipal, query: AgentActionsQuery): Promise<Page<AgentActionView>> {
    const m = this.tx.manager;
    const qb = m
      .createQueryBuilder(AgentActionEntity, 'a')
      .where('a.agent_id = :agentId', { agentId: agent.agentId })
      .andWhere('a.platform_id = :platformId', { platformId: agent.platformId });
    if (query.status) qb.andWhere('a.status = :status', { status: query.status });
    return this.renderPage(m, await paginate(qb, query, (r) => r));
  }

  async getOwn(agent: AgentPrincipal, actionId: string): Promise<AgentActionView> {
    const m = this.tx.manager;
    const action = await m.findOne(AgentActionEntity, {
      where: { id: actionId, agentId: agent.agentId, platformId: agent.platformId },
    });
    if (!action) throw actionNotFound(actionId);
    return this.renderOne(m, action, this.clock.now());
  }

  /** `GET /agents/approvals`: the platform's actions waiting for its decision. */
  async listPending(platformId: string, query: AgentApprovalsQuery): Promise<Page<AgentActionView>> {
    const m = this.tx.manager;
    const qb = m
      .createQueryBuilder(AgentActionEntity, 'a')
      .where('a.platform_id = :platformId', { platformId })
      .andWhere(`a.status = 'PENDING_APPROVAL'`);
    if (query.agentId) qb.andWhere('a.agent_id = :agentId', { agentId: parseId('Agent', query.agentId) });
    if (query.customerId)
      qb.andWhere('a.customer_id = :customerId', { customerId: parseId('Customer', query.customerId) });
    whereTimeRange(qb, 'a', query);
    return this.renderPage(m, await paginate(qb, query, (r) => r));
  }

  /** `GET /agents/me/transactions`: the agent's customer's transactions (the quotes area's list). */
  listTransactions(agent: AgentPrincipal, query: AgentTransactionsQuery): Promise<Page<TransactionView>> {
    return this.transactions.list({ platformId: agent.platformId, customerId: agent.customerId }, query);
  }

  getTransaction(agent: AgentPrincipal, transactionId: string): Promise<TransactionView> {
    return this.transactions.get({ platformId: agent.platformId, customerId: agent.customerId }, transactionId);
  }

  // ---- execution --------------------------------------------------------------------------------

  /** The policy on a transfer-in: its internal account is the destination. */
  private evaluateTransfer(
    row: AgentEntity,
    transfer: AgentTransferDetails,
    internalAccountId: string,
    now: Date,
    approved: boolean,
  ): PolicyDecision {
    return evaluatePolicy({
      policy: renderPolicy(row.policy),
      usage: {
        dailyTransactionCount: row.dailyTransactionCount,
        dailySpend: Number(row.dailySpend),
        monthlySpend: Number(row.monthlySpend),
        dailyResetDate: row.dailyResetDate,
        monthlyResetMonth: row.monthlyResetMonth,
      },
      amount: { value: transfer.amount, currency: transfer.currency },
      sourceAccountId: internalAccountId,
      internalAccountIds: [internalAccountId],
      now,
      convert: this.rates.convert,
      approved,
    });
  }

  /** The agent's counters after a transfer-in (an executed quote writes them in its own statement). */
  private async writeUsage(m: EntityManager, agent: AgentEntity, usage: PolicyDecision['usage']): Promise<void> {
    await m.update(
      AgentEntity,
      { id: agent.id, platformId: agent.platformId },
      {
        dailyTransactionCount: usage.dailyTransactionCount,
        dailySpend: String(usage.dailySpend),
        monthlySpend: String(usage.monthlySpend),
        dailyResetDate: usage.dailyResetDate,
        monthlyResetMonth: usage.monthlyResetMonth,
      },
    );
  }

  private evaluate(row: AgentEntity, quote: QuoteEntity, now: Date, approved: boolean): PolicyDecision {
    return evaluatePolicy({
      policy: renderPolicy(row.policy),
      usage: {
        dailyTransactionCount: row.dailyTransactionCount,
        dailySpend: Number(row.dailySpend),
        monthlySpend: Number(row.monthlySpend),
        dailyResetDate: row.dailyResetDate,
        monthlyResetMonth: row.monthlyResetMonth,
      },
      amount: { value: Number(quote.totalSendingAmount), currency: quote.sendingCurrency },
      sourceAccountId: formatId('InternalAccount', quote.sourceAccountId!),
      internalAccountIds: [
        formatId('InternalAccount', quote.sourceAccountId!),
        ...(quote.destinationKind === 'InternalAccount'
          ? [formatId('InternalAccount', quote.destinationAccountId)]
          : []),
      ],
      now,
      convert: this.rates.convert,
      approved,
    });
  }

  /**
   * Executes the quote through the quotes area (money moves, the transaction is recorded, its
   * OUTGOING_PAYMENT event written) and counts the spend. Throws the ledger's 400
   * (INSUFFICIENT_FUNDS) with nothing written when the source cannot pay.
   */
  private async settle(
    m: EntityManager,
    agent: AgentEntity,
    quote: QuoteEntity,
    usage: PolicyDecision['usage'],
    now: BusinessTime,
    walletSigned = false,
  ): Promise<ExecutedPayment> {
    // The agent's usage is written in the execution's own statement (one write for all of it).
    return this.payments.execute(m, quote, now, undefined, {
      walletSigned,
      also: (s) =>
        s.with(
          'agent_usage',
          updateSql(m, s, AgentEntity, agent, {
            dailyTransactionCount: usage.dailyTransactionCount,
            dailySpend: String(usage.dailySpend),
            monthlySpend: String(usage.monthlySpend),
            dailyResetDate: usage.dailyResetDate,
            monthlyResetMonth: usage.monthlyResetMonth,
          }),
        ),
    });
  }

  /** `settle` inside a savepoint: a ledger refusal rolls back its partial work and names the failure. */
  private async settleOrFail(
    m: EntityManager,
    agent: AgentEntity,
    quote: QuoteEntity,
    usage: PolicyDecision['usage'],
    now: BusinessTime,
    walletSigned: boolean,
  ): Promise<OutgoingFailureReason | null> {
    await m.query('SAVEPOINT agent_execution');
    try {
      await this.settle(m, agent, quote, usage, now, walletSigned);
      await m.query('RELEASE SAVEPOINT agent_execution');
      return null;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      await m.query('ROLLBACK TO SAVEPOINT agent_execution');
      quote.status = 'PENDING';
      return 'QUOTE_EXECUTION_FAILED';
    }
  }

  private async recordFailure(m: EntityManager, quote: QuoteEntity, reason: OutgoingFailureReason, now: Date) {
    await this.payments.recordFailure(m, quote, reason, now);
  }

  private async insertAction(
    m: EntityManager,
    agent: AgentEntity,
    type: AgentActionType,
    quote: QuoteEntity | null,
    transfer: AgentTransferDetails | null,
    status: AgentActionStatus,
    now: Date,
    incomingTransactionId: string | null = null,
  ): Promise<AgentActionEntity> {
    const action = m.create(AgentActionEntity, {
      id: newUuid(),
      platformId: agent.platformId,
      agentId: agent.id,
      customerId: quote?.customerId ?? agent.customerId,
      type,
      quoteId: quote?.id ?? null,
      transfer,
      incomingTransactionId,
      status,
      rejectionReason: null,
      createdAt: now,
      updatedAt: now,
    });
    await m.insert(AgentActionEntity, action);
    noteAuditResource(formatId('AgentAction', action.id));
    if (quote) noteAuditResource(formatId('Quote', quote.id));
    if (incomingTransactionId) noteAuditResource(formatId('Transaction', incomingTransactionId));
    return action;
  }

  /** The platform's action of that agent, locked, still PENDING_APPROVAL (else 404 / 409). */
  private async pendingAction(m: EntityManager, platformId: string, agentId: string, actionId: string) {
    const action = await m.findOne(AgentActionEntity, {
      where: { id: actionId, agentId, platformId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!action) throw actionNotFound(actionId);
    if (action.status !== 'PENDING_APPROVAL') {
      throw new ApiError(
        'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
        `Agent action ${formatId('AgentAction', action.id)} is ${action.status}, not PENDING_APPROVAL`,
        { details: { status: action.status } },
      );
    }
    return action;
  }

  // ---- rendering --------------------------------------------------------------------------------

  private async renderOne(m: EntityManager, action: AgentActionEntity, now: Date): Promise<AgentActionView> {
    const [view] = await this.renderMany(m, [action], now);
    return view;
  }

  private async renderPage(m: EntityManager, page: Page<AgentActionEntity>): Promise<Page<AgentActionView>> {
    return { ...page, data: await this.renderMany(m, page.data, this.clock.now()) };
  }

  /** Renders actions with their quotes, transactions and customers, three lookups for the lot. */
  private async renderMany(m: EntityManager, actions: AgentActionEntity[], now: Date): Promise<AgentActionView[]> {
    if (actions.length === 0) return [];
    const platformId = actions[0].platformId; // a page is one platform's
    const quoteIds = actions.flatMap((a) => (a.quoteId ? [a.quoteId] : []));
    const incomingIds = actions.flatMap((a) => (a.incomingTransactionId ? [a.incomingTransactionId] : []));
    // One after the other: inside a transaction they share one connection.
    const quotes = quoteIds.length ? await m.find(QuoteEntity, { where: { id: In(quoteIds), platformId } }) : [];
    const transactions = quoteIds.length
      ? await m.find(OutgoingTransactionEntity, { where: { quoteId: In(quoteIds), platformId } })
      : [];
    const incoming = incomingIds.length
      ? await m.find(IncomingTransactionEntity, { where: { id: In(incomingIds), platformId } })
      : [];
    const incomingById = new Map(incoming.map((t) => [t.id, t]));
    const customers = await this.platformCustomerIds(
      m,
      platformId,
      actions.map((a) => a.customerId),
    );
    const quoteById = new Map(quotes.map((q) => [q.id, q]));
    const transactionByQuote = new Map(transactions.map((t) => [t.quoteId, t]));
    return actions.map((action) =>
      renderAgentAction(
        {
          action,
          quote: action.quoteId ? quoteById.get(action.quoteId)! : null,
          transaction: action.quoteId ? (transactionByQuote.get(action.quoteId) ?? null) : null,
          incoming: action.incomingTransactionId ? (incomingById.get(action.incomingTransactionId) ?? null) : null,
          platformCustomerId: customers.get(action.customerId)!,
        },
        now,
      ),
    );
  }

  private async platformCustomerIds(
    m: EntityManager,
    platformId: string,
    customerIds: string[],
  ): Promise<Map<string, string>> {
    const rows = await m.find(CustomerEntity, {
      where: { id: In([...new Set(customerIds)]), platformId },
      select: { id: true, platformCustomerId: true },
    });
    return new Map(rows.map((c) => [c.id, c.platformCustomerId]));
  }
}
