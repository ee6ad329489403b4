import { Injectable } from '@nestjs/common';
import { noteAuditResource } from '../audit/audit-trail.js';
import { EntityManager, In, IsNull } from 'typeorm';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { whereTimeRange } from '../common/time-range.js';
import { InternalAccountEntity } from '../customers/internal-account.entity.js';
import { LedgerService } from '../customers/ledger.service.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { ExternalAccountEntity } from '../external-accounts/external-account.entity.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { IncomingTransactionEntity, PaymentTransactionIndexEntity } from './incoming-transaction.entity.js';
import { moveMoney } from './money-movement.js';
import { OutgoingTransactionEntity } from './outgoing-transaction.entity.js';
import {
  ownerOf,
  renderIncomingTransaction,
  step,
  TransactionView,
  renderOutgoingTransaction,
} from './outgoing-transaction.render.js';
import { incomingPayment } from './payment-events.js';
import { PaymentsService, platformCustomerIds } from './payments.service.js';
import { QuoteScope, QuotesService } from './quotes.service.js';
import type {
  TransactionFilters,
  TransactionsQuery,
  TransferInRequest,
  TransferOutRequest,
} from './transactions.dto.js';

export const transactionNotFound = (id: string) =>
  new ApiError('TRANSACTION_NOT_FOUND', `Transaction ${formatId('Transaction', id)} not found`);
const accountNotFound = (id: string) => new ApiError('ACCOUNT_NOT_FOUND', `Account ${id} not found`);

export const TRANSFER_IN_LEDGER_REASON = 'TRANSFER_IN';

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
 * reference's filters, one transaction, receipt confirmation, cancellation, and the deprecated
 * same-currency transfer-in / transfer-out routes.
 */
@Injectable()
export class TransactionsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly payments: PaymentsService,
    private readonly quotes: QuotesService,
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

  /** `POST /transfer-out` (deprecated): a same-currency quote to an external account, executed at once. */
  transferOut(platformId: string, body: TransferOutRequest): Promise<TransactionView> {
    return this.tx.run(async (m) => {
      const quote = await this.quotes.createIn(
        m,
        { platformId },
        {
          source: { sourceType: 'ACCOUNT', accountId: body.source.accountId },
          destination: {
            destinationType: 'ACCOUNT',
            accountId: body.destination.accountId,
            paymentRail: body.destination.paymentRail,
          },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: body.amount,
          remittanceInformation: body.remittanceInformation,
          purposeOfPayment: body.purposeOfPayment,
        },
        undefined,
        'TRANSFER_OUT',
        true,
      );
      const { view } = await this.payments.execute(m, quote, this.clock.now());
      return view;
    });
  }

  /**
   * `POST /transfer-in` (deprecated): pulls from an ACTIVE external account into an internal account
   * of the same owner and currency; the sandbox pull settles at once (INCOMING_PAYMENT.COMPLETED).
   */
  transferIn(platformId: string, body: TransferInRequest): Promise<TransactionView> {
    return this.tx.run(async (m) => {
      const sourceId = parseId('ExternalAccount', body.source.accountId)!;
      const destinationId = parseId('InternalAccount', body.destination.accountId)!;
      const source = await m.findOne(ExternalAccountEntity, {
        where: { id: sourceId, platformId, deletedAt: IsNull() },
      });
      if (!source) throw accountNotFound(body.source.accountId);
      const destination = await m.findOne(InternalAccountEntity, { where: { id: destinationId, platformId } });
      if (!destination) throw accountNotFound(body.destination.accountId);
      if (source.customerId !== destination.customerId) {
        throw new ApiError('INVALID_INPUT', 'The external and internal accounts must belong to the same owner', {
          details: {
            errors: [{ field: 'destination.accountId', reason: 'must belong to the source account’s owner' }],
          },
        });
      }
      if (source.currency !== destination.currency) {
        throw new ApiError(
          'INVALID_CURRENCY',
          `transfer-in moves one currency: ${source.currency} cannot arrive in a ${destination.currency} account`,
          { details: { sourceCurrency: source.currency, destinationCurrency: destination.currency } },
        );
      }
      if (source.status !== 'ACTIVE') {
        throw new ApiError(
          'EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED',
          `External account ${body.source.accountId} is ${source.status}: it must be ACTIVE`,
          { details: { accountId: body.source.accountId, status: source.status } },
        );
      }
      const now = this.clock.now();
      const row = m.create(IncomingTransactionEntity, {
        id: newUuid(),
        platformId,
        customerId: destination.customerId,
        status: 'COMPLETED',
        sourceKind: 'ExternalAccount',
        sourceAccountId: source.id,
        destinationAccountId: destination.id,
        receivedAmount: String(body.amount),
        currency: destination.currency,
        quoteId: null,
        description: null,
        receiptDeliveryConfirmedAt: null,
        timeline: [step('COMPLETED', now)],
        settledAt: now,
        createdAt: now,
        updatedAt: now,
      });
      await moveMoney(this.ledger, m, {
        reason: TRANSFER_IN_LEDGER_REASON,
        reference: formatId('Transaction', row.id),
        lines: [
          {
            account: { system: 'RAIL_CLEARING', platformId, currency: destination.currency },
            amount: -BigInt(body.amount),
            currency: destination.currency,
          },
          {
            account: { internalAccountId: destination.id },
            amount: BigInt(body.amount),
            currency: destination.currency,
          },
        ],
      });
      await m.insert(IncomingTransactionEntity, row);
      noteAuditResource(formatId('Transaction', row.id));
      const ids = await platformCustomerIds(m, [row.customerId]);
      const view = renderIncomingTransaction(row, ownerOf(platformId, row.customerId, ids));
      await this.outbox.write(m, incomingPayment(platformId, 'COMPLETED', view));
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
