import { DelegatedKeysService } from '../embedded-wallets/delegated-keys.service.js';
import { activityPayload } from '../embedded-wallets/wallet-stamp.js';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import { Page, paginate } from '../common/pagination.js';
import { currencyInfo } from '../customers/currencies.js';
import { LedgerService, LedgerWork, systemAccount } from '../ledger/ledger.service.js';
import { hydrate, insertSql, Statement, updateSql } from '../database/statement.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { cardSettingsOf, cardSettingsSql, PlatformConfigService } from '../platform-config/platform-config.service.js';
import type { CardConfigs, CardProgram } from '../platform-config/card-program.js';
import { checkAuthorization, effectiveLimits, utcDay } from './card-limits.js';
import type { CardLimits, DayUsage } from './card-limits.js';
import { cardTransactionEvent } from './card-transaction-events.js';
import type {
  CardTransaction,
  ListCardTransactionsQuery,
  SandboxCardAdviceRequest,
  SandboxCardAuthorizationRequest,
  SandboxCardBalanceInquiryRequest,
  SandboxCardClearingRequest,
  SandboxCardReturnRequest,
  SandboxCardReversalRequest,
  SandboxCardSimulationResponse,
} from './card-transaction.dto.js';
import { CardTransactionEntity } from './card-transaction.entity.js';
import type { CardDeclinedReason, CardMerchantInfo, CardTransactionStatus } from './card-transaction.entity.js';
import { CardEntity } from './card.entity.js';
import { CardsRepository } from './cards.repository.js';
import { CardIssuer } from './issuer/card-issuer.js';
import type { AuthorizationKind } from './issuer/card-issuer.js';
import { noteAuditResource } from '../audit/audit-trail.js';

/** Ledger reasons of card money movements. */
export const CARD_LEDGER_REASONS = {
  hold: 'CARD_AUTHORIZATION',
  clearing: 'CARD_CLEARING',
  return: 'CARD_RETURN',
  /** A credit to the card (a credit authorization's clearing, a financial credit authorization). */
  credit: 'CARD_CREDIT',
  /** A return reversed by the network: the returned amount taken back. */
  returnReversal: 'CARD_RETURN_REVERSAL',
} as const;

/** The authorization-family messages that credit the card (a CREDIT card transaction). */
const CREDIT_KINDS: ReadonlySet<AuthorizationKind> = new Set<AuthorizationKind>([
  'CREDIT_AUTHORIZATION',
  'CREDIT_AUTHORIZATION_ADVICE',
  'FINANCIAL_CREDIT_AUTHORIZATION',
]);

/**
 * What the day's limits count: the card's approved purchases authorized in [start, end) (a balance
 * inquiry, the only 0-amount authorization, is none).
 */
export const DAY_USAGE_SQL = `
  SELECT count(*)::int AS count, COALESCE(sum(authorized_amount), 0)::text AS spent
    FROM card_transactions
   WHERE card_id = $1 AND platform_id = $4 AND direction = 'DEBIT' AND status <> 'DECLINED' AND authorized_amount > 0
     AND authorized_at >= $2 AND authorized_at < $3`;

/** Open (no clearing yet) or partially settled: what a clearing may act on. */
const CLEARABLE: ReadonlySet<CardTransactionStatus> = new Set<CardTransactionStatus>([
  'AUTHORIZED',
  'PARTIALLY_SETTLED',
]);

/** What a simulation's work gets from the locking statement. */
interface SimulationFrame {
  card: CardEntity;
  limits: CardLimits;
  work: LedgerWork;
  /** The card transaction the simulation names, locked (absent for an authorization). */
  txn?: CardTransactionEntity;
  /** With `{original: true}`: the transaction `txn` is linked to (a return's purchase), locked. */
  original?: CardTransactionEntity;
  /** The write statement the work adds its CTEs to. */
  statement: Statement;
  /** The card's velocity counters as stored: the UTC day (YYYY-MM-DD) they count, or null. */
  usage: { day: string | null; count: number; spent: bigint };
}

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
    private readonly delegatedKeys: DelegatedKeysService,
  ) {}

  /**
   * An authorization-family message (the kind, `AuthorizationKind`): declined (`CARD_NOT_ACTIVE`,
   * `SPEND_LIMIT_EXCEEDED`, `INSUFFICIENT_FUNDS`, or what the issuer forced) or approved with its
   * ledger effect: a hold on the funding source (an authorization), a pull to the platform's
   * CARD_SETTLEMENT account (a financial authorization: SETTLED at once), a push from it (a
   * financial credit authorization), nothing yet (a credit authorization or its advice: AUTHORIZED
   * until its clearing; a balance inquiry: a 0-amount authorization recorded VOIDED). Either way a
   * card transaction is recorded and its event written. Only purchases (authorizations and
   * financial authorizations) meet the card's limits and advance its day counters. Two statements
   * (docs/ledger.md): the card, its program, its funding account and its holder's
   * platformCustomerId locked and read in one; the ledger's work, the card transaction, the card's
   * day counters, the events and the audit event written in the other.
   */
  authorize(
    platformId: string,
    cardUuid: string,
    body: SandboxCardAuthorizationRequest | SandboxCardBalanceInquiryRequest,
    kind: AuthorizationKind = 'AUTHORIZATION',
  ): Promise<SandboxCardSimulationResponse> {
    const decided = this.simulate(platformId, cardUuid, null, async (m, { card, limits, work, usage, statement }) => {
      const amount = kind === 'BALANCE_INQUIRY' ? 0n : BigInt((body as SandboxCardAuthorizationRequest).amount);
      if (kind !== 'BALANCE_INQUIRY') {
        const { currency } = body as SandboxCardAuthorizationRequest;
        if (currency.code !== card.currency)
          throw invalidInput([fieldError('currency.code', `the card transacts in ${card.currency}`)]);
      }
      const credit = CREDIT_KINDS.has(kind);
      const purchase = kind === 'AUTHORIZATION' || kind === 'FINANCIAL_AUTHORIZATION';
      const merchant = merchantOf(body.merchant);
      const issued = await this.issuer.authorize({ card, amount, currency: card.currency, merchant, kind });
      const now = work.now;
      const txn = this.newTransaction(card, {
        amount,
        merchant,
        issuerTransactionToken: issued.issuerTransactionToken,
        // A credit has no pull whose confirmation could fail.
        pullOutcome: credit ? 'OK' : issued.pullOutcome,
        now,
      });
      if (credit) txn.direction = 'CREDIT';
      let declined: CardDeclinedReason | null = issued.declinedReason;
      if (declined === null && (card.status !== 'ACTIVE' || card.fundingDetachedAt !== null))
        declined = 'CARD_NOT_ACTIVE';
      const day = utcDate(now);
      let counted: DayUsage | null = null;
      if (declined === null && purchase) {
        counted = usage.day !== null && usage.day > day ? await this.dayUsage(m, card, now) : usageOn(usage, day);
        if (!checkAuthorization(amount, limits, counted).approved) declined = 'SPEND_LIMIT_EXCEEDED';
      }
      // A wallet-funded card: the card's ACTIVE delegated key signs the authorization (none: declined).
      if (declined === null && work.locked.accounts.get(card.fundingSourceId)?.type === 'EMBEDDED_WALLET') {
        const payload = activityPayload(
          formatId('Platform', platformId),
          'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
          {
            signWith: formatId('InternalAccount', card.fundingSourceId),
            cardId: formatId('Card', card.id),
            cardTransactionId: formatId('Transaction', txn.id),
            amount: amount.toString(),
            currency: card.currency,
          },
          now,
        );
        txn.walletAuthorization = await this.delegatedKeys.signAuthorization(
          m,
          card.platformId,
          card.id,
          card.fundingSourceId,
          payload,
        );
        if (txn.walletAuthorization === null) declined = 'NO_ELIGIBLE_FUNDING_SOURCE';
      }
      if (declined === null) {
        const reference = formatId('Transaction', txn.id);
        const settlement = systemAccount('CARD_SETTLEMENT', card.platformId, card.currency);
        const account = { internalAccountId: card.fundingSourceId };
        try {
          if (kind === 'AUTHORIZATION') {
            const { hold } = this.ledger.hold(work, {
              accountId: card.fundingSourceId,
              amount,
              reason: CARD_LEDGER_REASONS.hold,
              reference,
            });
            txn.holdId = hold.id;
          } else if (kind === 'FINANCIAL_AUTHORIZATION') {
            this.ledger.move(work, {
              lines: [
                { account, amount: -amount },
                { account: settlement, amount },
              ],
              reason: CARD_LEDGER_REASONS.clearing,
              reference,
            });
            txn.settledAmount = amount.toString();
            txn.status = txn.pullOutcome === 'CONFIRMATION_FAILS' ? 'EXCEPTION' : 'SETTLED';
          } else if (kind === 'FINANCIAL_CREDIT_AUTHORIZATION') {
            this.ledger.move(work, {
              lines: [
                { account: settlement, amount: -amount },
                { account, amount },
              ],
              reason: CARD_LEDGER_REASONS.credit,
              reference,
            });
            txn.settledAmount = amount.toString();
            txn.status = 'SETTLED';
          } else if (kind === 'BALANCE_INQUIRY') txn.status = 'VOIDED'; // nothing held, nothing moves
          // CREDIT_AUTHORIZATION(_ADVICE): AUTHORIZED, the money moves at its clearing.
        } catch (error) {
          // The ledger checks before it changes anything: the transaction records the decline.
          if (!(error instanceof ApiError) || error.code !== 'INSUFFICIENT_FUNDS') throw error;
          declined = 'INSUFFICIENT_FUNDS';
        }
      }
      if (declined !== null) {
        txn.status = 'DECLINED';
        txn.declinedReason = declined;
        txn.settledAmount = '0';
      } else if (purchase && (usage.day === null || usage.day <= day)) {
        // The card's velocity counters, advanced with the approval (never moved back to an earlier
        // day: a test clock set back counts that day from its transactions, above).
        this.advanceDayUsage(statement, card, day, counted!.count + 1, counted!.spent + amount);
      }
      statement.with('card_txn_insert', insertSql(m, statement, CardTransactionEntity, txn));
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
    return this.simulate(platformId, cardUuid, body.cardTransactionId, async (m, { card, work, txn, statement }) => {
      if (!CLEARABLE.has(txn!.status))
        throw notOpen(
          'cardTransactionId',
          `the card transaction is ${txn!.status}: only AUTHORIZED or PARTIALLY_SETTLED ones clear`,
        );
      const purchase = txn!;
      const amount = BigInt(body.amount);
      const { issuerTransactionToken } = await this.issuer.clear({
        card,
        issuerTransactionToken: purchase.issuerTransactionToken,
        amount,
      });
      if (amount === 0n) {
        this.expire(work, purchase, statement, m);
        return { issuerTransactionToken, txn: purchase, event: true };
      }
      if (purchase.direction === 'CREDIT') {
        // A credit authorization's clearing: the platform's CARD_SETTLEMENT account pays the card's
        // funding account; at or above what is still pending it settles the credit.
        const pending = openAmount(work, purchase);
        this.ledger.move(work, {
          lines: [
            { account: systemAccount('CARD_SETTLEMENT', purchase.platformId, purchase.currency), amount: -amount },
            { account: { internalAccountId: purchase.accountId }, amount },
          ],
          reason: CARD_LEDGER_REASONS.credit,
          reference: formatId('Transaction', purchase.id),
        });
        purchase.settledAmount = (BigInt(purchase.settledAmount) + amount).toString();
        purchase.status = amount >= pending ? 'SETTLED' : 'PARTIALLY_SETTLED';
        this.save(m, statement, purchase, work.now);
        return { issuerTransactionToken, txn: purchase, event: true };
      }
      const held = heldFor(work, purchase);
      const close = amount >= held;
      let pulled = true;
      if (purchase.holdId !== null) {
        const capture = (value: bigint, closing: boolean) =>
          this.ledger.capture(work, purchase.holdId!, {
            amount: value,
            close: closing,
            reason: CARD_LEDGER_REASONS.clearing,
            reference: formatId('Transaction', purchase.id),
            counter: systemAccount('CARD_SETTLEMENT', purchase.platformId, purchase.currency),
          });
        try {
          capture(amount, close);
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== 'INSUFFICIENT_FUNDS') throw error;
          // The post-hoc pull of the amount above the hold failed: take what is held, absorb the rest.
          capture(held, true);
          pulled = false;
        }
      }
      purchase.settledAmount = (BigInt(purchase.settledAmount) + amount).toString();
      if (!pulled || purchase.pullOutcome === 'CONFIRMATION_FAILS') purchase.status = 'EXCEPTION';
      else purchase.status = close ? 'SETTLED' : 'PARTIALLY_SETTLED';
      this.save(m, statement, purchase, work.now);
      return { issuerTransactionToken, txn: purchase, event: true };
    });
  }

  /** A merchant reversal of (part of) an authorization nothing has settled against yet. */
  reverse(
    platformId: string,
    cardUuid: string,
    body: SandboxCardReversalRequest,
  ): Promise<SandboxCardSimulationResponse> {
    return this.simulate(platformId, cardUuid, body.cardTransactionId, async (m, { card, work, txn, statement }) => {
      const purchase = requireOpenAuthorization(txn!);
      const held = openAmount(work, purchase);
      const amount = body.amount === undefined ? held : BigInt(body.amount);
      if (amount > held)
        throw invalidInput([fieldError('amount', `at most the open authorization (${held}) can be reversed`)]);
      const { issuerTransactionToken } = await this.issuer.reverse({
        card,
        issuerTransactionToken: purchase.issuerTransactionToken,
        amount,
      });
      if (amount === held) {
        this.expire(work, purchase, statement, m);
        return { issuerTransactionToken, txn: purchase, event: true };
      }
      // A partial reversal: still AUTHORIZED with a smaller hold (no status change, no event).
      if (purchase.holdId !== null) this.ledger.release(work, purchase.holdId, amount);
      purchase.reversedAmount = (BigInt(purchase.reversedAmount) + amount).toString();
      this.save(m, statement, purchase, work.now);
      return { issuerTransactionToken, txn: purchase, event: false };
    });
  }

  /** The network lets an open authorization lapse: the hold is released, the transaction VOIDED. */
  expireAuthorization(
    platformId: string,
    cardUuid: string,
    cardTransactionId: string,
  ): Promise<SandboxCardSimulationResponse> {
    return this.simulate(platformId, cardUuid, cardTransactionId, async (m, { card, work, txn, statement }) => {
      const purchase = requireOpenAuthorization(txn!);
      const { issuerTransactionToken } = await this.issuer.reverse({
        card,
        issuerTransactionToken: purchase.issuerTransactionToken,
        amount: openAmount(work, purchase),
      });
      this.expire(work, purchase, statement, m);
      return { issuerTransactionToken, txn: purchase, event: true };
    });
  }

  /**
   * A merchant return against a purchase with something settled: at most the net settled amount
   * (settled minus returned). Credits the purchase's funding account and records a CREDIT card
   * transaction (SETTLED) linked by `originalTransactionId`; the purchase keeps its status.
   */
  refund(platformId: string, cardUuid: string, body: SandboxCardReturnRequest): Promise<SandboxCardSimulationResponse> {
    return this.simulate(platformId, cardUuid, body.cardTransactionId, async (m, { card, work, txn, statement }) => {
      const purchase = txn!;
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
      const credit = this.newTransaction(card, {
        amount,
        merchant: purchase.merchant,
        issuerTransactionToken,
        pullOutcome: 'OK',
        now: work.now,
      });
      Object.assign(credit, {
        accountId: purchase.accountId,
        direction: 'CREDIT',
        status: 'SETTLED',
        settledAmount: amount.toString(),
        originalTransactionId: purchase.id,
      });
      this.ledger.move(work, {
        lines: [
          { account: systemAccount('CARD_SETTLEMENT', purchase.platformId, purchase.currency), amount: -amount },
          { account: { internalAccountId: purchase.accountId }, amount },
        ],
        reason: CARD_LEDGER_REASONS.return,
        reference: formatId('Transaction', credit.id),
      });
      statement.with('card_txn_insert', insertSql(m, statement, CardTransactionEntity, credit));
      purchase.refundedAmount = (BigInt(purchase.refundedAmount) + amount).toString();
      // The purchase keeps its status (no event); the return is its own SETTLED CREDIT transaction.
      this.save(m, statement, purchase, work.now);
      return { issuerTransactionToken, txn: credit, event: true };
    });
  }

  /**
   * An authorization advice: the network re-sizes an open authorization (AUTHORIZED or
   * PARTIALLY_SETTLED) to a new total `amount`; it informs, so nothing here declines it. Down: the
   * difference is reversed and released from the hold. Up: the hold grows in place by the
   * difference (`LedgerService.grow`), as far as the available balance covers it (a clearing of the rest may end EXCEPTION, as production's
   * post-hoc pull does), and the increase counts as the day's new spend (no decline: limits
   * decide authorizations, not advices). A total equal to what has settled closes a partially
   * settled one (SETTLED). A credit authorization's pending amount is re-sized the same way,
   * without a hold. Below what has already settled: 400. The event is written only when the status
   * changes (as for a partial reversal).
   */
  advise(platformId: string, cardUuid: string, body: SandboxCardAdviceRequest): Promise<SandboxCardSimulationResponse> {
    return this.simulate(
      platformId,
      cardUuid,
      body.cardTransactionId,
      async (m, { card, work, txn, statement, usage }) => {
        const auth = txn!;
        if (!CLEARABLE.has(auth.status))
          throw notOpen(
            'cardTransactionId',
            `the card transaction is ${auth.status}: only AUTHORIZED or PARTIALLY_SETTLED ones can be re-sized`,
          );
        const total = BigInt(body.amount);
        const settled = BigInt(auth.settledAmount);
        if (total < settled)
          throw invalidInput([fieldError('amount', `the new total cannot be below what has settled (${settled})`)]);
        const { issuerTransactionToken } = await this.issuer.advise({
          card,
          issuerTransactionToken: auth.issuerTransactionToken,
          amount: total,
        });
        const current = BigInt(auth.authorizedAmount) - BigInt(auth.reversedAmount);
        const delta = total - current;
        if (delta === 0n) return { issuerTransactionToken, txn: auth, event: false };
        if (delta > 0n) auth.authorizedAmount = (BigInt(auth.authorizedAmount) + delta).toString();
        else auth.reversedAmount = (BigInt(auth.reversedAmount) - delta).toString();
        if (auth.direction === 'DEBIT') {
          const held = heldFor(work, auth);
          const target = total - settled;
          if (target < held) this.ledger.release(work, auth.holdId!, held - target);
          else if (target > held && held > 0n) {
            // The hold grows in place (its id stays: a concurrent simulation locks it by the
            // transaction's hold_id), as far as the available balance covers.
            const account = work.account(auth.accountId);
            const available = BigInt(account.balance) - BigInt(account.held);
            const grow = target - held <= available ? target - held : available > 0n ? available : 0n;
            if (grow > 0n) this.ledger.grow(work, auth.holdId!, grow);
          }
          const day = utcDate(work.now);
          if (delta > 0n && (usage.day === null || usage.day <= day)) {
            const counted = usageOn(usage, day);
            this.advanceDayUsage(statement, card, day, counted.count, counted.spent + delta);
          }
        }
        const before = auth.status;
        if (auth.status === 'PARTIALLY_SETTLED' && total === settled) auth.status = 'SETTLED';
        this.save(m, statement, auth, work.now);
        return { issuerTransactionToken, txn: auth, event: auth.status !== before };
      },
    );
  }

  /**
   * A return reversal: the network takes back a settled return (the CREDIT card transaction a
   * return posted). The returned amount moves from the funding account back to the platform's
   * CARD_SETTLEMENT account and the return becomes VOIDED; when the available balance no longer
   * covers it, nothing moves (the service absorbs it) and the return ends EXCEPTION. Either way the
   * purchase's refundedAmount goes down by it, so it can be returned again.
   */
  reverseReturn(
    platformId: string,
    cardUuid: string,
    cardTransactionId: string,
  ): Promise<SandboxCardSimulationResponse> {
    return this.simulate(
      platformId,
      cardUuid,
      cardTransactionId,
      async (m, { card, work, txn, original, statement }) => {
        const ret = txn!;
        if (ret.direction !== 'CREDIT' || ret.originalTransactionId === null || ret.status !== 'SETTLED' || !original)
          throw notOpen(
            'cardTransactionId',
            `the card transaction is not a settled return (${ret.direction} ${ret.status}): name the CREDIT transaction the return posted`,
          );
        const amount = BigInt(ret.settledAmount);
        const { issuerTransactionToken } = await this.issuer.reverseRefund({
          card,
          issuerTransactionToken: ret.issuerTransactionToken,
          amount,
        });
        try {
          this.ledger.move(work, {
            lines: [
              { account: { internalAccountId: ret.accountId }, amount: -amount },
              { account: systemAccount('CARD_SETTLEMENT', ret.platformId, ret.currency), amount },
            ],
            reason: CARD_LEDGER_REASONS.returnReversal,
            reference: formatId('Transaction', ret.id),
          });
          ret.status = 'VOIDED';
          ret.reversedAmount = ret.authorizedAmount;
          ret.settledAmount = '0';
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== 'INSUFFICIENT_FUNDS') throw error;
          ret.status = 'EXCEPTION';
        }
        this.save(m, statement, ret, work.now);
        const refunded = BigInt(original.refundedAmount) - amount;
        original.refundedAmount = (refunded > 0n ? refunded : 0n).toString();
        this.save(m, statement, original, work.now, 'card_original_update');
        return { issuerTransactionToken, txn: ret, event: true };
      },
      { original: true },
    );
  }

  /** `GET /cards/{id}/transactions`: the card's transactions, newest first (404 for an unknown or foreign card). */
  async list(platformId: string, cardUuid: string, query: ListCardTransactionsQuery): Promise<Page<CardTransaction>> {
    const m = this.tx.manager;
    const card = await this.cards.find(m, platformId, cardUuid);
    if (!card) throw cardNotFound(cardUuid);
    const platformCustomerId = await this.platformCustomerId(m, platformId, card.customerId);
    const qb = m
      .createQueryBuilder(CardTransactionEntity, 't')
      .where('t.card_id = :cardId AND t.platform_id = :platformId', { cardId: card.id, platformId });
    return paginate(qb, query, (row) => renderCardTransaction(row, platformCustomerId));
  }

  /**
   * The frame of every simulation, two statements (docs/ledger.md, "The two-statement path"). The
   * first locks the card (404 when unknown or another platform's), the card transaction named by
   * `transactionId` (its public id; 404 TRANSACTION_NOT_FOUND when it is not this card's), the
   * funding account (id order) and the transaction's hold, and reads the platform's card program
   * (409 where the issuer decides) and the holder's platformCustomerId. `work` decides in memory
   * and adds its writes to the statement; the second statement writes them with the ledger's, the
   * `CARD_TRANSACTION.<status>` event of the transaction it returns (unless `work` says its status
   * did not change) and the request's audit event.
   */
  private simulate(
    platformId: string,
    cardUuid: string,
    transactionId: string | null,
    work: (m: EntityManager, frame: SimulationFrame) => Promise<Simulated>,
    options: { original?: boolean } = {},
  ): Promise<SandboxCardSimulationResponse> {
    return this.tx.run(async (m) => {
      const s = new Statement();
      const platform = s.p(platformId, 'uuid');
      s.with(
        'head',
        `SELECT * FROM cards WHERE id = ${s.p(cardUuid, 'uuid')} AND platform_id = ${platform} FOR UPDATE`,
      );
      const txnUuid = transactionId === null ? null : parseId('Transaction', transactionId);
      if (transactionId !== null)
        s.with(
          'card_txn',
          `SELECT t.* FROM card_transactions t
            WHERE t.id = ${s.p(txnUuid, 'uuid')} AND t.card_id = (SELECT id FROM head) AND t.platform_id = ${platform}
              FOR UPDATE`,
        );
      if (transactionId !== null && options.original)
        s.with(
          'card_original',
          `SELECT o.* FROM card_transactions o
            WHERE o.id = (SELECT original_transaction_id FROM card_txn) AND o.platform_id = ${platform}
              FOR UPDATE`,
        );
      const locked = await this.ledger.lock(m, {
        platformId,
        statement: s,
        accountsFrom:
          transactionId === null
            ? `SELECT funding_source_id FROM head WHERE status = 'ACTIVE' AND funding_detached_at IS NULL`
            : 'SELECT account_id FROM card_txn',
        ...(transactionId === null ? {} : { holdsFrom: 'SELECT hold_id FROM card_txn WHERE hold_id IS NOT NULL' }),
        outputs: {
          card: 'SELECT to_jsonb(h) FROM head h',
          ...(transactionId === null ? {} : { txn: 'SELECT to_jsonb(t) FROM card_txn t' }),
          ...(options.original ? { original: 'SELECT to_jsonb(o) FROM card_original o' } : {}),
          program: cardSettingsSql(platform),
          customer: `SELECT platform_customer_id FROM customers
                      WHERE id = (SELECT customer_id FROM head) AND platform_id = ${platform}`,
        },
      });
      const cardJson = locked.outputs.card as Record<string, unknown> | null;
      if (!cardJson) throw cardNotFound(cardUuid);
      const card = hydrate(m, CardEntity, cardJson);
      const program = locked.outputs.program as { card_program: CardProgram; card_configs: CardConfigs } | null;
      if (!program) throw new Error(`platform ${platformId} has no configuration row`);
      const config = cardSettingsOf(program.card_program, program.card_configs);
      if (config.cardProgram.authorizationDecisionMaker !== 'SERVICE')
        throw new ApiError(
          'CONFLICT',
          "The card's program has the card issuer make authorization decisions; the sandbox simulations support only programs where this service decides",
        );
      let txn: CardTransactionEntity | undefined;
      if (transactionId !== null) {
        const json = locked.outputs.txn as Record<string, unknown> | null;
        if (!json) throw new ApiError('TRANSACTION_NOT_FOUND', `Card transaction ${transactionId} not found`);
        txn = hydrate(m, CardTransactionEntity, json);
      }
      const originalJson = locked.outputs.original as Record<string, unknown> | null | undefined;
      const original = originalJson ? hydrate(m, CardTransactionEntity, originalJson) : undefined;
      const limits = effectiveLimits(cardLimits(card), config.cardConfigs);
      const statement = new Statement();
      const ledgerWork = this.ledger.work(locked);
      const result = await work(m, {
        card,
        limits,
        work: ledgerWork,
        txn,
        original,
        statement,
        usage: {
          day: (cardJson.day_usage_date as string | null) ?? null,
          count: Number(cardJson.day_usage_count ?? 0),
          spent: BigInt((cardJson.day_usage_spent as string | number | null) ?? 0),
        },
      });
      const view = renderCardTransaction(result.txn, locked.outputs.customer as string);
      noteAuditResource(view.id); // also when the simulation changes no status (no event)
      const events = result.event ? [this.outbox.prepare(cardTransactionEvent(platformId, view))] : [];
      await this.ledger.write(m, ledgerWork, { statement, events, last: true });
      return { issuerTransactionToken: result.issuerTransactionToken, cardTransaction: view };
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
      walletAuthorization: null,
      pullOutcome: input.pullOutcome,
      authorizedAt: input.now,
      createdAt: input.now,
      updatedAt: input.now,
    } satisfies CardTransactionEntity);
    return txn;
  }

  /**
   * The card's approved purchases of the UTC day containing `now`, from its transactions: only when a
   * sandbox test clock was set back before the day of the card's counters.
   */
  private async dayUsage(m: EntityManager, card: CardEntity, now: Date): Promise<DayUsage> {
    const { start, end } = utcDay(now);
    const [row] = await m.query<Array<{ count: number; spent: string }>>(DAY_USAGE_SQL, [
      card.id,
      start,
      end,
      card.platformId,
    ]);
    return { count: Number(row.count), spent: BigInt(row.spent) };
  }

  /**
   * Ends the authorization without (further) clearing: releases what is still held; an untouched
   * authorization becomes VOIDED (authorizedAmount 0), a partially settled one SETTLED.
   */
  private expire(work: LedgerWork, txn: CardTransactionEntity, s: Statement, m: EntityManager): void {
    const open = openAmount(work, txn);
    const held = heldFor(work, txn);
    if (held > 0n) this.ledger.release(work, txn.holdId!);
    if (BigInt(txn.settledAmount) === 0n) {
      txn.reversedAmount = (BigInt(txn.reversedAmount) + open).toString();
      txn.status = 'VOIDED';
    } else txn.status = 'SETTLED';
    this.save(m, s, txn, work.now);
  }

  /** The transaction's changed columns, as a CTE of the simulation's write statement. */
  private save(m: EntityManager, s: Statement, txn: CardTransactionEntity, now: Date, name = 'card_txn_update'): void {
    txn.updatedAt = now;
    s.with(
      name,
      updateSql(m, s, CardTransactionEntity, txn, {
        status: txn.status,
        authorizedAmount: txn.authorizedAmount,
        reversedAmount: txn.reversedAmount,
        settledAmount: txn.settledAmount,
        refundedAmount: txn.refundedAmount,
        holdId: txn.holdId,
        updatedAt: txn.updatedAt,
      }),
    );
  }

  /** The card's velocity counters set to `count` and `spent` for `day`, in the write statement. */
  private advanceDayUsage(statement: Statement, card: CardEntity, day: string, count: number, spent: bigint): void {
    statement.with(
      'card_day_usage',
      `UPDATE cards SET day_usage_date = ${statement.p(day, 'date')}, day_usage_count = ${statement.p(
        count,
        'int',
      )}, day_usage_spent = ${statement.p(spent.toString(), 'bigint')}
        WHERE id = ${statement.p(card.id, 'uuid')} AND platform_id = ${statement.p(card.platformId, 'uuid')}`,
    );
  }

  private async platformCustomerId(m: EntityManager, platformId: string, customerId: string): Promise<string> {
    const [row] = await m.query<Array<{ platform_customer_id: string }>>(
      'SELECT platform_customer_id FROM customers WHERE id = $1 AND platform_id = $2',
      [customerId, platformId],
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

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The counters' usage for `day`: theirs when they count it, none when they count an earlier day. */
function usageOn(usage: { day: string | null; count: number; spent: bigint }, day: string): DayUsage {
  return usage.day === day ? { count: usage.count, spent: usage.spent } : { count: 0, spent: 0n };
}

/** What the transaction still holds (0 without a hold), from the locked hold. */
function heldFor(work: LedgerWork, txn: CardTransactionEntity): bigint {
  if (txn.holdId === null) return 0n;
  const hold = work.hold(txn.holdId);
  return hold.status === 'OPEN' ? BigInt(hold.remaining) : 0n;
}

/**
 * What is still open on an authorization: a purchase's remaining hold, a credit authorization's
 * pending amount (authorized minus reversed minus settled).
 */
function openAmount(work: LedgerWork, txn: CardTransactionEntity): bigint {
  if (txn.direction === 'DEBIT') return heldFor(work, txn);
  const open = BigInt(txn.authorizedAmount) - BigInt(txn.reversedAmount) - BigInt(txn.settledAmount);
  return open > 0n ? open : 0n;
}

/** An authorization (a purchase or a credit) still fully open (AUTHORIZED, nothing settled): 400 otherwise. */
function requireOpenAuthorization(txn: CardTransactionEntity): CardTransactionEntity {
  if (txn.status !== 'AUTHORIZED' || BigInt(txn.settledAmount) !== 0n)
    throw notOpen('cardTransactionId', `the card transaction is ${txn.status}, not an open authorization`);
  return txn;
}
