import { Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { noteAuditResource } from '../../audit/audit-trail.js';
import { Clock } from '../../common/clock.js';
import { formatId, newUuid, parseId } from '../../common/ids.js';
import { InternalAccountEntity } from '../../customers/internal-account.entity.js';
import { TransactionService } from '../../database/transaction.service.js';
import { insertSql, Statement } from '../../database/statement.js';
import { ApiError } from '../../errors/api-error.js';
import { ExternalAccountEntity } from '../../external-accounts/external-account.entity.js';
import { bankValidationError } from '../../external-accounts/bank-validation.js';
import { LedgerService } from '../../ledger/ledger.service.js';
import { OutboxService } from '../../outbox/outbox.service.js';
import { incomingPayment } from '../payment-events.js';
import { QuoteExecutionService } from '../quotes/quote-execution.service.js';
import type { QuoteEntity } from '../quotes/quote.entity.js';
import { QuotesService, type QuoteScope } from '../quotes/quotes.service.js';
import { IncomingTransactionEntity } from '../transactions/incoming-transaction.entity.js';
import { ownerOf, renderIncomingTransaction, step, TransactionView } from '../transactions/transaction.render.js';
import type { TransferInRequest, TransferOutRequest } from './transfers.dto.js';

const accountNotFound = (id: string) => new ApiError('ACCOUNT_NOT_FOUND', `Account ${id} not found`);

export const TRANSFER_IN_LEDGER_REASON = 'TRANSFER_IN';

/**
 * The deprecated same-currency transfers: transfer-out is a same-currency quote executed at once;
 * transfer-in pulls from an external account of the same owner (the sandbox pull settles at once).
 */
@Injectable()
export class TransfersService {
  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly payments: QuoteExecutionService,
    private readonly quotes: QuotesService,
  ) {}

  /** `POST /transfer-out` (deprecated): a same-currency quote to an external account, executed at once. */
  transferOut(platformId: string, body: TransferOutRequest): Promise<TransactionView> {
    return this.tx.run(async (m) => {
      const quote = await this.transferOutQuote(m, { platformId }, body);
      const { view } = await this.payments.execute(m, quote, this.clock.now());
      return view;
    });
  }

  /**
   * A transfer-out's same-currency quote (origin TRANSFER_OUT), in `m`, within `scope` (an agent's
   * scope limits both accounts to its customer): the platform's transfer-out executes it at once,
   * an agent's (src/agents/actions/) under its policy.
   */
  transferOutQuote(m: EntityManager, scope: QuoteScope, body: TransferOutRequest): Promise<QuoteEntity> {
    return this.quotes.createIn(
      m,
      scope,
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
  }

  /**
   * `POST /transfer-in` (deprecated): pulls from an ACTIVE external account into an internal account
   * of the same owner and currency; the sandbox pull settles at once (INCOMING_PAYMENT.COMPLETED).
   */
  transferIn(platformId: string, body: TransferInRequest): Promise<TransactionView> {
    return this.tx.run(async (m) => (await this.transferInWith(m, platformId, body)).view);
  }

  /**
   * The transfer-in in `m`; with `customerId` (an agent's customer) both accounts must be that
   * customer's (404 ACCOUNT_NOT_FOUND otherwise). Answers the transaction and its row's id.
   */
  async transferInWith(
    m: EntityManager,
    platformId: string,
    body: TransferInRequest,
    customerId?: string,
  ): Promise<{ view: TransactionView; row: IncomingTransactionEntity }> {
    {
      const sourceId = parseId('ExternalAccount', body.source.accountId)!;
      const destinationId = parseId('InternalAccount', body.destination.accountId)!;
      const source = await m.findOne(ExternalAccountEntity, {
        where: { id: sourceId, platformId, deletedAt: IsNull() },
      });
      if (!source || (customerId !== undefined && source.customerId !== customerId))
        throw accountNotFound(body.source.accountId);
      const destination = await m.findOne(InternalAccountEntity, { where: { id: destinationId, platformId } });
      if (!destination || (customerId !== undefined && destination.customerId !== customerId))
        throw accountNotFound(body.destination.accountId);
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
      const unvalidated = bankValidationError(source);
      if (unvalidated) throw unvalidated;
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
      // Two statements (docs/ledger.md): the account locked with the customer read, then the
      // postings, the balance, the transaction and both events in one write.
      const lock = new Statement();
      const locked = await this.ledger.lock(m, {
        platformId,
        statement: lock,
        accountIds: [destination.id],
        outputs: {
          customer: `SELECT platform_customer_id FROM customers
                      WHERE id = ${lock.p(row.customerId, 'uuid')} AND platform_id = ${lock.p(platformId, 'uuid')}`,
        },
      });
      const work = this.ledger.work(locked);
      this.ledger.move(work, {
        reason: TRANSFER_IN_LEDGER_REASON,
        reference: formatId('Transaction', row.id),
        lines: [
          {
            account: { system: 'RAIL_CLEARING', platformId, currency: destination.currency },
            amount: -BigInt(body.amount),
          },
          { account: { internalAccountId: destination.id }, amount: BigInt(body.amount) },
        ],
      });
      noteAuditResource(formatId('Transaction', row.id));
      const customer = locked.outputs.customer;
      const ids =
        row.customerId !== null && typeof customer === 'string'
          ? new Map([[row.customerId, customer]])
          : new Map<string, string>();
      const view = renderIncomingTransaction(row, ownerOf(platformId, row.customerId, ids));
      const s = new Statement();
      s.with('incoming', insertSql(m, s, IncomingTransactionEntity, row));
      await this.ledger.write(m, work, {
        statement: s,
        events: [this.outbox.prepare(incomingPayment(platformId, 'COMPLETED', view))],
      });
      return { view, row };
    }
  }
}
