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
import { noteAuditActor, noteAuditResource } from '../audit/audit-trail.js';
import { type BusinessTime, Clock, RealClock } from '../common/clock.js';
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
import { UmaKeysService } from './uma-keys.service.js';
import { fromUmaError, UmaVerifier } from './uma-verifier.js';

export type SettlementKind = 'PAYMENT' | 'DECISION';

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
      `SELECT sender_uma_address, receiver_domain, payer_data FROM uma_payments WHERE quote_id = $1`,
      [payment.quoteId],
    );
    if (!row) throw new Error(`no UMA payment recorded for quote ${payment.quoteId}`);
    await m.query(`UPDATE uma_payments SET status = 'SETTLING', updated_at = $2 WHERE quote_id = $1`, [
      payment.quoteId,
      now,
    ]);
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
   * `POST /.well-known/uma-settlement`: a settlement callback from another deployment, verified
   * (timestamp, the sender's keys and chain, nonce, signature over the message) before anything
   * moves. Answers what was done.
   */
  async accept(body: unknown): Promise<Record<string, unknown>> {
    const envelope = body as Partial<SettlementEnvelope> | null;
    if (
      !envelope ||
      (envelope.kind !== 'PAYMENT' && envelope.kind !== 'DECISION') ||
      typeof envelope.payload !== 'string' ||
      typeof envelope.callback !== 'object' ||
      envelope.callback === null
    ) {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', 'A settlement callback has kind, payload and callback');
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
    return envelope.kind === 'PAYMENT'
      ? this.acceptPayment(domain, message as PaymentMessage)
      : this.acceptDecision(domain, message as DecisionMessage);
  }

  private async acceptPayment(senderDomain: string, message: PaymentMessage): Promise<Record<string, unknown>> {
    const id = await this.keys.load();
    if (
      typeof message.reference !== 'string' ||
      typeof message.receiver !== 'string' ||
      typeof message.currency !== 'string' ||
      typeof message.amount !== 'string' ||
      !/^[1-9][0-9]{0,17}$/.test(message.amount)
    ) {
      throw new ApiError('MISSING_REQUIRED_UMA_PARAMETERS', 'The payment callback is incomplete');
    }
    if (message.receiver.split('@')[1]?.toLowerCase() !== id.domain) {
      throw new ApiError('INVALID_RECEIVER', `${message.receiver} is not an address of ${id.domain}`);
    }
    const [account] = await this.tx.query<Array<{ platform_id: string; id: string }>>(
      `SELECT c.platform_id, a.id
         FROM customers c JOIN internal_accounts a ON a.customer_id = c.id AND a.currency = $2
        WHERE lower(c.uma_address) = lower($1) AND NOT c.is_deleted
        ORDER BY c.created_at, c.id, a.created_at, a.id LIMIT 1`,
      [message.receiver, message.currency],
    );
    if (!account) {
      throw new ApiError('UMA_NOT_FOUND', `No receiver ${message.receiver} with a ${message.currency} account`);
    }
    noteAuditActor({ platformId: account.platform_id }); // the callback's event goes on the receiving platform
    const result = await this.incoming.receive({
      platformId: account.platform_id,
      accountId: formatId('InternalAccount', account.id),
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
    const found = await m.query<Array<{ quote_id: string; receiver_domain: string }>>(
      `SELECT quote_id, receiver_domain FROM uma_payments WHERE transaction_id = $1 FOR UPDATE`,
      [transactionUuid],
    );
    const payment = found[0];
    if (!payment || (fromDomain !== null && payment.receiver_domain !== fromDomain)) {
      throw new ApiError('TRANSACTION_NOT_FOUND', `Transaction ${formatId('Transaction', transactionUuid)} not found`);
    }
    const row = await m.findOne(OutgoingTransactionEntity, {
      where: { id: transactionUuid },
      lock: { mode: 'pessimistic_write' },
    });
    if (!row)
      throw new ApiError('TRANSACTION_NOT_FOUND', `Transaction ${formatId('Transaction', transactionUuid)} not found`);
    noteAuditResource(formatId('Transaction', row.id));
    noteAuditActor({ platformId: row.platformId }); // a decision callback: on the paying platform
    const now = this.clock.now();
    const after = await this.payments.settle(m, row, outcome, now, failure);
    if (after.status === 'COMPLETED' || after.status === 'FAILED') {
      await m.query(`UPDATE uma_payments SET status = $2, updated_at = $3 WHERE quote_id = $1 AND status <> $2`, [
        payment.quote_id,
        after.status,
        now,
      ]);
    }
    return after.status;
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
       ON CONFLICT (kind, reference) DO NOTHING`,
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
