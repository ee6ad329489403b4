import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { formatId, parseId } from '../../common/ids.js';
import { Page, paginate } from '../../common/pagination.js';
import { whereTimeRange } from '../../common/time-range.js';
import { TransactionService } from '../../database/transaction.service.js';
import { ApiError } from '../../errors/api-error.js';
import { IncomingTransactionEntity, PaymentTransactionIndexEntity } from './incoming-transaction.entity.js';
import { OutgoingTransactionEntity } from './outgoing-transaction.entity.js';
import {
  ownerOf,
  renderIncomingTransaction,
  TransactionView,
  renderOutgoingTransaction,
} from './transaction.render.js';
import { QuoteExecutionService, platformCustomerIds } from '../quotes/quote-execution.service.js';
import type { QuoteScope } from '../quotes/quotes.service.js';
import type { TransactionFilters, TransactionsQuery } from './transactions.dto.js';

export const transactionNotFound = (id: string) =>
  new ApiError('TRANSACTION_NOT_FOUND', `Transaction ${formatId('Transaction', id)} not found`);

/** A list filter condition with its parameters. */
interface Condition {
  sql: string;
  params: Record<string, string>;
}

// Account filters take public ids (`InternalAccount:<uuid>`, `ExternalAccount:<uuid>`); anything else matches nothing.
function sentFrom(accountId: string, key: string): Condition {
  const kind = accountId.startsWith('InternalAccount:') ? 'InternalAccount' : 'ExternalAccount';
  const uuid = parseId(kind, accountId);
  return uuid
    ? { sql: `(t.source_kind = '${kind}' AND t.source_account_id = :${key})`, params: { [key]: uuid } }
    : { sql: 'false', params: {} };
}

function paidTo(accountId: string, key: string): Condition {
  const kind = accountId.startsWith('InternalAccount:') ? 'InternalAccount' : 'ExternalAccount';
  const uuid = parseId(kind, accountId);
  return uuid
    ? { sql: `(t.destination_kind = '${kind}' AND t.destination_account_id = :${key})`, params: { [key]: uuid } }
    : { sql: 'false', params: {} };
}

/**
 * Transactions of both directions for platforms (and an agent's customer): lists with the
 * reference's filters, one transaction, receipt confirmation, cancellation (the deprecated
 * same-currency transfers are src/payments/transfers/).
 */
@Injectable()
export class TransactionsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly payments: QuoteExecutionService,
  ) {}

  async list(scope: QuoteScope, query: TransactionsQuery | TransactionFilters): Promise<Page<TransactionView>> {
    const m = this.tx.manager;
    const qb = m
      .createQueryBuilder(PaymentTransactionIndexEntity, 't')
      .where('t.platform_id = :platformId', { platformId: scope.platformId });
    if (scope.customerId) qb.andWhere('t.customer_id = :scopeCustomer', { scopeCustomer: scope.customerId });
    if ('customerId' in query && query.customerId) {
      const customer = parseId('Customer', query.customerId);
      if (customer) qb.andWhere('t.customer_id = :customer', { customer });
      else if (parseId('Platform', query.customerId) === scope.platformId) qb.andWhere('t.customer_id IS NULL');
      else qb.andWhere('false');
    }
    if ('platformCustomerId' in query && query.platformCustomerId) {
      qb.andWhere(
        't.customer_id IN (SELECT c.id FROM customers c WHERE c.platform_id = :platformId AND c.platform_customer_id = :pcid)',
        { pcid: query.platformCustomerId },
      );
    }
    if (query.accountIdentifier) {
      const [sent, received] = [
        sentFrom(query.accountIdentifier, 'account'),
        paidTo(query.accountIdentifier, 'account'),
      ];
      qb.andWhere(`(${sent.sql} OR ${received.sql})`, { ...sent.params, ...received.params });
    }
    if (query.senderAccountIdentifier) {
      const sent = sentFrom(query.senderAccountIdentifier, 'sender');
      qb.andWhere(sent.sql, sent.params);
    }
    if (query.receiverAccountIdentifier) {
      const received = paidTo(query.receiverAccountIdentifier, 'receiver');
      qb.andWhere(received.sql, received.params);
    }
    if (query.status) qb.andWhere('t.status = :status', { status: query.status });
    if (query.type) qb.andWhere('t.type = :type', { type: query.type });
    if (query.reference) {
      const transaction = parseId('Transaction', query.reference);
      const quote = parseId('Quote', query.reference);
      if (transaction) qb.andWhere('t.id = :reference', { reference: transaction });
      else if (quote) qb.andWhere('t.quote_id = :reference', { reference: quote });
      else qb.andWhere('false');
    }
    whereTimeRange(qb, 't', query);
    const page = await paginate(qb, query, (r) => r);
    return { ...page, data: await this.renderIndex(m, page.data) };
  }

  async get(scope: QuoteScope, transactionId: string): Promise<TransactionView> {
    const m = this.tx.manager;
    const [view] = await this.renderIndex(m, [{ id: transactionId, platformId: scope.platformId }], scope);
    if (!view) throw transactionNotFound(transactionId);
    return view;
  }

  /** `POST /transactions/{id}/confirm`: stores (or replaces) when the receipt was delivered. */
  confirmReceipt(platformId: string, transactionId: string, at: string | undefined): Promise<TransactionView> {
    return this.tx.run(async (m) => {
      const when = at ? new Date(at) : this.clock.now();
      const values = { receiptDeliveryConfirmedAt: when };
      const out = await m.update(OutgoingTransactionEntity, { id: transactionId, platformId }, values);
      if (!out.affected) {
        const inc = await m.update(IncomingTransactionEntity, { id: transactionId, platformId }, values);
        if (!inc.affected) throw transactionNotFound(transactionId);
      }
      const [view] = await this.renderIndex(m, [{ id: transactionId, platformId }]);
      return view;
    });
  }

  /** `POST /transactions/{id}/cancel`. */
  cancel(platformId: string, transactionId: string): Promise<TransactionView> {
    return this.tx.run(async (m) => {
      const row = await m.findOne(OutgoingTransactionEntity, {
        where: { id: transactionId, platformId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!row) {
        if (await m.exists(IncomingTransactionEntity, { where: { id: transactionId, platformId } }))
          throw new ApiError('TRANSACTION_NOT_CANCELLABLE', 'An incoming transaction cannot be cancelled');
        throw transactionNotFound(transactionId);
      }
      const done = await this.payments.cancel(m, row, this.clock.now());
      const [view] = await this.payments.render(m, [done]);
      return view;
    });
  }

  /** Loads and renders index rows (ids of either direction), in the given order; missing ones are left out. */
  private async renderIndex(
    m: EntityManager,
    rows: Array<{ id: string; platformId: string }>,
    scope?: QuoteScope,
  ): Promise<TransactionView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const where = (extra: object) => ({
      id: In(ids),
      platformId: rows[0].platformId,
      ...(scope?.customerId ? { customerId: scope.customerId } : {}),
      ...extra,
    });
    const outgoing = await m.find(OutgoingTransactionEntity, { where: where({}) });
    const incoming = await m.find(IncomingTransactionEntity, { where: where({}) });
    const customers = await platformCustomerIds(
      m,
      rows[0].platformId,
      [...outgoing, ...incoming].map((r) => r.customerId),
    );
    const byId = new Map<string, TransactionView>();
    for (const r of outgoing)
      byId.set(r.id, renderOutgoingTransaction(r, ownerOf(r.platformId, r.customerId, customers)));
    for (const r of incoming)
      byId.set(r.id, renderIncomingTransaction(r, ownerOf(r.platformId, r.customerId, customers)));
    return ids.map((id) => byId.get(id)).filter((v): v is TransactionView => v !== undefined);
  }
}
