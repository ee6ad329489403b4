import { Injectable, OnModuleInit } from '@nestjs/common';
import {
  createSha256Hash,
  generateNonce,
  getSignablePostTransactionCallback,
  parsePostTransactionCallback,
  signPayload,
  verifyPostTransactionCallbackSignature,
  type PostTransactionCallback,
} from '@uma-sdk/core';
import type { EntityManager } from 'typeorm';
import { AuditTrail, noteAuditActor, noteAuditResource } from '../audit/audit-trail.js';
import { type BusinessTime, Clock, later, RealClock } from '../common/clock.js';
import { AppConfig } from '../config/app-config.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import {
  IncomingPaymentsService,
  type IncomingDecision,
  type IncomingSettlementHook,
} from '../payments/incoming/incoming-payments.service.js';
import {
  type OutgoingFailureReason,
  OutgoingTransactionEntity,
} from '../payments/transactions/outgoing-transaction.entity.js';
import { QuoteExecutionService } from '../payments/quotes/quote-execution.service.js';
import { SettlementLayer, type SettlementPayment } from '../payments/quotes/uma-destination.js';
import { routeOf, routingHash } from '../database/routing-keys.js';
import { UmaAddressRoutes } from './uma-address-routes.js';
import { UmaKeysService } from './uma-keys.service.js';
import { fromUmaError, UmaVerifier } from './uma-verifier.js';

/**
 * PAYMENT (A to B) and DECISION (B to A) are callbacks; INQUIRY (A to B: what became of a payment?)
 * is answered at once by a signed STATUS in the response's body (docs/uma.md, reconciliation).
 */
export type SettlementKind = 'PAYMENT' | 'DECISION' | 'INQUIRY' | 'STATUS';

/** What A tells B: pay `amount` of `currency` to `receiver` (the reference is A's transaction). */
export interface PaymentMessage {
  reference: string;
  sender: string;
  receiver: string;
  currency: string;
  amount: string;
  payerData: Record<string, unknown>;
}

/** What B tells A: the receiving platform's decision on the payment `reference`. */
export interface DecisionMessage {
  reference: string;
  outcome: 'COMPLETED' | 'FAILED';
  /** Why the receiving side failed it (its incoming transaction's failureReason). */
  failureReason?: string;
  /** When the receiving platform answered 422: the payer data fields it asked for. */
  receiverFields?: string[];
}

/** What A asks B: what became of the payment `reference`? `final`: A gives up waiting after this answer. */
export interface InquiryMessage {
  reference: string;
  final: boolean;
}

/**
 * B's signed answer to an inquiry: CREDITED (the receiver's account was credited), REFUSED (B
 * failed or refused it; never credited), PENDING (B's platform is still deciding, or the receipt is
 * being finished), UNKNOWN (B has no record of it). `tombstoned`: B has recorded that it will never
 * credit this reference (a refusal, or an UNKNOWN answered to a final inquiry).
 */
export interface StatusMessage {
  reference: string;
  outcome: InquiryOutcome;
  tombstoned: boolean;
  failureReason?: string;
}
export type InquiryOutcome = 'CREDITED' | 'REFUSED' | 'PENDING' | 'UNKNOWN';
export const INQUIRY_OUTCOMES: readonly InquiryOutcome[] = ['CREDITED', 'REFUSED', 'PENDING', 'UNKNOWN'];

/** The tombstone's reason when a final inquiry found no record of the payment. */
export const UNKNOWN_AT_HORIZON = 'UNKNOWN_AT_HORIZON';

/** How a sender's UMA payment was resolved (uma_payments.resolution). */
export type SettlementResolution = 'DECISION' | 'REFUSED_CALLBACK' | 'INQUIRY' | 'OPERATOR';

/** A payment the receiver recorded (RECEIVED) or will never credit (TOMBSTONE). */
interface ReceiptRow {
  state: 'RECEIVED' | 'TOMBSTONE';
  platform_id: string | null;
  message: (PaymentMessage & { accountId: string }) | null;
  reason: string | null;
}

/** A verified envelope: who signed it, what kind, the parsed message. */
export interface VerifiedEnvelope {
  domain: string;
  kind: SettlementKind;
  message: unknown;
}

/**
 * A settlement callback on the wire: the message as JSON text, and an UMA post-transaction
 * callback (@uma-sdk/core) signed with the sending deployment's UMA signing key whose nonce ends
 * with the SHA-256 of that text, so the signature covers the message.
 */
export interface SettlementEnvelope {
  kind: SettlementKind;
  payload: string;
  callback: PostTransactionCallback;
}

/** The path every deployment receives settlement callbacks on (public, outside the versioned API). */
export const SETTLEMENT_PATH = '/.well-known/uma-settlement';

/**
 * The sandbox settlement layer between UMA deployments (docs/uma.md). Executing a quote to an UMA
 * address writes a PAYMENT callback to the receiver's deployment (`uma_settlement_messages`, in
 * the execution's transaction: the UMA area's outbox, delivered by UmaSettlementWorker, retried,
 * signed afresh at each attempt). The receiver verifies it and hands the payment to
 * `IncomingPaymentsService.receive` (idempotent per reference: a repeat never credits twice); the
 * receiving platform's decision comes back the same way as a DECISION callback, written by the
 * settlement hook inside the decision's transaction; the sender then completes its transaction,
 * or fails and refunds it exactly (`QuoteExecutionService.settle`).
 */
@Injectable()
export class UmaSettlementService extends SettlementLayer implements OnModuleInit {
  constructor(
    private readonly keys: UmaKeysService,
    private readonly verifier: UmaVerifier,
    private readonly tx: TransactionService,
    private readonly clock: Clock,
    private readonly realClock: RealClock,
    private readonly incoming: IncomingPaymentsService,
    private readonly payments: QuoteExecutionService,
    private readonly config: AppConfig,
    private readonly audit: AuditTrail,
  ) {
    super();
  }

  onModuleInit(): void {
    const hook: IncomingSettlementHook = { onDecided: (m, decision) => this.onDecided(m, decision) };
    this.incoming.registerSettlementHook('UMA', hook);
  }

  /** SettlementLayer: the PAYMENT callback to the receiver's deployment, in the execution's transaction. */
  async submit(m: EntityManager, payment: SettlementPayment, now: BusinessTime): Promise<void> {
    const [row] = await m.query<Array<{ sender_uma_address: string; receiver_domain: string; payer_data: object }>>(
      `SELECT sender_uma_address, receiver_domain, payer_data FROM uma_payments WHERE quote_id = $1 AND platform_id = $2`,
      [payment.quoteId, payment.platformId],
    );
    if (!row) throw new Error(`no UMA payment recorded for quote ${payment.quoteId}`);
    const since = this.realClock.now();
    await m.query(
      `UPDATE uma_payments SET status = 'SETTLING', settling_since = $3, inquiry_due_at = $4, updated_at = $2
        WHERE quote_id = $1 AND platform_id = $5`,
      [
        payment.quoteId,
        now,
        since,
        later(since, this.config.UMA_SETTLEMENT_INQUIRY_AFTER_SECONDS * 1000),
        payment.platformId,
      ],
    );
    const message: PaymentMessage = {
      reference: formatId('Transaction', payment.transactionId),
      sender: row.sender_uma_address,
      receiver: payment.umaAddress,
      currency: payment.currency,
      amount: payment.amount.toString(),
      payerData: row.payer_data as Record<string, unknown>,
    };
    await this.enqueue(m, payment.platformId, 'PAYMENT', message.reference, row.receiver_domain, message);
  }

  /** The settlement hook on the receiving side: the platform's decision goes back to the sender. */
  async onDecided(m: EntityManager, decision: IncomingDecision): Promise<void> {
    const senderDomain = decision.settlement?.senderDomain;
    const reference = decision.settlement?.reference;
    if (typeof senderDomain !== 'string' || typeof reference !== 'string') return;
    const message: DecisionMessage = {
      reference,
      outcome: decision.outcome,
      ...(decision.failureReason ? { failureReason: decision.failureReason } : {}),
      ...(decision.receiverFields?.length ? { receiverFields: decision.receiverFields } : {}),
    };
    await this.enqueue(m, decision.platformId, 'DECISION', `${senderDomain}/${reference}`, senderDomain, message);
  }

  /** Signs a message for delivery (a fresh nonce and timestamp at every attempt). */
  async sign(kind: SettlementKind, message: object): Promise<SettlementEnvelope> {
    const id = await this.keys.load();
    const payload = JSON.stringify(message);
    const hash = await createSha256Hash(new TextEncoder().encode(payload), true);
    const callback: PostTransactionCallback = {
      utxos: [{ utxo: (message as { reference: string }).reference, amountMsats: 0 }],
      vaspDomain: id.domain,
      signature: '',
      signatureNonce: `${generateNonce()}.${hash}`,
      signatureTimestamp: Math.floor(this.realClock.now().getTime() / 1000),
    };
    callback.signature = await signPayload(getSignablePostTransactionCallback(callback), id.signingKey);
    return { kind, payload, callback };
  }

  /**
   * `POST /.well-known/uma-settlement`: a settlement callback (or inquiry) from another deployment,
   * verified (timestamp, the sender's keys and chain, nonce, signature over the message) before
   * anything moves. Answers what was done; an INQUIRY is answered with a signed STATUS envelope.
   */
  async accept(body: unknown): Promise<Record<string, unknown>> {
    const { domain, kind, message } = await this.verifyEnvelope(body, ['PAYMENT', 'DECISION', 'INQUIRY']);
    if (kind === 'INQUIRY') return { ...(await this.answerInquiry(domain, message as InquiryMessage)) };
    return kind === 'PAYMENT'
      ? this.acceptPayment(domain, message as PaymentMessage)
      : this.acceptDecision(domain, message as DecisionMessage);
  }

  /**
   * Checks a signed envelope of one of `kinds` (the timestamp window, the signer's keys and chain
   * fetched from its domain, the nonce, the signature, and that the signature covers the message)
   * and answers who signed it and the parsed message. Used for callbacks and inquiries received,
   * and for the STATUS answer to an inquiry sent.
   */
  async verifyEnvelope(body: unknown, kinds: readonly SettlementKind[]): Promise<VerifiedEnvelope> {
    const envelope = body as Partial<SettlementEnvelope> | null;
    if (
      !envelope ||
      typeof envelope.kind !== 'string' ||
      !kinds.includes(envelope.kind) ||
      typeof envelope.payload !== 'string' ||
      typeof envelope.callback !== 'object' ||
      envelope.callback === null
    ) {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', 'A settlement message has kind, payload and callback');
    }
    let callback: PostTransactionCallback;
    try {
      callback = parsePostTransactionCallback(JSON.stringify(envelope.callback));
    } catch (error) {
      throw fromUmaError(error, 'MISSING_REQUIRED_UMA_PARAMETERS', 'Malformed settlement callback');
    }
    this.verifier.checkTimestamp(callback.signatureTimestamp, 'settlement callback');
    const domain = callback.vaspDomain.toLowerCase();
    const senderKeys = await this.verifier.counterpartyKeys(domain);
    let valid: boolean;
    try {
      valid = await verifyPostTransactionCallbackSignature(callback, senderKeys, this.verifier.nonces(domain));
    } catch (error) {
      throw fromUmaError(error, 'INVALID_SIGNATURE', 'The settlement callback was refused');
    }
    const hash = await createSha256Hash(new TextEncoder().encode(envelope.payload), true);
    if (!valid || callback.signatureNonce.split('.')[1] !== hash) {
      throw new ApiError(
        'INVALID_SIGNATURE',
        `The settlement callback's signature does not verify with the keys of ${domain}`,
      );
    }
    let message: unknown;
    try {
      message = JSON.parse(envelope.payload);
    } catch {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', 'The settlement callback carries no JSON message');
    }
    if (typeof message !== 'object' || message === null) {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', 'The settlement callback carries no JSON object');
    }
    return { domain, kind: envelope.kind, message };
  }

  /**
   * A PAYMENT callback: recorded first as this reference's receipt (RECEIVED, with the message and
   * the receiving account), unless a tombstone holds the reference (409 CONFLICT, `details.settlement`
   * CLOSED_WITHOUT_CREDIT: refused or given up, never credited); then handed to
   * `IncomingPaymentsService.receive`, idempotent by reference. A receiver that cannot take it
   * (UMA_NOT_FOUND, INVALID_RECEIVER) leaves a tombstone with that reason.
   */
  private async acceptPayment(senderDomain: string, message: PaymentMessage): Promise<Record<string, unknown>> {
    const id = await this.keys.load();
    if (
      typeof message.reference !== 'string' ||
      message.reference.length > 255 ||
      typeof message.receiver !== 'string' ||
      typeof message.currency !== 'string' ||
      typeof message.amount !== 'string' ||
      !/^[1-9][0-9]{0,17}$/.test(message.amount)
    ) {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', 'The payment callback is incomplete');
    }
    const reference = `${senderDomain}/${message.reference}`;
    let receipt = await this.receipt(reference);
    if (!receipt) {
      let account: { platform_id: string; id: string };
      try {
        account = await this.receiverAccount(message, id.domain);
      } catch (error) {
        if (error instanceof ApiError) await this.recordReceipt(reference, 'TOMBSTONE', null, null, error.code);
        throw error;
      }
      await this.recordReceipt(reference, 'RECEIVED', account.platform_id, { ...message, accountId: account.id }, null);
      receipt = await this.receipt(reference);
    }
    if (!receipt || receipt.state === 'TOMBSTONE') {
      throw new ApiError(
        'CONFLICT',
        `The payment ${message.reference} was closed on this deployment without a credit (${receipt?.reason ?? 'unknown'})`,
        { details: { settlement: 'CLOSED_WITHOUT_CREDIT', reason: receipt?.reason ?? null } },
      );
    }
    return this.receiveFrom(senderDomain, receipt);
  }

  /** Hands a recorded receipt to the incoming payments (idempotent: a repeat answers the same transaction). */
  private async receiveFrom(senderDomain: string, receipt: ReceiptRow): Promise<Record<string, unknown>> {
    const message = receipt.message!;
    noteAuditActor({ platformId: receipt.platform_id! }); // the callback's event goes on the receiving platform
    const result = await this.incoming.receive({
      platformId: receipt.platform_id!,
      accountId: formatId('InternalAccount', message.accountId),
      amount: message.amount,
      currency: message.currency,
      senderUmaAddress: typeof message.sender === 'string' ? message.sender : undefined,
      counterpartyInformation:
        message.payerData && typeof message.payerData === 'object' ? message.payerData : undefined,
      reference: `${senderDomain}/${message.reference}`,
      origin: 'UMA',
      settlement: { senderDomain, reference: message.reference },
    });
    noteAuditResource(result.transactionId);
    return { reference: message.reference, transactionId: result.transactionId, status: result.status };
  }

  /**
   * The account an incoming UMA payment credits (docs/uma.md, "Which account is credited"): the
   * receiver's internal account in the payment's currency that is not an embedded wallet (its
   * INTERNAL_FIAT account), the oldest if several; only when it has none in that currency, its
   * EMBEDDED_WALLET. Money reaches a wallet over UMA only when the wallet is the customer's one
   * account in the currency.
   */
  private async receiverAccount(message: PaymentMessage, domain: string): Promise<{ platform_id: string; id: string }> {
    if (message.receiver.split('@')[1]?.toLowerCase() !== domain) {
      throw new ApiError('INVALID_RECEIVER', `${message.receiver} is not an address of ${domain}`);
    }
    // Pinned on each platform the address routes to (UmaAddressRoutes); the oldest customer wins.
    const found = await UmaAddressRoutes.oldest(this.tx, message.receiver, (platformId) =>
      this.tx.query<Array<{ platform_id: string; account_id: string; id: string; created_at: Date }>>(
        `SELECT c.platform_id, a.id AS account_id, c.id, c.created_at
           FROM customers c
           JOIN internal_accounts a ON a.customer_id = c.id AND a.platform_id = c.platform_id AND a.currency = $2
          WHERE c.platform_id = $3 AND lower(c.uma_address) = lower($1) AND NOT c.is_deleted
          ORDER BY c.created_at, c.id, (a.type = 'EMBEDDED_WALLET'), a.created_at, a.id LIMIT 1`,
        [message.receiver, message.currency, platformId],
      ),
    );
    if (!found) {
      throw new ApiError('UMA_NOT_FOUND', `No receiver ${message.receiver} with a ${message.currency} account`);
    }
    return { platform_id: found.platform_id, id: found.account_id };
  }

  private async receipt(reference: string): Promise<ReceiptRow | null> {
    const [row] = await this.tx.query<ReceiptRow[]>(
      `SELECT state, platform_id, message, reason FROM uma_settlement_receipts WHERE reference = $1`,
      [reference],
    );
    return row ?? null;
  }

  /** Records a receipt or a tombstone unless the reference has one already; answers whether this one was recorded. */
  private async recordReceipt(
    reference: string,
    state: ReceiptRow['state'],
    platformId: string | null,
    message: object | null,
    reason: string | null,
  ): Promise<boolean> {
    const now = this.realClock.now();
    const inserted = await this.tx.query<unknown[]>(
      `INSERT INTO uma_settlement_receipts (reference, state, platform_id, message, reason, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (reference) DO NOTHING RETURNING reference`,
      [reference, state, platformId, message === null ? null : JSON.stringify(message), reason, now],
    );
    return inserted.length === 1;
  }

  /**
   * An INQUIRY from a sender: what became of its payment? Answered from the incoming transaction
   * when there is one; a receipt whose receiving was interrupted is finished first; a tombstone is
   * REFUSED (or UNKNOWN when it closed an unknown payment). No record: UNKNOWN, and when the inquiry
   * is final a tombstone is recorded first, so no later callback can credit what the sender
   * refunds. The receipt's primary key orders a racing PAYMENT and the tombstone: one wins.
   */
  async answerInquiry(senderDomain: string, inquiry: InquiryMessage): Promise<SettlementEnvelope> {
    if (typeof inquiry.reference !== 'string' || inquiry.reference.length > 255 || typeof inquiry.final !== 'boolean') {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', 'The inquiry is incomplete');
    }
    const reference = `${senderDomain}/${inquiry.reference}`;
    const status = await this.statusOf(senderDomain, reference, inquiry);
    return this.sign('STATUS', status);
  }

  private async statusOf(senderDomain: string, reference: string, inquiry: InquiryMessage): Promise<StatusMessage> {
    const answer = (outcome: InquiryOutcome, tombstoned: boolean, failureReason?: string | null): StatusMessage => ({
      reference: inquiry.reference,
      outcome,
      tombstoned,
      ...(failureReason ? { failureReason } : {}),
    });
    for (let round = 0; round < 3; round++) {
      // The receipt (a reference table) names the receiving platform: an incoming transaction of
      // the reference is only ever made from its receipt (receiveFrom), so it is looked for there.
      const receipt = await this.receipt(reference);
      const incoming =
        receipt?.state === 'RECEIVED' ? await this.incomingByReference(reference, receipt.platform_id!) : null;
      if (incoming) {
        if (incoming.status === 'COMPLETED') return answer('CREDITED', false);
        if (incoming.status === 'FAILED') return answer('REFUSED', true, incoming.failure_reason);
        return answer('PENDING', false);
      }
      if (receipt?.state === 'RECEIVED') {
        await this.receiveFrom(senderDomain, receipt); // interrupted: finish receiving it, then answer
        continue;
      }
      if (receipt?.state === 'TOMBSTONE') {
        return receipt.reason === UNKNOWN_AT_HORIZON
          ? answer('UNKNOWN', true, UNKNOWN_AT_HORIZON)
          : answer('REFUSED', true, receipt.reason);
      }
      if (!inquiry.final) return answer('UNKNOWN', false);
      if (await this.recordReceipt(reference, 'TOMBSTONE', null, null, UNKNOWN_AT_HORIZON)) {
        return answer('UNKNOWN', true, UNKNOWN_AT_HORIZON);
      }
      // A PAYMENT recorded its receipt meanwhile: look again.
    }
    return answer('PENDING', false);
  }

  private async incomingByReference(
    reference: string,
    platformId: string,
  ): Promise<{ status: string; failure_reason: string | null } | null> {
    const [row] = await this.tx.query<Array<{ status: string; failure_reason: string | null }>>(
      `SELECT status, failure_reason FROM incoming_transactions
        WHERE reference = $1 AND platform_id = $2 AND origin = 'UMA'
        ORDER BY created_at LIMIT 1`,
      [reference, platformId],
    );
    return row ?? null;
  }

  private async acceptDecision(senderDomain: string, message: DecisionMessage): Promise<Record<string, unknown>> {
    const uuid = typeof message.reference === 'string' ? parseId('Transaction', message.reference) : null;
    if (!uuid || (message.outcome !== 'COMPLETED' && message.outcome !== 'FAILED')) {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', 'The decision callback is incomplete');
    }
    return this.tx.run(async (m) => {
      const status = await this.decide(m, uuid, message.outcome, senderDomain, failureOf(message));
      return { reference: message.reference, status };
    });
  }

  /**
   * Applies the receiver's decision to the sender's transaction (locked): only the deployment the
   * payment went to may decide it; a repeated decision changes nothing.
   */
  async decide(
    m: EntityManager,
    transactionUuid: string,
    outcome: 'COMPLETED' | 'FAILED',
    fromDomain: string | null,
    failure: { reason?: OutgoingFailureReason; note?: string } = {},
  ): Promise<string> {
    return (await this.resolve(m, transactionUuid, outcome, { fromDomain, failure, resolution: 'DECISION' })).status;
  }

  /**
   * Resolves the sender's payment exactly once, in the caller's transaction: locks its
   * `uma_payments` row, then the transaction, and settles it (completed, or failed and refunded:
   * the state change, its postings, its events and its timeline step, with `failure.note` on the
   * step). `changed` is false when it was already resolved (the one that locked first won). A
   * resolution no request records (a worker's) is written to the audit trail here, with it
   * (`systemAudit`: the action, actor `system`).
   */
  async resolve(
    m: EntityManager,
    transactionUuid: string,
    outcome: 'COMPLETED' | 'FAILED',
    options: {
      fromDomain?: string | null;
      failure?: { reason?: OutgoingFailureReason; note?: string };
      resolution: SettlementResolution;
      platformId?: string;
      systemAudit?: string;
    },
  ): Promise<{ status: string; changed: boolean; platformId: string }> {
    const fromDomain = options.fromDomain ?? null;
    const failure = options.failure ?? {};
    const platformId = options.platformId;
    // A receiver's decision names only the transaction: its platform is routed (kind `uma_payment`).
    const shard = platformId ?? (await routeOf(m, 'uma_payment', routingHash(transactionUuid)));
    const found =
      shard === null
        ? []
        : await m.query<Array<{ quote_id: string; receiver_domain: string; platform_id: string }>>(
            `SELECT quote_id, receiver_domain, platform_id FROM uma_payments
              WHERE transaction_id = $1 AND platform_id = $2 FOR UPDATE`,
            [transactionUuid, shard],
          );
    const payment = found[0];
    if (
      !payment ||
      (fromDomain !== null && payment.receiver_domain !== fromDomain) ||
      (platformId !== undefined && payment.platform_id !== platformId)
    ) {
      throw new ApiError('TRANSACTION_NOT_FOUND', `Transaction ${formatId('Transaction', transactionUuid)} not found`);
    }
    const row = await m.findOne(OutgoingTransactionEntity, {
      where: { id: transactionUuid, platformId: payment.platform_id },
      lock: { mode: 'pessimistic_write' },
    });
    if (!row)
      throw new ApiError('TRANSACTION_NOT_FOUND', `Transaction ${formatId('Transaction', transactionUuid)} not found`);
    noteAuditResource(formatId('Transaction', row.id));
    noteAuditActor({ platformId: row.platformId }); // a decision callback: on the paying platform
    const before = row.status;
    const now = this.clock.now();
    const after = await this.payments.settle(m, row, outcome, now, failure);
    const changed = after.status !== before && (after.status === 'COMPLETED' || after.status === 'FAILED');
    if (changed) {
      if (after.status === 'COMPLETED' && failure.note) {
        // settle's COMPLETED step carries no note: the resolution's words go on it here
        const last = after.timeline[after.timeline.length - 1];
        after.timeline = [...after.timeline.slice(0, -1), { ...last, note: failure.note }];
        await m.update(
          OutgoingTransactionEntity,
          { id: after.id, platformId: payment.platform_id },
          { timeline: after.timeline },
        );
      }
      await m.query(
        `UPDATE uma_payments SET status = $2, resolution = $3, inquiry_due_at = NULL, updated_at = $4
          WHERE quote_id = $1 AND platform_id = $5`,
        [payment.quote_id, after.status, options.resolution, this.realClock.now(), payment.platform_id],
      );
      if (options.systemAudit) {
        await this.audit.recordSystem(m, payment.platform_id, options.systemAudit, [formatId('Transaction', row.id)]);
      }
    }
    return { status: after.status, changed, platformId: payment.platform_id };
  }

  private async enqueue(
    m: EntityManager,
    platformId: string,
    kind: SettlementKind,
    reference: string,
    targetDomain: string,
    message: object,
  ): Promise<void> {
    const now = this.realClock.now();
    await m.query(
      `INSERT INTO uma_settlement_messages (id, platform_id, kind, reference, target_domain, payload, status,
                                            attempts, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', 0, $7, $7, $7)
       ON CONFLICT (platform_id, kind, reference) DO NOTHING`,
      [newUuid(), platformId, kind, reference, targetDomain, JSON.stringify(message), now],
    );
  }
}

/**
 * How a FAILED decision shows on the sender's transaction: the receiving platform's refusal (403)
 * is COMPLIANCE_REJECTED, anything else ACCOUNT_CANNOT_RECEIVE; the status timeline notes the
 * receiver's reason and, after a 422, the payer data fields it asked for.
 */
function failureOf(message: DecisionMessage): { reason?: OutgoingFailureReason; note?: string } {
  if (message.outcome !== 'FAILED') return {};
  const reason = typeof message.failureReason === 'string' ? message.failureReason.slice(0, 100) : undefined;
  const fields = Array.isArray(message.receiverFields)
    ? message.receiverFields.filter((f): f is string => typeof f === 'string').slice(0, 50)
    : [];
  const note = [
    ...(reason ? [`the receiver reported ${reason}`] : []),
    ...(fields.length > 0 ? [`it asks for ${fields.map((f) => f.slice(0, 100)).join(', ')}`] : []),
  ].join('; ');
  return {
    ...(reason === 'COMPLIANCE_REJECTED' ? { reason: 'COMPLIANCE_REJECTED' as const } : {}),
    ...(note ? { note } : {}),
  };
}
