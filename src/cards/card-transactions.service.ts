import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { currencyInfo } from '../customers/currencies.js';
import { LedgerService, systemAccount } from '../ledger/ledger.service.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { PlatformConfigService } from '../platform-config/platform-config.service.js';
import { checkAuthorization, effectiveLimits, utcDay } from './card-limits.js';
import type { CardLimits, DayUsage } from './card-limits.js';
import { cardTransactionEvent } from './card-transaction-events.js';
import type {
  CardTransaction,
  ListCardTransactionsQuery,
  SandboxCardAuthorizationRequest,
  SandboxCardClearingRequest,
  SandboxCardReturnRequest,
  SandboxCardReversalRequest,
  SandboxCardSimulationResponse,
} from './card-transaction.dto.js';
import { CardTransactionEntity } from './card-transaction.entity.js';
import type { CardDeclinedReason, CardMerchantInfo, CardTransactionStatus } from './card-transaction.entity.js';
import type { CardEntity } from './card.entity.js';
import { CardsRepository } from './cards.repository.js';
import { CardIssuer } from './issuer/card-issuer.js';
import { noteAuditResource } from '../audit/audit-trail.js';

/** Ledger reasons of card money movements. */
export const CARD_LEDGER_REASONS = {
  hold: 'CARD_AUTHORIZATION',
  clearing: 'CARD_CLEARING',
  return: 'CARD_RETURN',
} as const;

/** What the day's limits count: the card's approved purchases authorized in [start, end). */
export const DAY_USAGE_SQL = `
  SELECT count(*)::int AS count, COALESCE(sum(authorized_amount), 0)::text AS spent
    FROM card_transactions
   WHERE card_id = $1 AND direction = 'DEBIT' AND status <> 'DECLINED' AND authorized_at >= $2 AND authorized_at < $3`;

/** Open (no clearing yet) or partially settled: what a clearing may act on. */
const CLEARABLE: ReadonlySet<CardTransactionStatus> = new Set<CardTransactionStatus>([
  'AUTHORIZED',
  'PARTIALLY_SETTLED',
]);

interface Simulated {
  issuerTransactionToken: string;
  txn: CardTransactionEntity;
  /** Whether to write the transaction's `CARD_TRANSACTION.<status>` event (new row or new status). */
  event: boolean;
}

/**
 * Card authorizations and what follows them (clearings, reversals, expiries, returns), driven by
 * the sandbox simulations, and the card's transaction list. Each operation is one transaction that
 * locks the card row first (so a card's authorizations are serialized and its limits never
 * overshoot), then the card transaction, then (through the ledger) the funding account; it writes
 * the card transaction, the ledger movement and the `CARD_TRANSACTION.*` event together.
 */
@Injectable()
export class CardTransactionsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly cards: CardsRepository,
    private readonly config: PlatformConfigService,
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly issuer: CardIssuer,
    private readonly clock: Clock,
    private readonly metrics: MetricsService,
  ) {}

  /**
   * An authorization: declined (`CARD_NOT_ACTIVE`, `SPEND_LIMIT_EXCEEDED`, `INSUFFICIENT_FUNDS`, or
   * what the issuer forced) or approved with a hold on the funding source. Either way a card
   * transaction is recorded and its event written.
   */
  authorize(
    platformId: string,
    cardUuid: string,
    body: SandboxCardAuthorizationRequest,
  ): Promise<SandboxCardSimulationResponse> {
    const decided = this.simulate(platformId, cardUuid, async (m, card, limits) => {
      if (body.currency.code !== card.currency)
        throw invalidInput([fieldError('currency.code', `the card transacts in ${card.currency}`)]);
      const amount = BigInt(body.amount);
      const merchant = merchantOf(body.merchant);
      const issued = await this.issuer.authorize({ card, amount, currency: card.currency, merchant });
      const now = this.clock.now();
      const txn = this.newTransaction(card, {
        amount,
        merchant,
        issuerTransactionToken: issued.issuerTransactionToken,
        pullOutcome: issued.pullOutcome,
        now,
      });
      let declined: CardDeclinedReason | null = issued.declinedReason;
      if (declined === null && (card.status !== 'ACTIVE' || card.fundingDetachedAt !== null))
        declined = 'CARD_NOT_ACTIVE';
      if (declined === null) {
        const usage = await this.dayUsage(m, card.id, now);
        if (!checkAuthorization(amount, limits, usage).approved) declined = 'SPEND_LIMIT_EXCEEDED';
      }
      if (declined === null) {
        try {
          const { hold } = await this.ledger.placeHold(m, {
            accountId: card.fundingSourceId,
            amount,
            reason: CARD_LEDGER_REASONS.hold,
            reference: formatId('Transaction', txn.id),
          });
          txn.holdId = hold.id;
        } catch (error) {
          // placeHold checks before it writes: the transaction goes on and records the decline.
          if (!(error instanceof ApiError) || error.code !== 'INSUFFICIENT_FUNDS') throw error;
          declined = 'INSUFFICIENT_FUNDS';
        }
      }
      if (declined !== null) {
        txn.status = 'DECLINED';
        txn.declinedReason = declined;
      }
      await m.insert(CardTransactionEntity, txn);
      return { issuerTransactionToken: issued.issuerTransactionToken, txn, event: true };
    });
    // Counted once committed (`card_authorizations_total{outcome="approved"|"declined"}`).
    return decided.then((res) => {
      this.metrics.cardAuthorizations.inc({
        outcome: res.cardTransaction.status === 'DECLINED' ? 'declined' : 'approved',
      });
      return res;
    });
  }

  /**
   * A clearing against an AUTHORIZED or PARTIALLY_SETTLED purchase. Below what is still held it
   * settles partially (the rest stays held); at or above it, it settles the transaction (anything
   * above the hold is pulled from the available balance; when that does not cover it, the
   * transaction ends EXCEPTION with the hold captured and the service absorbing the rest). An
   * amount of 0 acts as an expiry: an untouched authorization is VOIDED, a partially settled one
   * SETTLED, and the hold is released.
   */
  clear(
    platformId: string,
    cardUuid: string,
    body: SandboxCardClearingRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.simulate(platformId, cardUuid, async (m, card) => {
      const txn = await this.lockTransaction(m, card, body.cardTransactionId);
      if (txn.direction !== 'DEBIT' || !CLEARABLE.has(txn.status))
        throw notOpen(
          'cardTransactionId',
          `the card transaction is ${txn.status}: only AUTHORIZED or PARTIALLY_SETTLED ones clear`,
        );
      const amount = BigInt(body.amount);
      const { issuerTransactionToken } = await this.issuer.clear({
        card,
        issuerTransactionToken: txn.issuerTransactionToken,
        amount,
      });
      if (amount === 0n) {
        await this.expire(m, txn);
        return { issuerTransactionToken, txn, event: true };
      }
      const held = await this.heldFor(m, txn);
      const close = amount >= held;
      let pulled = true;
      if (txn.holdId !== null) {
        try {
          await this.ledger.captureHold(m, txn.holdId, {
            amount,
            close,
            reason: CARD_LEDGER_REASONS.clearing,
            reference: formatId('Transaction', txn.id),
            counter: systemAccount('CARD_SETTLEMENT', txn.platformId, txn.currency),
          });
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== 'INSUFFICIENT_FUNDS') throw error;
          // The post-hoc pull of the amount above the hold failed: take what is held, absorb the rest.
          await this.ledger.captureHold(m, txn.holdId, {
            amount: held,
            close: true,
            reason: CARD_LEDGER_REASONS.clearing,
            reference: formatId('Transaction', txn.id),
            counter: systemAccount('CARD_SETTLEMENT', txn.platformId, txn.currency),
          });
          pulled = false;
        }
      }
      txn.settledAmount = (BigInt(txn.settledAmount) + amount).toString();
      if (!pulled || txn.pullOutcome === 'CONFIRMATION_FAILS') txn.status = 'EXCEPTION';
      else txn.status = close ? 'SETTLED' : 'PARTIALLY_SETTLED';
      await this.save(m, txn);
      return { issuerTransactionToken, txn, event: true };
    });
  }

  /** A merchant reversal of (part of) an authorization nothing has settled against yet. */
  reverse(
    platformId: string,
    cardUuid: string,
    body: SandboxCardReversalRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.simulate(platformId, cardUuid, async (m, card) => {
      const txn = await this.lockOpenAuthorization(m, card, body.cardTransactionId);
      const held = await this.heldFor(m, txn);
      const amount = body.amount === undefined ? held : BigInt(body.amount);
      if (amount > held)
        throw invalidInput([fieldError('amount', `at most the open authorization (${held}) can be reversed`)]);
      const { issuerTransactionToken } = await this.issuer.reverse({
        card,
        issuerTransactionToken: txn.issuerTransactionToken,
        amount,
      });
      if (amount === held) {
        await this.expire(m, txn);
        return { issuerTransactionToken, txn, event: true };
      }
      // A partial reversal: still AUTHORIZED with a smaller hold (no status change, no event).
      await this.ledger.releaseHold(m, txn.holdId!, amount);
      txn.reversedAmount = (BigInt(txn.reversedAmount) + amount).toString();
      await this.save(m, txn);
      return { issuerTransactionToken, txn, event: false };
    });
  }

  /** The network lets an open authorization lapse: the hold is released, the transaction VOIDED. */
  expireAuthorization(
    platformId: string,
    cardUuid: string,
    cardTransactionId: string,
  ): Promise<SandboxCardSimulationResponse> {
    return this.simulate(platformId, cardUuid, async (m, card) => {
      const txn = await this.lockOpenAuthorization(m, card, cardTransactionId);
      const { issuerTransactionToken } = await this.issuer.reverse({
        card,
        issuerTransactionToken: txn.issuerTransactionToken,
        amount: await this.heldFor(m, txn),
      });
      await this.expire(m, txn);
      return { issuerTransactionToken, txn, event: true };
    });
  }

  /**
   * A merchant return against a purchase with something settled: at most the net settled amount
   * (settled minus returned). Credits the purchase's funding account and records a CREDIT card
   * transaction (SETTLED) linked by `originalTransactionId`; the purchase keeps its status.
   */
  refund(platformId: string, cardUuid: string, body: SandboxCardReturnRequest): Promise<SandboxCardSimulationResponse> {
    return this.simulate(platformId, cardUuid, async (m, card) => {
      const purchase = await this.lockTransaction(m, card, body.cardTransactionId);
      const settled = BigInt(purchase.settledAmount);
      if (purchase.direction !== 'DEBIT' || settled === 0n)
        throw notOpen('cardTransactionId', 'only a purchase with a settled clearing can be returned');
      const amount = BigInt(body.amount);
      const net = settled - BigInt(purchase.refundedAmount);
      if (amount > net)
        throw invalidInput([fieldError('amount', `at most the net settled amount (${net}) can be returned`)]);
      const { issuerTransactionToken } = await this.issuer.refund({
        card,
        issuerTransactionToken: purchase.issuerTransactionToken,
        amount,
      });
      const now = this.clock.now();
      const credit = this.newTransaction(card, {
        amount,
        merchant: purchase.merchant,
        issuerTransactionToken,
        pullOutcome: 'OK',
        now,
      });
      Object.assign(credit, {
        accountId: purchase.accountId,
        direction: 'CREDIT',
        status: 'SETTLED',
        settledAmount: amount.toString(),
        originalTransactionId: purchase.id,
      });
      await m.insert(CardTransactionEntity, credit);
      await this.ledger.transfer(m, {
        lines: [
          { account: systemAccount('CARD_SETTLEMENT', purchase.platformId, purchase.currency), amount: -amount },
          { account: { internalAccountId: purchase.accountId }, amount },
        ],
        reason: CARD_LEDGER_REASONS.return,
        reference: formatId('Transaction', credit.id),
      });
      purchase.refundedAmount = (BigInt(purchase.refundedAmount) + amount).toString();
      // The purchase keeps its status (no event); the return is its own SETTLED CREDIT transaction.
      await this.save(m, purchase);
      return { issuerTransactionToken, txn: credit, event: true };
    });
  }

  /** `GET /cards/{id}/transactions`: the card's transactions, newest first (404 for an unknown or foreign card). */
  async list(platformId: string, cardUuid: string, query: ListCardTransactionsQuery): Promise<Page<CardTransaction>> {
    const m = this.tx.manager;
    const card = await this.cards.find(m, platformId, cardUuid);
    if (!card) throw cardNotFound(cardUuid);
    const platformCustomerId = await this.platformCustomerId(m, card.customerId);
    const qb = m
      .createQueryBuilder(CardTransactionEntity, 't')
      .where('t.card_id = :cardId AND t.platform_id = :platformId', { cardId: card.id, platformId });
    return paginate(qb, query, (row) => renderCardTransaction(row, platformCustomerId));
  }

  /**
   * The frame of every simulation: lock the card (404 when unknown or another platform's), refuse
   * programs where the issuer decides (409), run `work`, then write the `CARD_TRANSACTION.<status>`
   * event of the transaction it returns (unless `work` says its status did not change) and render it.
   */
  private simulate(
    platformId: string,
    cardUuid: string,
    work: (m: EntityManager, card: CardEntity, limits: CardLimits) => Promise<Simulated>,
  ): Promise<SandboxCardSimulationResponse> {
    return this.tx.run(async (m) => {
      const card = await this.cards.lockForUpdate(m, platformId, cardUuid);
      if (!card) throw cardNotFound(cardUuid);
      const config = await this.config.cardSettings(m, platformId);
      if (config.cardProgram.authorizationDecisionMaker !== 'SERVICE')
        throw new ApiError(
          'CONFLICT',
          "The card's program has the card issuer make authorization decisions; the sandbox simulations support only programs where this service decides",
        );
      const limits = effectiveLimits(cardLimits(card), config.cardConfigs);
      const { issuerTransactionToken, txn, event } = await work(m, card, limits);
      const view = renderCardTransaction(txn, await this.platformCustomerId(m, card.customerId));
      noteAuditResource(view.id); // also when the simulation changes no status (no event)
      if (event) await this.outbox.write(m, cardTransactionEvent(platformId, view));
      return { issuerTransactionToken, cardTransaction: view };
    });
  }

  private newTransaction(
    card: CardEntity,
    input: {
      amount: bigint;
      merchant: CardMerchantInfo;
      issuerTransactionToken: string;
      pullOutcome: CardTransactionEntity['pullOutcome'];
      now: Date;
    },
  ): CardTransactionEntity {
    const txn = new CardTransactionEntity();
    Object.assign(txn, {
      id: newUuid(),
      platformId: card.platformId,
      cardId: card.id,
      customerId: card.customerId,
      accountId: card.fundingSourceId,
      direction: 'DEBIT',
      status: 'AUTHORIZED',
      declinedReason: null,
      originalTransactionId: null,
      issuerTransactionToken: input.issuerTransactionToken,
      currency: card.currency,
      merchant: input.merchant,
      authorizedAmount: input.amount.toString(),
      reversedAmount: '0',
      settledAmount: '0',
      refundedAmount: '0',
      holdId: null,
      pullOutcome: input.pullOutcome,
      authorizedAt: input.now,
      createdAt: input.now,
      updatedAt: input.now,
    } satisfies CardTransactionEntity);
    return txn;
  }

  /** The card's approved purchases of the UTC day containing `now`. */
  private async dayUsage(m: EntityManager, cardId: string, now: Date): Promise<DayUsage> {
    const { start, end } = utcDay(now);
    const [row] = await m.query<Array<{ count: number; spent: string }>>(DAY_USAGE_SQL, [cardId, start, end]);
    return { count: Number(row.count), spent: BigInt(row.spent) };
  }

  /** The card's transaction, locked; 404 TRANSACTION_NOT_FOUND when it is not this card's. */
  private async lockTransaction(m: EntityManager, card: CardEntity, publicId: string): Promise<CardTransactionEntity> {
    const id = parseId('Transaction', publicId);
    const txn =
      id === null
        ? null
        : await m.findOne(CardTransactionEntity, {
            where: { id, cardId: card.id, platformId: card.platformId },
            lock: { mode: 'pessimistic_write' },
          });
    if (!txn) throw new ApiError('TRANSACTION_NOT_FOUND', `Card transaction ${publicId} not found`);
    return txn;
  }

  /** A purchase still fully open (AUTHORIZED, nothing settled): 400 otherwise. */
  private async lockOpenAuthorization(
    m: EntityManager,
    card: CardEntity,
    publicId: string,
  ): Promise<CardTransactionEntity> {
    const txn = await this.lockTransaction(m, card, publicId);
    if (txn.direction !== 'DEBIT' || txn.status !== 'AUTHORIZED' || BigInt(txn.settledAmount) !== 0n)
      throw notOpen('cardTransactionId', `the card transaction is ${txn.status}, not an open authorization`);
    return txn;
  }

  /** What the transaction still holds (0 without a hold). */
  private async heldFor(m: EntityManager, txn: CardTransactionEntity): Promise<bigint> {
    if (txn.holdId === null) return 0n;
    const hold = await this.ledger.getHold(m, txn.holdId);
    return hold.status === 'OPEN' ? BigInt(hold.remaining) : 0n;
  }

  /**
   * Ends the authorization without (further) clearing: releases what is still held; an untouched
   * authorization becomes VOIDED (authorizedAmount 0), a partially settled one SETTLED.
   */
  private async expire(m: EntityManager, txn: CardTransactionEntity): Promise<void> {
    const held = await this.heldFor(m, txn);
    if (held > 0n) await this.ledger.releaseHold(m, txn.holdId!);
    if (BigInt(txn.settledAmount) === 0n) {
      txn.reversedAmount = (BigInt(txn.reversedAmount) + held).toString();
      txn.status = 'VOIDED';
    } else txn.status = 'SETTLED';
    await this.save(m, txn);
  }

  private async save(m: EntityManager, txn: CardTransactionEntity): Promise<void> {
    txn.updatedAt = this.clock.now();
    await m.update(
      CardTransactionEntity,
      { id: txn.id },
      {
        status: txn.status,
        reversedAmount: txn.reversedAmount,
        settledAmount: txn.settledAmount,
        refundedAmount: txn.refundedAmount,
        updatedAt: txn.updatedAt,
      },
    );
  }

  private async platformCustomerId(m: EntityManager, customerId: string): Promise<string> {
    const [row] = await m.query<Array<{ platform_customer_id: string }>>(
      'SELECT platform_customer_id FROM customers WHERE id = $1',
      [customerId],
    );
    return row.platform_customer_id;
  }
}

/** The API's CardTransaction (also the `data` of every `CARD_TRANSACTION.*` event). */
export function renderCardTransaction(row: CardTransactionEntity, platformCustomerId: string): CardTransaction {
  const currency = currencyInfo(row.currency);
  const amount = (value: string | bigint) => ({ amount: Number(value), currency });
  const settled = BigInt(row.settledAmount);
  const refunded = BigInt(row.refundedAmount);
  const view: CardTransaction = {
    type: 'CARD',
    id: formatId('Transaction', row.id),
    cardId: formatId('Card', row.cardId),
    customerId: formatId('Customer', row.customerId),
    platformCustomerId,
    issuerTransactionToken: row.issuerTransactionToken,
    status: row.status,
    direction: row.direction,
    description: row.merchant.descriptor,
    merchant: { ...row.merchant },
    authorizedAmount: amount(BigInt(row.authorizedAmount) - BigInt(row.reversedAmount)),
    accountId: formatId('InternalAccount', row.accountId),
    authorizedAt: row.authorizedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
  if (row.declinedReason !== null) view.cardDeclinedReason = row.declinedReason;
  if (row.originalTransactionId !== null)
    view.originalTransactionId = formatId('Transaction', row.originalTransactionId);
  if (settled > 0n) view.settledAmount = amount(settled);
  if (refunded > 0n) view.refundedAmount = amount(refunded);
  return view;
}

function cardLimits(card: CardEntity): CardLimits {
  const limit = (value: string | number | null) => (value === null ? null : Number(value));
  return {
    maxSpendPerTransaction: limit(card.maxSpendPerTransaction),
    maxSpendPerDay: limit(card.maxSpendPerDay),
    maxTransactionsPerDay: limit(card.maxTransactionsPerDay),
  };
}

/** The merchant as recorded: only the members the request had. */
function merchantOf(merchant: CardMerchantInfo): CardMerchantInfo {
  const out: CardMerchantInfo = { descriptor: merchant.descriptor };
  for (const key of ['mcc', 'city', 'state', 'country'] as const)
    if (merchant[key] !== undefined) out[key] = merchant[key];
  return out;
}

const cardNotFound = (cardUuid: string) => new ApiError('NOT_FOUND', `Card ${formatId('Card', cardUuid)} not found`);

/** 400 INVALID_INPUT naming the transaction: it is not in a state the simulation can act on. */
const notOpen = (field: string, message: string) => invalidInput([fieldError(field, message)]);
