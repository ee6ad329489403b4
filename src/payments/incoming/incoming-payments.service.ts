/**
 * Incoming payments with the platform's approval (docs/payments.md, "Incoming payments and the
 * platform's approval"): the contract between the receiving side (this file, owned by the quotes
 * area) and the UMA exchange between deployments (src/uma/), which calls `receive`.
 *
 * How the sender's side learns the outcome: a REGISTRY. `IncomingPaymentsService.registerSettlementHook(origin, hook)`
 * (e.g. the UMA module's service, in its `onModuleInit`, for origin `UMA`); an origin nobody
 * registered uses the `INCOMING_SETTLEMENT_HOOK` provider, a no-op that PaymentsModule provides. The
 * hook is called once per payment, inside the transaction that decides it (same EntityManager):
 * COMPLETED when the receiver's account was credited, FAILED otherwise (reject, 422, timeout,
 * webhook error: the sender refunds its customer then).
 *
 * `receive` runs its own transactions (`TransactionService.runDetached`), whether or not the caller
 * has one open: the payment is committed before its approval webhook is sent, so the platform may
 * call approve/reject while it answers.
 */
import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { noteAuditResource } from '../../audit/audit-trail.js';
import { type BusinessTime, Clock, later, RealClock } from '../../common/clock.js';
import { formatId, newUuid, parseId } from '../../common/ids.js';
import { type FieldError, fieldError } from '../../errors/field-error.js';
import { invalidInput } from '../../errors/validation-errors.js';
import { AppConfig } from '../../config/app-config.js';
import { CustomerEntity } from '../../customers/customer.entity.js';
import { InternalAccountEntity } from '../../customers/internal-account.entity.js';
import { LedgerService, type LedgerWork, type Locked } from '../../ledger/ledger.service.js';
import { Statement, updateSql } from '../../database/statement.js';
import { TransactionService } from '../../database/transaction.service.js';
import { ApiError } from '../../errors/api-error.js';
import { DirectDelivery } from '../../outbox/delivery/direct-delivery.js';
import { ENDPOINT_NOT_SET } from '../../outbox/delivery/webhook-sender.js';
import { OutboxService } from '../../outbox/outbox.service.js';
import type { AttemptRecord, ClaimedEvent } from '../../outbox/outbox.store.js';
import { platformTimeSql } from '../../sandbox-clock/platform-time-sql.js';
import {
  type IncomingOrigin,
  IncomingTransactionEntity,
  type JsonObject,
} from '../transactions/incoming-transaction.entity.js';
import { OutgoingTransactionEntity } from '../transactions/outgoing-transaction.entity.js';
import {
  IncomingTransactionView,
  ownerOf,
  renderIncomingTransaction,
  step,
} from '../transactions/transaction.render.js';
import { incomingPayment } from '../payment-events.js';
import { platformCustomerIds } from '../quotes/quote-execution.service.js';
import { transactionNotFound } from '../transactions/transactions.service.js';

export interface IncomingPaymentInput {
  /** The receiving platform's uuid (`Platform:<uuid>` is accepted too). */
  platformId: string;
  /** The receiver's internal account id (InternalAccount:<uuid>). */
  accountId: string;
  /** Integer minor units of the account's currency, as a decimal string. */
  amount: string;
  currency: string;
  senderUmaAddress?: string;
  /** The payer data the sender sent. */
  counterpartyInformation?: Record<string, unknown>;
  /** Unique per (platform, reference): a repeat returns the same transaction, never credits twice. */
  reference: string;
  origin: 'SANDBOX' | 'UMA' | 'BANK';
  /** Opaque; handed back to the hook untouched. */
  settlement?: Record<string, unknown>;
  /** The receiver's UMA address, when the payment was sent to one (shown on the transaction). */
  receiverUmaAddress?: string;
}

export interface IncomingDecision {
  transactionId: string;
  platformId: string;
  reference: string;
  settlement?: Record<string, unknown>;
  outcome: 'COMPLETED' | 'FAILED';
  failureReason?: string;
  /** When the platform answered 422: the fields it asked for. */
  receiverFields?: string[];
}

export const INCOMING_SETTLEMENT_HOOK = 'INCOMING_SETTLEMENT_HOOK';

export interface IncomingSettlementHook {
  /** Called inside the transaction that decides the payment (same EntityManager), once per payment. */
  onDecided(manager: EntityManager, decision: IncomingDecision): Promise<void>;
}

/** The default hook: nothing to settle on the sender's side (the sandbox's senders, bank rails). */
export const NO_SETTLEMENT_HOOK: IncomingSettlementHook = { onDecided: () => Promise.resolve() };

/** The ledger reason of an incoming payment's credit (the reference is the transaction id). */
export const INCOMING_PAYMENT_LEDGER_REASON = 'INCOMING_PAYMENT';

/** The sandbox's senders: `$<outcome>.<currency>@sandbox.grid.uma.money`. */
export const SANDBOX_SENDER_DOMAIN = 'sandbox.grid.uma.money';
const SANDBOX_SENDER = /^\$(success|fail|slow)\.([a-z]{3})@sandbox\.grid\.uma\.money$/i;
export type SandboxSenderOutcome = 'success' | 'fail' | 'slow';
/** A slow sandbox sender settles this long after approval, on the platform's clock. */
export const SANDBOX_SLOW_SETTLEMENT_MS = 60 * 60 * 1000;

/** The sandbox sender's outcome, or null when the address is not one of the sandbox's senders. */
export function sandboxSenderOutcome(address: string | null | undefined): SandboxSenderOutcome | null {
  const m = SANDBOX_SENDER.exec(address ?? '');
  return m ? (m[1].toLowerCase() as SandboxSenderOutcome) : null;
}

/** How a pending payment is decided. */
type Decision =
  | { kind: 'APPROVE'; receiverCustomerInfo?: JsonObject }
  | { kind: 'FAIL'; reason: string; requestedFields?: string[]; note?: string };

const notPending = (row: IncomingTransactionEntity, why: string) =>
  new ApiError(
    'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
    `Transaction ${formatId('Transaction', row.id)} is not pending platform approval: ${why}`,
    { details: { status: row.status, ...(row.failureReason ? { failureReason: row.failureReason } : {}) } },
  );

/**
 * Receives incoming payments and carries them through the platform's decision: PENDING with
 * `INCOMING_PAYMENT.PENDING` sent to the platform's webhook (signed and guarded like every
 * webhook, by the outbox's DirectDelivery), whose answer decides: 2xx approves, 403 rejects, 422
 * fails it asking for fields, 202 (or no endpoint set) leaves it to approve/reject within
 * INCOMING_PAYMENT_APPROVAL_WINDOW_SECONDS of the platform's clock, anything else fails it. Every
 * decision locks the transaction's row, so the webhook's answer, approve, reject and the timeout
 * (IncomingPaymentsWorker) racing have exactly one outcome. Approved: the receiver's account is
 * credited from the origin's clearing account and `INCOMING_PAYMENT.COMPLETED` is sent. A bank-rail
 * payment (origin BANK) has already moved: it is credited at once, informational only.
 */
@Injectable()
export class IncomingPaymentsService {
  private readonly hooks = new Map<IncomingOrigin, IncomingSettlementHook>();

  constructor(
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly realClock: RealClock,
    private readonly config: AppConfig,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly direct: DirectDelivery,
    @Inject(INCOMING_SETTLEMENT_HOOK) private readonly defaultHook: IncomingSettlementHook,
  ) {}

  /** The sender side of `origin` learns each payment's outcome through `hook` (one per origin; the last wins). */
  registerSettlementHook(origin: IncomingOrigin, hook: IncomingSettlementHook): void {
    this.hooks.set(origin, hook);
  }

  /**
   * Records the payment (idempotent by reference: a repeat answers the same transaction with
   * `created: false` and sends nothing) and, unless it came over a bank rail, asks the platform's
   * webhook; answers the status after the webhook's answer (PENDING while the platform decides
   * through approve/reject). 404 ACCOUNT_NOT_FOUND for an account not of the platform, 400
   * INVALID_CURRENCY when the currency is not the account's, 400 INVALID_INPUT for a malformed input.
   */
  async receive(input: IncomingPaymentInput): Promise<{ transactionId: string; status: string; created: boolean }> {
    const { platformUuid, accountUuid, amount } = checkInput(input);
    input = { ...input, platformId: platformUuid };
    const recorded = await this.tx.runDetached(async (m) => {
      const existing = await this.byReference(m, input.platformId, input.reference);
      if (existing) return { row: existing, created: false, claimed: null };
      const account = await m.findOne(InternalAccountEntity, {
        where: { id: accountUuid, platformId: input.platformId },
      });
      if (!account) throw new ApiError('ACCOUNT_NOT_FOUND', `Internal account ${input.accountId} not found`);
      if (account.currency !== input.currency) {
        throw new ApiError(
          'INVALID_CURRENCY',
          `An incoming payment in ${input.currency} cannot arrive in a ${account.currency} account`,
          { details: { currency: input.currency, accountCurrency: account.currency } },
        );
      }
      const now = await this.platformNow(m, input.platformId);
      const bank = input.origin === 'BANK';
      const row = m.create(IncomingTransactionEntity, {
        id: newUuid(),
        platformId: input.platformId,
        customerId: account.customerId,
        status: 'PENDING',
        sourceKind: bank ? 'Bank' : 'UmaAddress',
        sourceAccountId: null,
        destinationAccountId: account.id,
        receivedAmount: amount.toString(),
        currency: account.currency,
        quoteId: null,
        description: null,
        receiptDeliveryConfirmedAt: null,
        timeline: [step('PENDING', now)],
        settledAt: null,
        origin: input.origin,
        reference: input.reference,
        senderUmaAddress: input.senderUmaAddress ?? null,
        receiverUmaAddress: input.receiverUmaAddress ?? null,
        counterpartyInformation: (input.counterpartyInformation as JsonObject | undefined) ?? null,
        settlement: (input.settlement as JsonObject | undefined) ?? null,
        failureReason: null,
        receiverCustomerInfo: null,
        requestedFields: null,
        decideBy: bank ? null : later(now, this.windowMs()),
        settlesBusinessAt: null,
        createdAt: now,
        updatedAt: now,
      });
      // A racing receive of the same reference waits on the unique index, then finds this one.
      const inserted = await m
        .createQueryBuilder()
        .insert()
        .into(IncomingTransactionEntity)
        .values(row)
        .orIgnore()
        .returning('id')
        .execute();
      if ((inserted.raw as unknown[]).length === 0) {
        const winner = await this.byReference(m, input.platformId, input.reference);
        if (!winner) throw new Error(`incoming payment ${input.reference} vanished`);
        return { row: winner, created: false, claimed: null };
      }
      noteAuditResource(formatId('Transaction', row.id));
      if (bank) {
        await this.complete(m, row, now);
        return { row, created: true, claimed: null };
      }
      const written = await this.outbox.write(m, incomingPayment(row.platformId, 'PENDING', await this.view(m, row)));
      return { row, created: true, claimed: await this.direct.claim(m, written) };
    });
    const { row, created, claimed } = recorded;
    const status = claimed ? await this.ask(row, claimed) : row.status;
    return { transactionId: formatId('Transaction', row.id), status, created };
  }

  /**
   * `POST /sandbox/uma/receive`: a payment from one of the sandbox's senders to one of the
   * platform's customers (by `customerId` or its `receiverUmaAddress`), into its internal account in
   * the receiving currency; the platform's webhook decides as for any incoming payment. Answers the
   * transaction after the webhook's answer.
   */
  async sandboxReceive(
    platformId: string,
    body: {
      senderUmaAddress: string;
      receiverUmaAddress?: string;
      customerId?: string;
      receivingCurrencyCode: string;
      receivingCurrencyAmount: number;
    },
  ): Promise<IncomingTransactionView> {
    if (!body.customerId && !body.receiverUmaAddress) {
      throw invalidInput([
        fieldError('customerId', 'customerId or receiverUmaAddress is required'),
        fieldError('receiverUmaAddress', 'customerId or receiverUmaAddress is required'),
      ]);
    }
    if (sandboxSenderOutcome(body.senderUmaAddress) === null) {
      throw new ApiError(
        'UMA_NOT_FOUND',
        `${body.senderUmaAddress} is not a sandbox sender: use $success.<currency>@${SANDBOX_SENDER_DOMAIN} (or $fail., $slow.)`,
        { details: { field: 'senderUmaAddress' } },
      );
    }
    const m = this.tx.manager;
    const customer = await m.findOne(CustomerEntity, {
      where: body.customerId
        ? { id: parseId('Customer', body.customerId) ?? '', platformId, deletedAt: IsNull() }
        : { umaAddress: body.receiverUmaAddress, platformId, deletedAt: IsNull() },
    });
    if (!customer) {
      throw body.customerId
        ? new ApiError('CUSTOMER_NOT_FOUND', `Customer ${body.customerId} not found`)
        : new ApiError('UMA_NOT_FOUND', `No customer of the platform has the UMA address ${body.receiverUmaAddress}`);
    }
    const account = await m.findOne(InternalAccountEntity, {
      where: { platformId, customerId: customer.id, currency: body.receivingCurrencyCode },
      order: { id: 'ASC' },
    });
    if (!account) {
      throw new ApiError(
        'INVALID_CURRENCY',
        `Customer ${formatId('Customer', customer.id)} has no ${body.receivingCurrencyCode} internal account`,
        { details: { currency: body.receivingCurrencyCode } },
      );
    }
    const { transactionId } = await this.receive({
      platformId,
      accountId: formatId('InternalAccount', account.id),
      amount: String(body.receivingCurrencyAmount),
      currency: body.receivingCurrencyCode,
      senderUmaAddress: body.senderUmaAddress,
      receiverUmaAddress: customer.umaAddress,
      counterpartyInformation: { FULL_NAME: 'Sandbox Sender', NATIONALITY: 'US' },
      reference: `SANDBOX-${newUuid()}`,
      origin: 'SANDBOX',
    });
    const row = await m.findOneByOrFail(IncomingTransactionEntity, {
      id: parseId('Transaction', transactionId)!,
      platformId,
    });
    return this.view(m, row);
  }

  /** `POST /transactions/{id}/approve`: the platform approves a payment awaiting its decision. */
  approve(
    platformId: string,
    transactionId: string,
    receiverCustomerInfo?: JsonObject,
  ): Promise<IncomingTransactionView> {
    return this.decideByPlatform(platformId, transactionId, { kind: 'APPROVE', receiverCustomerInfo });
  }

  /** `POST /transactions/{id}/reject`: the platform rejects it (FAILED, COMPLIANCE_REJECTED). */
  reject(platformId: string, transactionId: string, reason?: string): Promise<IncomingTransactionView> {
    return this.decideByPlatform(platformId, transactionId, {
      kind: 'FAIL',
      reason: 'COMPLIANCE_REJECTED',
      ...(reason ? { note: reason } : {}),
    });
  }

  /**
   * The worker's step for a row it locked: a PENDING payment past its window fails
   * (PAYMENT_APPROVAL_TIMED_OUT); a PROCESSING one due to settle completes. `now` is the platform's time.
   */
  async runDue(m: EntityManager, row: IncomingTransactionEntity, now: BusinessTime): Promise<boolean> {
    if (row.status === 'PENDING' && row.decideBy !== null && row.decideBy <= now) {
      await this.fail(m, row, 'PAYMENT_APPROVAL_TIMED_OUT', now);
      return true;
    }
    if (row.status === 'PROCESSING' && row.settlesBusinessAt !== null && row.settlesBusinessAt <= now) {
      await this.complete(m, row, now);
      return true;
    }
    return false;
  }

  /** Renders one incoming transaction. */
  async view(m: EntityManager, row: IncomingTransactionEntity): Promise<IncomingTransactionView> {
    const ids = await platformCustomerIds(m, row.platformId, [row.customerId]);
    return renderIncomingTransaction(row, ownerOf(row.platformId, row.customerId, ids));
  }

  /** Sends the approval webhook and applies its answer; answers the status afterwards. */
  private async ask(row: IncomingTransactionEntity, claimed: ClaimedEvent): Promise<string> {
    const attempt = await this.direct.send(claimed);
    const decision = answerOf(attempt);
    return this.tx.runDetached(async (m) => {
      const locked = await this.lock(m, row.platformId, row.id);
      if (!locked || !awaitingDecision(locked)) return locked?.status ?? row.status; // decided meanwhile
      const now = await this.platformNow(m, row.platformId);
      if (decision === 'DEFER') {
        // 202 (or no endpoint): the window runs from the answer.
        locked.decideBy = later(now, this.windowMs());
        locked.updatedAt = now;
        await this.save(m, locked);
        return locked.status;
      }
      await this.apply(m, locked, decision, now);
      return locked.status;
    });
  }

  private decideByPlatform(
    platformId: string,
    transactionId: string,
    decision: Decision,
  ): Promise<IncomingTransactionView> {
    return this.tx.run(async (m) => {
      const row = await this.lock(m, platformId, transactionId);
      if (!row) {
        const outgoing = await m.findOne(OutgoingTransactionEntity, { where: { id: transactionId, platformId } });
        if (outgoing) {
          throw new ApiError(
            'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
            `Transaction ${formatId('Transaction', transactionId)} is an outgoing transaction: nothing to approve`,
            { details: { status: outgoing.status } },
          );
        }
        throw transactionNotFound(transactionId);
      }
      if (!awaitingDecision(row)) throw notPending(row, `it is ${row.status}`);
      const now = this.clock.now();
      // Past the window the timeout has won (the worker records it); the platform's call comes too late.
      if (row.decideBy !== null && row.decideBy <= now) throw notPending(row, 'the approval window has closed');
      noteAuditResource(formatId('Transaction', row.id));
      await this.apply(m, row, decision, now);
      return this.view(m, row);
    });
  }

  private async apply(m: EntityManager, row: IncomingTransactionEntity, decision: Decision, now: BusinessTime) {
    if (decision.kind === 'FAIL')
      return this.fail(m, row, decision.reason, now, decision.requestedFields, decision.note);
    if (decision.receiverCustomerInfo) row.receiverCustomerInfo = decision.receiverCustomerInfo;
    const sandbox = row.origin === 'SANDBOX' ? sandboxSenderOutcome(row.senderUmaAddress) : null;
    if (sandbox === 'fail') return this.fail(m, row, 'QUOTE_EXECUTION_FAILED', now);
    if (sandbox === 'slow') {
      row.status = 'PROCESSING';
      row.decideBy = null;
      row.settlesBusinessAt = later(now, SANDBOX_SLOW_SETTLEMENT_MS);
      row.timeline = [...row.timeline, step('PROCESSING', now)];
      row.updatedAt = now;
      await this.save(m, row);
      // Approved, settling later: INCOMING_PAYMENT.PROCESSING with the state change.
      await this.outbox.write(m, incomingPayment(row.platformId, 'PROCESSING', await this.view(m, row)));
      return;
    }
    return this.complete(m, row, now);
  }

  /** Credits the receiver from the origin's clearing account: COMPLETED, INCOMING_PAYMENT.COMPLETED. */
  private async complete(m: EntityManager, row: IncomingTransactionEntity, now: BusinessTime): Promise<void> {
    const clearing =
      row.origin === 'UMA' ? 'UMA_SETTLEMENT' : row.origin === 'BANK' ? 'RAIL_CLEARING' : 'SANDBOX_FUNDING';
    const amount = BigInt(row.receivedAmount);
    // Two statements (docs/ledger.md): the receiver's account locked with its customer's
    // platformCustomerId read, then the credit, the transaction and its event in one write.
    const lock = new Statement();
    let locked: Locked;
    let work: LedgerWork;
    try {
      locked = await this.ledger.lock(m, {
        platformId: row.platformId,
        statement: lock,
        accountIds: [row.destinationAccountId],
        outputs: {
          customer: `SELECT platform_customer_id FROM customers
                      WHERE id = ${lock.p(row.customerId, 'uuid')} AND platform_id = ${lock.p(row.platformId, 'uuid')}`,
        },
      });
      work = this.ledger.work(locked);
      this.ledger.move(work, {
        reason: INCOMING_PAYMENT_LEDGER_REASON,
        reference: formatId('Transaction', row.id),
        lines: [
          { account: { system: clearing, platformId: row.platformId, currency: row.currency }, amount: -amount },
          { account: { internalAccountId: row.destinationAccountId }, amount },
        ],
      });
    } catch (error) {
      // The account cannot take it (its balance would leave the safe range): nothing was written.
      if (error instanceof ApiError && row.origin !== 'BANK') return this.fail(m, row, 'OFFRAMP_FAILED', now);
      throw error;
    }
    row.status = 'COMPLETED';
    row.settledAt = now;
    row.decideBy = null;
    row.settlesBusinessAt = null;
    row.timeline = [...row.timeline, step('COMPLETED', now)];
    row.updatedAt = now;
    const customer = locked.outputs.customer;
    const ids =
      row.customerId !== null && typeof customer === 'string'
        ? new Map([[row.customerId, customer]])
        : new Map<string, string>();
    const view = renderIncomingTransaction(row, ownerOf(row.platformId, row.customerId, ids));
    const s = new Statement();
    s.with(
      'incoming',
      updateSql(m, s, IncomingTransactionEntity, row, {
        status: row.status,
        failureReason: row.failureReason,
        requestedFields: row.requestedFields,
        receiverCustomerInfo: row.receiverCustomerInfo,
        decideBy: row.decideBy,
        settlesBusinessAt: row.settlesBusinessAt,
        settledAt: row.settledAt,
        timeline: row.timeline,
        updatedAt: row.updatedAt,
      }),
    );
    await this.ledger.write(m, work, {
      statement: s,
      events: [this.outbox.prepare(incomingPayment(row.platformId, 'COMPLETED', view))],
    });
    await this.hookOf(row).onDecided(m, this.decisionOf(row));
  }

  private async fail(
    m: EntityManager,
    row: IncomingTransactionEntity,
    reason: string,
    now: BusinessTime,
    requestedFields?: string[],
    note?: string,
  ): Promise<void> {
    row.status = 'FAILED';
    row.failureReason = reason;
    row.requestedFields = requestedFields ?? null;
    row.decideBy = null;
    row.settlesBusinessAt = null;
    row.timeline = [...row.timeline, step('FAILED', now, note ? `${reason}: ${note}` : reason)];
    row.updatedAt = now;
    await this.save(m, row);
    await this.outbox.write(m, incomingPayment(row.platformId, 'FAILED', await this.view(m, row)));
    await this.hookOf(row).onDecided(m, this.decisionOf(row));
  }

  private decisionOf(row: IncomingTransactionEntity): IncomingDecision {
    return {
      transactionId: formatId('Transaction', row.id),
      platformId: row.platformId,
      reference: row.reference ?? '',
      ...(row.settlement ? { settlement: row.settlement } : {}),
      outcome: row.status === 'COMPLETED' ? 'COMPLETED' : 'FAILED',
      ...(row.failureReason ? { failureReason: row.failureReason } : {}),
      ...(row.requestedFields ? { receiverFields: row.requestedFields } : {}),
    };
  }

  private hookOf(row: IncomingTransactionEntity): IncomingSettlementHook {
    return (row.origin && this.hooks.get(row.origin)) || this.defaultHook;
  }

  private async save(m: EntityManager, row: IncomingTransactionEntity): Promise<void> {
    await m.update(
      IncomingTransactionEntity,
      { id: row.id, platformId: row.platformId },
      {
        status: row.status,
        failureReason: row.failureReason,
        requestedFields: row.requestedFields,
        receiverCustomerInfo: row.receiverCustomerInfo,
        decideBy: row.decideBy,
        settlesBusinessAt: row.settlesBusinessAt,
        settledAt: row.settledAt,
        timeline: row.timeline,
        updatedAt: row.updatedAt,
      },
    );
  }

  private lock(m: EntityManager, platformId: string, id: string): Promise<IncomingTransactionEntity | null> {
    return m.findOne(IncomingTransactionEntity, { where: { id, platformId }, lock: { mode: 'pessimistic_write' } });
  }

  private byReference(m: EntityManager, platformId: string, reference: string) {
    return m.findOne(IncomingTransactionEntity, { where: { platformId, reference } });
  }

  /** The platform's business time (its test clock, in the sandbox), outside any request of its own. */
  private async platformNow(m: EntityManager, platformId: string): Promise<BusinessTime> {
    const [row] = await m.query<Array<{ now: Date | string }>>(
      `SELECT ${platformTimeSql(this.config.SANDBOX, '$1::uuid', '$2')} AS now`,
      [platformId, this.realClock.now()],
    );
    return new Date(row.now) as BusinessTime;
  }

  private windowMs(): number {
    return this.config.INCOMING_PAYMENT_APPROVAL_WINDOW_SECONDS * 1000;
  }
}

/** Waiting for the platform: PENDING and not a bank-rail payment. */
function awaitingDecision(row: IncomingTransactionEntity): boolean {
  return row.status === 'PENDING' && row.origin !== null && row.origin !== 'BANK';
}

/** What the webhook's answer says (the reference's incoming-payment webhook). */
function answerOf(attempt: AttemptRecord): Decision | 'DEFER' {
  if (attempt.status === null) {
    return attempt.error === ENDPOINT_NOT_SET ? 'DEFER' : { kind: 'FAIL', reason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' };
  }
  const body = parseObject(attempt.responseBody);
  if (attempt.status === 202 || attempt.status === 409) return 'DEFER';
  if (attempt.status >= 200 && attempt.status < 300) {
    const info = body?.receiverCustomerInfo;
    return { kind: 'APPROVE', ...(isObject(info) ? { receiverCustomerInfo: info as JsonObject } : {}) };
  }
  if (attempt.status === 403) {
    const why = typeof body?.reason === 'string' ? body.reason.slice(0, 200) : undefined;
    return { kind: 'FAIL', reason: 'COMPLIANCE_REJECTED', ...(why ? { note: why } : {}) };
  }
  if (attempt.status === 422) {
    const fields = Array.isArray(body?.requiredFields)
      ? body.requiredFields.filter((f): f is string => typeof f === 'string').slice(0, 50)
      : [];
    return { kind: 'FAIL', reason: 'MISSING_MANDATORY_PAYEE_DATA', requestedFields: fields };
  }
  return { kind: 'FAIL', reason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

const MAX_MINOR_UNITS = 9_007_199_254_740_991n;

/** 400 INVALID_INPUT with every malformed field at once. */
function checkInput(input: IncomingPaymentInput): { platformUuid: string; accountUuid: string; amount: bigint } {
  const errors: FieldError[] = [];
  const raw = String(input.platformId);
  const platformUuid = parseId('Platform', raw.startsWith('Platform:') ? raw : formatId('Platform', raw));
  if (platformUuid === null) errors.push(fieldError('platformId', 'must be a platform uuid'));
  const accountUuid = parseId('InternalAccount', input.accountId);
  if (accountUuid === null) errors.push(fieldError('accountId', 'must be an InternalAccount id'));
  const amount = /^[1-9][0-9]{0,15}$/.test(String(input.amount)) ? BigInt(input.amount) : 0n;
  if (amount <= 0n || amount > MAX_MINOR_UNITS)
    errors.push(fieldError('amount', 'must be a positive integer of minor units'));
  if (!/^[A-Z]{3,5}$/.test(input.currency)) errors.push(fieldError('currency', 'must be a currency code'));
  if (typeof input.reference !== 'string' || input.reference.length < 1 || input.reference.length > 255)
    errors.push(fieldError('reference', 'must be 1 to 255 characters'));
  if (!['SANDBOX', 'UMA', 'BANK'].includes(input.origin))
    errors.push(fieldError('origin', 'must be SANDBOX, UMA or BANK'));
  if (errors.length > 0 || accountUuid === null || platformUuid === null)
    throw invalidInput(errors, 'The incoming payment is malformed');
  return { platformUuid, accountUuid, amount };
}
