import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { type BusinessTime, Clock, RealClock } from '../../common/clock.js';
import { formatId } from '../../common/ids.js';
import { noteAuditResource } from '../../audit/audit-trail.js';
import { CustomerEntity } from '../../customers/customer.entity.js';
import {
  LedgerService,
  type LedgerTransfer as LedgerApiTransfer,
  type LedgerWork,
  type Locked,
} from '../../ledger/ledger.service.js';
import { hydrate, insertSql, Statement, updateSql } from '../../database/statement.js';
import { ApiError } from '../../errors/api-error.js';
import { OutboxService } from '../../outbox/outbox.service.js';
import { LedgerLine, LedgerTransfer, reversed } from '../money-movement.js';
import { OutgoingFailureReason, OutgoingTransactionEntity } from '../transactions/outgoing-transaction.entity.js';
import {
  OutgoingTransactionView,
  ownerOf,
  renderOutgoingTransaction,
  step,
} from '../transactions/transaction.render.js';
import { OutgoingPaymentEvent, outgoingPayment } from '../payment-events.js';
import { QuoteEntity } from './quote.entity.js';
import { RailAdapter, type RailStatus } from '../rail/rail.js';
import { UmaDestinations } from './uma-destination.js';
import { walletSignatureRequired } from './wallet-quote.js';
import { notConfigured } from '../../errors/not-configured.js';

/** An executed quote's transaction, stored and rendered. */
export interface ExecutedPayment {
  row: OutgoingTransactionEntity;
  view: OutgoingTransactionView;
}

/** Ledger reasons of a quote's movements (the reference is the transaction's id). */
export const PAYMENT_LEDGER_REASON = 'QUOTE_EXECUTION';
export const REFUND_LEDGER_REASON = 'OUTGOING_PAYMENT_REFUND';

export const quoteAlreadyExecuted = (quote: QuoteEntity) =>
  new ApiError('CONFLICT', `Quote ${formatId('Quote', quote.id)} has already been confirmed (status ${quote.status})`, {
    details: { status: quote.status },
  });

/**
 * The balanced movement of a quote: the source pays the sending amount; the service's fees go to
 * FEES_COLLECTED and the platform's to PLATFORM_REVENUE; across currencies the FX desk takes the
 * rest in the sending currency and gives the receiving amount in the other; an internal
 * destination is credited, an external one is paid through RAIL_CLEARING.
 */
export function movementOf(quote: QuoteEntity): LedgerTransfer {
  const sending = BigInt(quote.totalSendingAmount);
  const receiving = BigInt(quote.totalReceivingAmount);
  const fees = BigInt(quote.feesIncluded);
  const platformFees = BigInt(quote.platformFeesIncluded ?? '0');
  const sc = quote.sendingCurrency;
  const rc = quote.receivingCurrency;
  const system = (
    kind: 'FX' | 'FEES_COLLECTED' | 'PLATFORM_REVENUE' | 'RAIL_CLEARING' | 'UMA_SETTLEMENT',
    currency: string,
  ) => ({
    system: kind,
    platformId: quote.platformId,
    currency,
  });
  // A REALTIME_FUNDING quote is paid by funds arriving from outside: through RAIL_CLEARING.
  const source =
    quote.sourceAccountId !== null ? { internalAccountId: quote.sourceAccountId } : system('RAIL_CLEARING', sc);
  const lines: LedgerLine[] = [{ account: source, amount: -sending, currency: sc }];
  if (fees - platformFees > 0n)
    lines.push({ account: system('FEES_COLLECTED', sc), amount: fees - platformFees, currency: sc });
  if (platformFees > 0n) lines.push({ account: system('PLATFORM_REVENUE', sc), amount: platformFees, currency: sc });
  if (sc !== rc) {
    lines.push({ account: system('FX', sc), amount: sending - fees, currency: sc });
    lines.push({ account: system('FX', rc), amount: -receiving, currency: rc });
  }
  // An UMA address is paid through UMA_SETTLEMENT (the settlement layer moves it to the receiver's deployment).
  const destination =
    quote.destinationKind === 'InternalAccount'
      ? { internalAccountId: quote.destinationAccountId }
      : system(quote.destinationKind === 'UmaAddress' ? 'UMA_SETTLEMENT' : 'RAIL_CLEARING', rc);
  lines.push({ account: destination, amount: receiving, currency: rc });
  return { lines, reason: PAYMENT_LEDGER_REASON, reference: formatId('Transaction', quote.transactionId) };
}

/**
 * Executes quotes and carries their outgoing transactions through the rail's lifecycle, for
 * platforms and agents alike (an agent's policy check runs beside it, in the agent's area).
 *
 * An internal destination settles at once (COMPLETED). An external one is PENDING and marked to
 * send (`rail_due_real_at`): the RailWorker hands it to the payout rail after this commits; then
 * PROCESSING and COMPLETED or FAILED as the rail's news says (`railUpdate`, applied by
 * RailNewsApplier); a failure, or a return after completion, refunds the source exactly (the
 * movement reversed) with OUTGOING_PAYMENT.REFUND_* events. Every change writes its
 * OUTGOING_PAYMENT.* event in the same transaction.
 */
@Injectable()
export class QuoteExecutionService {
  constructor(
    private readonly clock: Clock,
    private readonly realClock: RealClock,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly rail: RailAdapter,
    private readonly uma: UmaDestinations,
  ) {}

  /**
   * The locking statement of an execution (the first of its two, docs/ledger.md): the quote FOR
   * UPDATE (scoped to the platform, and to the agent when given), then, when it is PENDING, the
   * internal accounts its movement touches (id order), and its customer's platformCustomerId.
   * Null when there is no such quote.
   */
  async lockQuote(
    m: EntityManager,
    where: { id: string; platformId: string; agentId?: string },
  ): Promise<{ quote: QuoteEntity; locked: Locked } | null> {
    const s = new Statement();
    const agent = where.agentId !== undefined ? ` AND agent_id = ${s.p(where.agentId, 'uuid')}` : '';
    const platform = s.p(where.platformId, 'uuid');
    s.with(
      'head',
      `SELECT * FROM quotes WHERE id = ${s.p(where.id, 'uuid')} AND platform_id = ${platform}${agent} FOR UPDATE`,
    );
    const locked = await this.ledger.lock(m, {
      platformId: where.platformId,
      statement: s,
      accountsFrom: QUOTE_ACCOUNTS_SQL,
      outputs: { quote: 'SELECT to_jsonb(h) FROM head h', customer: quoteCustomerSql(platform) },
    });
    const json = locked.outputs.quote as Record<string, unknown> | null;
    if (!json) return null;
    return { quote: hydrate(m, QuoteEntity, json), locked };
  }

  /**
   * Executes a quote locked FOR UPDATE by the caller, in its transaction: 409 once executed, 400
   * QUOTE_EXPIRED after `expiresAt` (the platform's clock), 400 INSUFFICIENT_FUNDS with nothing
   * written when the source cannot pay. `awaiting`: the transaction recorded PENDING_AUTHORIZATION
   * before the quote's SCA authorization (it carries on from there).
   *
   * Two statements (docs/ledger.md): the accounts' lock (`options.locked` when the caller's
   * locking statement took them with the quote, `lockQuote`), then one statement with the
   * postings, the balances, the transaction, the quote's status, every event and (`options.last`)
   * the request's audit event; `options.also` adds the caller's own writes to it.
   */
  async execute(
    m: EntityManager,
    quote: QuoteEntity,
    now: BusinessTime,
    awaiting?: OutgoingTransactionEntity,
    options: ExecuteOptions = {},
  ): Promise<ExecutedPayment> {
    if (quote.status !== 'PENDING') throw quoteAlreadyExecuted(quote);
    this.assertRailConfigured(quote);
    // Money leaves an embedded wallet only with its holder's stamp (checked by the caller that has it).
    if (quote.walletPayloadToSign !== null && options.walletSigned !== true) throw walletSignatureRequired(quote);
    if (now >= quote.expiresAt) {
      throw new ApiError(
        'QUOTE_EXPIRED',
        `Quote ${formatId('Quote', quote.id)} expired at ${quote.expiresAt.toISOString()}; request a new quote`,
      );
    }
    const movement = movementOf(quote);
    const locked = options.locked ?? (await this.lockFor(m, quote.platformId, movement, quote.customerId));
    const work = this.ledger.work(locked);
    this.ledger.move(work, ledgerTransfer(movement));
    const internal = quote.destinationKind === 'InternalAccount';
    const row = this.transactionOf(m, quote, internal ? 'COMPLETED' : 'PENDING', null, now);
    if (quote.destinationKind === 'UmaAddress') {
      // Settled over the UMA settlement layer, which answers through `settle`.
      await this.uma.settlement().submit(
        m,
        {
          transactionId: row.id,
          quoteId: quote.id,
          platformId: row.platformId,
          amount: BigInt(row.receivedAmount),
          currency: row.receivingCurrency,
          umaAddress: quote.destinationUmaAddress!,
        },
        now,
      );
    } else if (!internal) {
      // The RailWorker hands it to the payout rail once this commits (nothing is sent before).
      row.railDueRealAt = this.realClock.now();
    }
    const s = new Statement();
    if (awaiting) {
      row.timeline = [...awaiting.timeline, ...row.timeline];
      row.createdAt = awaiting.createdAt;
      s.with(
        'payment',
        updateSql(m, s, OutgoingTransactionEntity, row, {
          status: row.status,
          timeline: row.timeline,
          railDueRealAt: row.railDueRealAt,
          settledAt: row.settledAt,
          updatedAt: now,
        }),
      );
    } else s.with('payment', insertSql(m, s, OutgoingTransactionEntity, row));
    noteAuditResource(formatId('Transaction', row.id));
    quote.status = internal ? 'COMPLETED' : 'PROCESSING';
    quote.updatedAt = now;
    s.with('quote_status', updateSql(m, s, QuoteEntity, quote, { status: quote.status, updatedAt: now }));
    options.also?.(s);
    const view = this.renderWith(row, customerIdsOf(quote.customerId, locked));
    const event = this.outbox.prepare(outgoingPayment(row.platformId, internal ? 'COMPLETED' : 'PENDING', view));
    await this.ledger.write(m, work, { statement: s, events: [event], last: options.last });
    return { row, view };
  }

  /**
   * 503 SERVICE_UNAVAILABLE (`details.notConfigured`: PAYOUT_RAIL) for a payout to an external account when no payout rail is
   * bound (PAYOUT_RAIL=none): checked before anything is written.
   */
  assertRailConfigured(quote: Pick<QuoteEntity, 'destinationKind'>): void {
    if (quote.destinationKind !== 'ExternalAccount' || this.rail.name !== 'none') return;
    throw notConfigured(
      'PAYOUT_RAIL',
      'No payout rail is configured (PAYOUT_RAIL=none): payouts to external accounts cannot be sent',
    );
  }

  /** The accounts of a movement locked, with the customer's platformCustomerId: one statement. */
  private lockFor(
    m: EntityManager,
    platformId: string,
    movement: LedgerTransfer,
    customerId: string | null,
  ): Promise<Locked> {
    const s = new Statement();
    return this.ledger.lock(m, {
      platformId,
      statement: s,
      accountIds: movement.lines.flatMap((l) =>
        'internalAccountId' in l.account ? [l.account.internalAccountId] : [],
      ),
      outputs: {
        customer: `SELECT platform_customer_id FROM customers
                    WHERE id = ${s.p(customerId, 'uuid')} AND platform_id = ${s.p(platformId, 'uuid')}`,
      },
    });
  }

  /** The transaction rendered with a known platformCustomerId map. */
  private renderWith(row: OutgoingTransactionEntity, ids: Map<string, string>): OutgoingTransactionView {
    return renderOutgoingTransaction(row, ownerOf(row.platformId, row.customerId, ids));
  }

  /**
   * Records the transaction of a quote waiting for its SCA authorization: PENDING_AUTHORIZATION,
   * no money moved, with the OUTGOING_PAYMENT.PENDING_AUTHORIZATION event.
   */
  async awaitAuthorization(m: EntityManager, quote: QuoteEntity, now: Date): Promise<OutgoingTransactionEntity> {
    const row = this.transactionOf(m, quote, 'PENDING_AUTHORIZATION', null, now);
    noteAuditResource(formatId('Transaction', row.id));
    await this.commit(m, row, { insert: true, events: ['PENDING_AUTHORIZATION'] });
    return row;
  }

  /**
   * A transaction left PENDING_AUTHORIZATION (an execution asked for before the SCA authorization)
   * whose quote expired, locked by the caller: EXPIRED (the reference's "Quote has expired"; no
   * money had moved, so nothing is refunded), its quote EXPIRED, with OUTGOING_PAYMENT.EXPIRED.
   * `now` is the platform's business time. Anything else is left as it is.
   */
  async expireAwaiting(m: EntityManager, row: OutgoingTransactionEntity, now: Date): Promise<boolean> {
    if (row.status !== 'PENDING_AUTHORIZATION') return false;
    row.status = 'EXPIRED';
    row.failureReason = 'QUOTE_EXPIRED';
    row.timeline = [...row.timeline, step('EXPIRED', now, 'QUOTE_EXPIRED')];
    row.updatedAt = now;
    await this.commit(m, row, {
      quote: { status: 'EXPIRED', scaChallenge: null, updatedAt: now },
      events: ['EXPIRED'],
    });
    return true;
  }

  /** Records a transaction that failed before any money moved (an agent's approval that could not run). */
  async recordFailure(
    m: EntityManager,
    quote: QuoteEntity,
    reason: OutgoingFailureReason,
    now: Date,
  ): Promise<OutgoingTransactionEntity> {
    const row = this.transactionOf(m, quote, 'FAILED', reason, now);
    noteAuditResource(formatId('Transaction', row.id));
    const status = reason === 'QUOTE_EXPIRED' ? 'EXPIRED' : 'FAILED';
    quote.status = status;
    await this.commit(m, row, { insert: true, quote: { status, updatedAt: now }, events: ['FAILED'] });
    return row;
  }

  /**
   * One status step of the payout rail's news (RailNewsApplier) for a transaction locked FOR
   * UPDATE by the caller. `now` is the platform's business time; `news` carries the provider's
   * reason (noted on the timeline), its expected settlement and when the reconciliation poll is
   * next due. Answers the transaction after the change (unchanged when the status does not apply to
   * its current state: a late or repeated status changes nothing).
   */
  async railUpdate(
    m: EntityManager,
    row: OutgoingTransactionEntity,
    status: RailStatus,
    now: Date,
    news: { reason?: string; expectedSettlementAt?: Date; pollAt?: BusinessTime | null } = {},
  ): Promise<OutgoingTransactionEntity> {
    switch (status) {
      case 'PROCESSING':
        if (row.status !== 'PENDING') return row;
        row.updatedAt = now;
        row.status = 'PROCESSING';
        row.railDueRealAt = null;
        if (news.expectedSettlementAt) row.expectedSettlementAt = news.expectedSettlementAt;
        if (news.pollAt !== undefined) row.railSettlesBusinessAt = news.pollAt;
        row.timeline = [...row.timeline, step('PROCESSING', now)];
        await this.commit(m, row, { events: ['PROCESSING'] });
        return row;
      case 'COMPLETED':
        if (row.status !== 'PROCESSING') return row;
        row.updatedAt = now;
        row.status = 'COMPLETED';
        row.settledAt = now;
        row.railSettlesBusinessAt = null;
        row.timeline = [...row.timeline, step('COMPLETED', now)];
        await this.commit(m, row, { quote: { status: 'COMPLETED', updatedAt: now }, events: ['COMPLETED'] });
        return row;
      case 'FAILED':
        if (row.status !== 'PROCESSING' && row.status !== 'PENDING') return row;
        row.updatedAt = now;
        return this.failAndRefund(m, row, 'ACCOUNT_CANNOT_RECEIVE', now, undefined, news.reason);
      case 'RETURNED':
        if (row.status !== 'COMPLETED' || row.refund) return row;
        row.updatedAt = now;
        return this.failAndRefund(m, row, 'PAYOUT_RETURNED', now, undefined, news.reason);
    }
  }

  /**
   * The UMA settlement layer's answer for a transaction locked FOR UPDATE by the caller: the
   * receiver's deployment credited the payment (COMPLETED) or refused it (FAILED: the source is
   * refunded exactly; `failure` says why, as the receiver reported it: the reason, and a note for
   * the status timeline). Anything but a PENDING / PROCESSING transaction is left as it is (a
   * repeated answer changes nothing).
   */
  async settle(
    m: EntityManager,
    row: OutgoingTransactionEntity,
    outcome: 'COMPLETED' | 'FAILED',
    now: Date,
    failure: { reason?: OutgoingFailureReason; note?: string } = {},
  ): Promise<OutgoingTransactionEntity> {
    if (row.status !== 'PENDING' && row.status !== 'PROCESSING') return row;
    row.updatedAt = now;
    if (outcome === 'FAILED')
      return this.failAndRefund(m, row, failure.reason ?? 'ACCOUNT_CANNOT_RECEIVE', now, undefined, failure.note);
    row.status = 'COMPLETED';
    row.settledAt = now;
    row.timeline = [...row.timeline, step('COMPLETED', now)];
    await this.commit(m, row, { quote: { status: 'COMPLETED', updatedAt: now }, events: ['COMPLETED'] });
    return row;
  }

  /**
   * `POST /transactions/{id}/cancel` on a transaction locked by the caller: only before the rail
   * started processing it (PENDING); afterwards 409 TRANSACTION_NOT_CANCELLABLE. The source is
   * refunded exactly.
   */
  async cancel(m: EntityManager, row: OutgoingTransactionEntity, now: Date): Promise<OutgoingTransactionEntity> {
    // An UMA payment is in the settlement layer's hands from execution on (the receiver decides).
    // Once the payout rail was handed the payment (a hand-off started), the provider may hold it.
    if (row.status !== 'PENDING' || row.destinationKind === 'UmaAddress' || row.railSendAttempts > 0) {
      throw new ApiError(
        'TRANSACTION_NOT_CANCELLABLE',
        `Transaction ${formatId('Transaction', row.id)} is ${row.status}: past the point where it can be cancelled`,
        { details: { status: row.status } },
      );
    }
    row.updatedAt = now;
    return this.failAndRefund(m, row, null, now, 'USER_CANCELLATION');
  }

  /** FAILED (or returned, or cancelled): the source gets back exactly what it paid, fees included. */
  private async failAndRefund(
    m: EntityManager,
    row: OutgoingTransactionEntity,
    reason: OutgoingFailureReason | null,
    now: Date,
    refundReason: 'TRANSACTION_FAILED' | 'USER_CANCELLATION' = 'TRANSACTION_FAILED',
    note?: string,
  ): Promise<OutgoingTransactionEntity> {
    // One statement reads the quote (its movement) and locks its accounts, one writes it all.
    const s = new Statement();
    const platform = s.p(row.platformId, 'uuid');
    s.with('head', `SELECT * FROM quotes WHERE id = ${s.p(row.quoteId, 'uuid')} AND platform_id = ${platform}`);
    const locked = await this.ledger.lock(m, {
      platformId: row.platformId,
      statement: s,
      accountsFrom: REFUND_ACCOUNTS_SQL,
      outputs: { quote: 'SELECT to_jsonb(h) FROM head h', customer: quoteCustomerSql(platform) },
    });
    const quote = hydrate(m, QuoteEntity, locked.outputs.quote as Record<string, unknown>);
    row.status = 'FAILED';
    row.failureReason = reason;
    row.railDueRealAt = null;
    row.railSettlesBusinessAt = null;
    row.refund = {
      reference: formatId('Transaction', row.id),
      initiatedAt: now.toISOString(),
      status: 'PENDING',
      reason: refundReason,
    };
    const why = reason ?? refundReason;
    row.timeline = [...row.timeline, step('FAILED', now, note ? `${why}: ${note}` : why)];
    const ids = customerIdsOf(row.customerId, locked);
    const failed = this.renderWith(row, ids);
    const work = this.ledger.work(locked);
    this.ledger.move(work, ledgerTransfer(reversed(movementOf(quote), REFUND_LEDGER_REASON)));
    row.refund = { ...row.refund, status: 'COMPLETED', settledAt: now.toISOString() };
    row.timeline = [...row.timeline, step('REFUNDED', now)];
    const refunded = this.renderWith(row, ids);
    await this.commit(m, row, {
      quote: { status: 'FAILED', updatedAt: now },
      events: [
        ['FAILED', failed],
        ['REFUND_PENDING', failed],
        ['REFUND_COMPLETED', refunded],
      ],
      locked,
      work,
    });
    return row;
  }

  /** Renders one platform's transactions with their owners (one lookup for the lot). */
  async render(m: EntityManager, rows: OutgoingTransactionEntity[]): Promise<OutgoingTransactionView[]> {
    if (rows.length === 0) return [];
    const platformId = rows[0].platformId;
    if (rows.some((r) => r.platformId !== platformId)) throw new Error('render: transactions of one platform');
    const ids = await platformCustomerIds(
      m,
      platformId,
      rows.map((r) => r.customerId),
    );
    return rows.map((r) => renderOutgoingTransaction(r, ownerOf(r.platformId, r.customerId, ids)));
  }

  /**
   * Writes a transition in one statement: the transaction (inserted, or its changing columns),
   * the quote's columns given, each event (`[event, view]`, or an event of the row as it is now)
   * and, when money moves, the work's postings and balances; before it, the locking statement
   * (`locked`, or one that reads the customer's platformCustomerId the events carry; none for a
   * platform's own transaction). Two statements at most, as every money path (docs/ledger.md).
   */
  private async commit(
    m: EntityManager,
    row: OutgoingTransactionEntity,
    change: {
      insert?: boolean;
      quote?: Partial<QuoteEntity>;
      events: Array<OutgoingPaymentEvent | [OutgoingPaymentEvent, OutgoingTransactionView]>;
      locked?: Locked;
      work?: LedgerWork;
    },
  ): Promise<void> {
    let locked = change.locked;
    if (!locked) {
      const s = new Statement();
      locked =
        row.customerId === null
          ? { platformId: row.platformId, accounts: new Map(), holds: new Map(), outputs: {} }
          : await this.ledger.lock(m, {
              platformId: row.platformId,
              statement: s,
              outputs: {
                customer: `SELECT platform_customer_id FROM customers
                            WHERE id = ${s.p(row.customerId, 'uuid')} AND platform_id = ${s.p(row.platformId, 'uuid')}`,
              },
            });
    }
    const ids = customerIdsOf(row.customerId, locked);
    const s = new Statement();
    s.with(
      'payment',
      change.insert
        ? insertSql(m, s, OutgoingTransactionEntity, row)
        : updateSql(m, s, OutgoingTransactionEntity, row, {
            status: row.status,
            failureReason: row.failureReason,
            refund: row.refund,
            timeline: row.timeline,
            railDueRealAt: row.railDueRealAt,
            railSettlesBusinessAt: row.railSettlesBusinessAt,
            railProvider: row.railProvider,
            railProviderRef: row.railProviderRef,
            expectedSettlementAt: row.expectedSettlementAt,
            settledAt: row.settledAt,
            updatedAt: row.updatedAt,
          }),
    );
    if (change.quote)
      s.with(
        'quote_status',
        updateSql(m, s, QuoteEntity, { id: row.quoteId, platformId: row.platformId }, change.quote),
      );
    const events = change.events.map((e) => {
      const [event, view] = Array.isArray(e) ? e : [e, this.renderWith(row, ids)];
      return this.outbox.prepare(outgoingPayment(row.platformId, event, view));
    });
    await this.ledger.write(m, change.work ?? this.ledger.work(locked), { statement: s, events });
  }

  private transactionOf(
    m: EntityManager,
    quote: QuoteEntity,
    status: OutgoingTransactionEntity['status'],
    failureReason: OutgoingFailureReason | null,
    now: Date,
  ): OutgoingTransactionEntity {
    return m.create(OutgoingTransactionEntity, {
      id: quote.transactionId,
      platformId: quote.platformId,
      customerId: quote.customerId,
      agentId: quote.agentId,
      quoteId: quote.id,
      status,
      failureReason,
      sourceAccountId: quote.sourceAccountId,
      destinationKind: quote.destinationKind,
      destinationAccountId: quote.destinationAccountId,
      destinationUmaAddress: quote.destinationUmaAddress ?? null,
      paymentRail: quote.paymentRail,
      sentAmount: quote.totalSendingAmount,
      sendingCurrency: quote.sendingCurrency,
      receivedAmount: quote.totalReceivingAmount,
      receivingCurrency: quote.receivingCurrency,
      exchangeRate: quote.exchangeRate,
      fees: quote.feesIncluded,
      platformFees: quote.platformFeesIncluded ?? '0',
      rateDetails: quote.rateDetails,
      description: quote.description,
      refund: null,
      timeline: [step(status, now, failureReason ?? undefined)],
      railDueRealAt: null,
      railSettlesBusinessAt: null,
      railProvider: null,
      railProviderRef: null,
      railSendAttempts: 0,
      railSentAt: null,
      expectedSettlementAt: null,
      receiptDeliveryConfirmedAt: null,
      settledAt: status === 'COMPLETED' ? now : null,
      createdAt: now,
      updatedAt: now,
    });
  }
}

/** `platformCustomerId` by customer uuid, for rendering transactions. */
export async function platformCustomerIds(
  m: EntityManager,
  platformId: string,
  customerIds: (string | null)[],
): Promise<Map<string, string>> {
  const ids = [...new Set(customerIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await m.find(CustomerEntity, {
    where: { platformId, id: In(ids) },
    select: { id: true, platformCustomerId: true },
  });
  return new Map(rows.map((c) => [c.id, c.platformCustomerId]));
}

/** Options of `QuoteExecutionService.execute`. */
export interface ExecuteOptions {
  /** The accounts (and `customer`) the caller's locking statement took with the quote (`lockQuote`). */
  locked?: Locked;
  /** The request's last statement: its audit event rides in it (nothing is written after it). */
  last?: boolean;
  /** The caller's own writes, added to the execution's statement as CTEs. */
  also?: (s: Statement) => void;
  /**
   * The caller verified the wallet holder's stamp over the quote's `payloadToSign` in this
   * transaction (`verifyWalletPayment`): required when the source is an EMBEDDED_WALLET.
   */
  walletSigned?: boolean;
}

/** The quote's internal accounts, when it can still be executed (`lockQuote`'s `head`). */
const QUOTE_ACCOUNTS_SQL = `SELECT source_account_id FROM head WHERE status = 'PENDING' AND source_account_id IS NOT NULL
   UNION SELECT destination_account_id FROM head WHERE status = 'PENDING' AND destination_kind = 'InternalAccount'`;
/** A refund's internal accounts: the quote's source and internal destination, whatever its status. */
const REFUND_ACCOUNTS_SQL = `SELECT source_account_id FROM head WHERE source_account_id IS NOT NULL
   UNION SELECT destination_account_id FROM head WHERE destination_kind = 'InternalAccount'`;
/** The quote's customer's platformCustomerId (`platform`: the platform id's placeholder). */
const quoteCustomerSql = (platform: string) =>
  `SELECT platform_customer_id FROM customers WHERE id = (SELECT customer_id FROM head) AND platform_id = ${platform}`;

function customerIdsOf(customerId: string | null, locked: Locked): Map<string, string> {
  const platformCustomerId = locked.outputs.customer;
  return customerId !== null && typeof platformCustomerId === 'string'
    ? new Map([[customerId, platformCustomerId]])
    : new Map<string, string>();
}

/** A payments-area movement in the ledger's terms (the lines without their currency). */
function ledgerTransfer(t: LedgerTransfer): LedgerApiTransfer {
  return {
    lines: t.lines.map(({ account, amount }) => ({ account, amount })),
    reason: t.reason,
    reference: t.reference,
  };
}
