import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { PlatformPrincipal } from '../auth/auth.decorators.js';
import { Clock, later, RealClock } from '../common/clock.js';
import { formatId, newUuid, parseId } from '../common/ids.js';
import type { Page } from '../common/pagination.js';
import { paginate } from '../common/pagination.js';
import { validateBody } from '../common/validate-body.js';
import { CustomersService } from '../customers/customers.service.js';
import { InternalAccountsService } from '../customers/internal-accounts.service.js';
import { TransactionService } from '../database/transaction.service.js';
import { ApiError } from '../errors/api-error.js';
import { fieldError, type FieldError } from '../errors/field-error.js';
import { invalidInput } from '../errors/validation-errors.js';
import { OutboxService, type OutboxWrite } from '../outbox/outbox.service.js';
import { PlatformConfigService } from '../platform-config/platform-config.service.js';
import type { Card, CardStatusHistoryEntry, ListCardsQuery } from './card.dto.js';
import { CardEntity, CardStatusHistoryEntity } from './card.entity.js';
import { cardStatusChange } from './card-events.js';
import {
  CardCreateRequest,
  CardUpdateRequest,
  cardCurrencyOf,
  fundingSourceProblem,
  issuanceRuleErrors,
  LIMIT_FIELDS,
  patchRuleErrors,
  type FundingAccount,
} from './card-requests.js';
import { renderCard } from './card.render.js';
import { judgePatch } from './card-state-machine.js';
import type { CardStatus, CardStatusReason, CardSubstatus } from './card.types.js';
import { CardsRepository } from './cards.repository.js';
import { CardIssuer } from './issuer/card-issuer.js';
import { noteAuditResource } from '../audit/audit-trail.js';

/** Sandbox provisioning completes about this long after issuance (the worker polls every second). */
export const PROVISIONING_DELAY_MS = 1000;

export const cardNotFound = (cardUuid: string) =>
  new ApiError('NOT_FOUND', `Card ${formatId('Card', cardUuid)} not found`);

/** A status change to record: its history entry and its CARD.STATUS_CHANGE event. */
export interface StatusChange {
  to: CardStatus;
  actor: string;
  substatus: CardSubstatus | null;
  reason: string | null;
  statusReason: CardStatusReason | null;
}

/**
 * How many times a PATCH reads the card and writes on the condition that it did not change since
 * (see `CardsService.update`) before it falls back to locking the card.
 */
export const PATCH_OPTIMISTIC_ATTEMPTS = 3;

/** A judged PATCH: the card after it, its rendering, whether anything is written, and for a status change the history entry and event. */
interface PatchPlan {
  next: CardEntity;
  view: Card;
  write: boolean;
  history: CardStatusHistoryEntity | null;
  event: OutboxWrite<'CARD.STATUS_CHANGE'> | null;
}

const hasError = (errors: FieldError[], field: string) => errors.some((e) => e.field === field);

/** The use cases of cards: issue, read, list, PATCH, status history. */
@Injectable()
export class CardsService {
  constructor(
    private readonly tx: TransactionService,
    private readonly cards: CardsRepository,
    private readonly settings: PlatformConfigService,
    private readonly customers: CustomersService,
    private readonly accounts: InternalAccountsService,
    private readonly outbox: OutboxService,
    private readonly issuer: CardIssuer,
    private readonly clock: Clock,
    private readonly realClock: RealClock,
  ) {}

  /**
   * POST /cards. Every FieldError together (body, program rules, funding source), then the
   * cardholder's KYC, then the live-card limits under the platform's issuance lock (so racing
   * issuances never exceed them). The card starts PROCESSING; creation is not a transition (no event).
   */
  async issue(principal: PlatformPrincipal, body: unknown): Promise<Card> {
    const { value, errors } = validateBody(CardCreateRequest, body);
    if (hasError(errors, 'body')) throw invalidInput(errors);
    const platformId = principal.platformId;
    return this.tx.run(async (m) => {
      const { cardProgram } = await this.settings.cardSettings(m, platformId);
      errors.push(...issuanceRuleErrors(value, cardProgram));
      const customerUuid = hasError(errors, 'customerId') ? null : parseId('Customer', value.customerId);
      const customer = customerUuid ? await this.customers.requireActive(m, platformId, customerUuid) : null;
      const fundingUuid = hasError(errors, 'fundingSource') ? null : parseId('InternalAccount', value.fundingSource);
      let funding: FundingAccount | null = null;
      if (customer && fundingUuid) {
        funding = await this.fundingAccount(m, platformId, fundingUuid);
        const problem = fundingSourceProblem(funding, customer.id);
        if (problem) errors.push(fieldError('fundingSource', problem));
      }
      if (errors.length || !customer || !fundingUuid || !funding) throw invalidInput(errors);
      if (customer.kycStatus !== 'APPROVED')
        throw new ApiError(
          'CARDHOLDER_KYC_NOT_APPROVED',
          `The cardholder's KYC status is ${customer.kycStatus}; a card needs APPROVED`,
        );

      await this.cards.lockIssuance(m, platformId);
      const live = await this.cards.countLive(m, platformId, customer.id);
      if (live.platform >= cardProgram.maxLiveCards)
        throw new ApiError(
          'CARD_LIMIT_REACHED',
          `The platform holds its maximum of ${cardProgram.maxLiveCards} live cards`,
        );
      if (cardProgram.oneLiveCardPerCardholder && live.customer > 0)
        throw new ApiError('CARD_LIMIT_REACHED', 'The cardholder already holds a live card (one per cardholder)');

      const id = newUuid();
      const now = this.clock.now();
      const currency = cardCurrencyOf(funding.currency);
      const issued = await this.issuer.requestCard({
        cardId: id,
        platformId,
        customerId: customer.id,
        currency,
        form: 'VIRTUAL',
        ...(value.threeDSecurePassword !== undefined ? { threeDSecurePassword: value.threeDSecurePassword } : {}),
      });
      const card: CardEntity = {
        id,
        platformId,
        customerId: customer.id,
        platformCardId: `card_${id.replace(/-/g, '')}`,
        status: 'PROCESSING',
        statusReason: null,
        form: 'VIRTUAL',
        ...issued,
        currency,
        fundingSourceId: fundingUuid,
        fundingDetachedAt: null,
        cardCapabilities: { ...cardProgram.cardCapabilities },
        maxSpendPerTransaction: value.maxSpendPerTransaction?.toString() ?? null,
        maxSpendPerDay: value.maxSpendPerDay?.toString() ?? null,
        maxTransactionsPerDay: value.maxTransactionsPerDay ?? null,
        // Infrastructure time: the worker claims it on RealClock, whatever the platform's test clock.
        provisioningDueAt:
          cardProgram.sandboxProvisioning === 'AUTOMATIC' ? later(this.realClock.now(), PROVISIONING_DELAY_MS) : null,
        provisioningOutcome: null,
        createdAt: now,
        updatedAt: now,
      };
      await this.cards.insert(m, card);
      noteAuditResource(formatId('Card', card.id));
      await this.cards.addHistory(
        m,
        this.historyEntry(
          card,
          null,
          {
            to: 'PROCESSING',
            actor: formatId('Token', principal.tokenId),
            substatus: null,
            reason: null,
            statusReason: null,
          },
          now,
        ),
      );
      return renderCard(card);
    });
  }

  async get(platformId: string, cardUuid: string): Promise<Card> {
    const card = await this.cards.find(this.tx, platformId, cardUuid); // one fixed statement, prepared
    if (!card) throw cardNotFound(cardUuid);
    return renderCard(card);
  }

  async list(platformId: string, query: ListCardsQuery): Promise<Page<Card>> {
    const qb = this.tx.manager.createQueryBuilder(CardEntity, 'c').where('c.platformId = :platformId', { platformId });
    const customerId = query.customerId ? parseId('Customer', query.customerId) : null;
    if (customerId) qb.andWhere('c.customerId = :customerId', { customerId });
    const accountId = query.accountId ? parseId('InternalAccount', query.accountId) : null;
    if (accountId) qb.andWhere('c.fundingSourceId = :accountId', { accountId });
    if (query.platformCardId !== undefined) qb.andWhere('c.platformCardId = :pcid', { pcid: query.platformCardId });
    if (query.status !== undefined) qb.andWhere('c.status = :status', { status: query.status });
    if (query.last4 !== undefined) qb.andWhere('c.last4 = :last4', { last4: query.last4 });
    return paginate(qb, query, renderCard);
  }

  async statusHistory(platformId: string, cardUuid: string): Promise<{ data: CardStatusHistoryEntry[] }> {
    const rows = await this.cards.history(this.tx.manager, platformId, cardUuid);
    if (rows.length === 0) throw cardNotFound(cardUuid);
    return { data: rows.map(renderHistoryEntry) };
  }

  /**
   * PATCH /cards/{id}, in two round trips on the common path: the card is read (with its row
   * version) without a transaction; every FieldError comes together and before the state is judged
   * (409); then one statement writes the change, its history entry and, for a status transition,
   * exactly one CARD.STATUS_CHANGE, only if the card is still the version read. When it changed in
   * between (the statement matched nothing, so wrote nothing), the PATCH reads and judges again (a
   * concurrent freeze then answers 409); after PATCH_OPTIMISTIC_ATTEMPTS such conflicts it locks
   * the card FOR UPDATE and does the same in a transaction, so it always gets through.
   */
  async update(principal: PlatformPrincipal, cardUuid: string, body: unknown): Promise<Card> {
    const request = validateBody(CardUpdateRequest, body);
    const platformId = principal.platformId;
    for (let attempt = 0; attempt < PATCH_OPTIMISTIC_ATTEMPTS; attempt++) {
      const read = await this.cards.findVersioned(this.tx, platformId, cardUuid);
      if (!read) throw cardNotFound(cardUuid);
      const plan = await this.planPatch(this.tx.manager, principal, read.card, request);
      if (!plan.write) return plan.view;
      const transition =
        plan.history && plan.event ? { history: plan.history, event: this.outbox.prepare(plan.event) } : undefined;
      if (await this.cards.updateIfVersion(this.tx, plan.next, read.version, transition)) return plan.view;
    }
    return this.tx.run(async (m) => {
      const card = await this.cards.lockForUpdate(m, platformId, cardUuid);
      if (!card) throw cardNotFound(cardUuid);
      const plan = await this.planPatch(m, principal, card, request);
      if (plan.write) await this.cards.update(m, plan.next, plan.history ?? undefined);
      if (plan.event) await this.outbox.write(m, plan.event);
      return plan.view;
    });
  }

  /**
   * What a PATCH does to `card` as read: the FieldErrors (thrown together), then the state's 409,
   * then the issuer calls, then the card after the change (and for a status change its history
   * entry and event). Nothing is written here. The issuer calls come before the write: when the
   * write finds the card changed and the PATCH is judged again, they may be made again, which is
   * harmless (each sets a state: the status, the password).
   */
  private async planPatch(
    m: EntityManager,
    principal: PlatformPrincipal,
    card: CardEntity,
    request: { value: CardUpdateRequest; errors: FieldError[] },
  ): Promise<PatchPlan> {
    const { value } = request;
    const errors = [...request.errors];
    const platformId = principal.platformId;
    if (!hasError(errors, 'body')) {
      // Rule 3 needs the program only for a fundingSource with a status.
      const decisionMaker =
        value.fundingSource !== undefined && value.status !== undefined
          ? (await this.settings.cardSettings(m, platformId)).cardProgram.authorizationDecisionMaker
          : 'SERVICE';
      errors.push(...patchRuleErrors(value, card.cardCapabilities, decisionMaker));
    }
    const fundingUuid =
      value.fundingSource === undefined || hasError(errors, 'fundingSource')
        ? null
        : parseId('InternalAccount', value.fundingSource);
    if (fundingUuid) {
      const problem = fundingSourceProblem(
        await this.fundingAccount(m, platformId, fundingUuid),
        card.customerId,
        card.currency,
      );
      if (problem) errors.push(fieldError('fundingSource', problem));
    }
    if (errors.length) throw invalidInput(errors);

    const refusal = judgePatch(card.status, value.status);
    if (refusal) throw new ApiError(refusal, refusalReason(refusal, card.status, value.status));

    const now = this.clock.now();
    const before = card.status;
    const next: CardEntity = { ...card };
    if (fundingUuid) next.fundingSourceId = fundingUuid;
    for (const f of LIMIT_FIELDS) {
      const limit = value[f];
      if (limit === undefined) continue;
      if (f === 'maxTransactionsPerDay') next.maxTransactionsPerDay = limit;
      else next[f] = limit === null ? null : String(limit);
    }
    if (value.threeDSecurePassword !== undefined)
      await this.issuer.setThreeDSecurePassword(card, value.threeDSecurePassword);
    const onlyPassword = value.threeDSecurePassword !== undefined;
    if (value.status === undefined) {
      // A password-only change writes nothing (the card did not change, not even updatedAt).
      if (!onlyPassword) next.updatedAt = now;
      return { next, view: renderCard(next), write: !onlyPassword, history: null, event: null };
    }
    await this.issuer.changeStatus(card, {
      status: value.status,
      substatus: value.substatus!,
      reason: value.reason!,
    });
    const statusReason = value.status === 'CLOSED' ? 'CLOSED_BY_PLATFORM' : null;
    return {
      ...this.transitioned(
        next,
        {
          to: value.status,
          actor: formatId('Token', principal.tokenId),
          substatus: value.substatus ?? null,
          reason: value.reason ?? null,
          statusReason,
        },
        before,
      ),
      write: true,
    };
  }

  /**
   * Moves a (locked) card to `change.to` and stores every other change made to `card`: its history
   * entry and exactly one CARD.STATUS_CHANGE with the card after the change. Closing ends the
   * funding binding. Used by provisioning (PATCH writes the same through `planPatch`).
   */
  async transition(
    m: EntityManager,
    card: CardEntity,
    change: StatusChange,
    from: CardStatus = card.status,
  ): Promise<Card> {
    const { next, history, view, event } = this.transitioned(card, change, from);
    await this.cards.update(m, next, history);
    await this.outbox.write(m, event);
    return view;
  }

  /** The card after `change` (now), its history entry and its CARD.STATUS_CHANGE; nothing written. */
  private transitioned(
    card: CardEntity,
    change: StatusChange,
    from: CardStatus,
  ): { next: CardEntity; view: Card; history: CardStatusHistoryEntity; event: OutboxWrite<'CARD.STATUS_CHANGE'> } {
    const now = this.clock.now();
    const next: CardEntity = { ...card, status: change.to, statusReason: change.statusReason, updatedAt: now };
    if (change.to === 'CLOSED') {
      next.fundingDetachedAt = now;
      next.provisioningDueAt = null;
      next.provisioningOutcome = null;
    }
    const view = renderCard(next);
    return {
      next,
      view,
      history: this.historyEntry(next, from, change, now),
      event: cardStatusChange(next.platformId, view),
    };
  }

  private historyEntry(
    card: CardEntity,
    from: CardStatus | null,
    change: StatusChange,
    at: Date,
  ): CardStatusHistoryEntity {
    return {
      id: newUuid(),
      cardId: card.id,
      platformId: card.platformId,
      actor: change.actor,
      fromStatus: from,
      toStatus: change.to,
      substatus: change.substatus,
      reason: change.reason,
      statusReason: change.statusReason,
      createdAt: at,
    };
  }

  /** The platform's internal account (any owner) as the funding rules need it, or null when unknown. */
  private async fundingAccount(
    m: EntityManager,
    platformId: string,
    accountUuid: string,
  ): Promise<FundingAccount | null> {
    try {
      return await this.accounts.find(m, platformId, accountUuid);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ACCOUNT_NOT_FOUND') return null;
      throw error;
    }
  }
}

function refusalReason(refusal: string, from: CardStatus, to: string | undefined): string {
  switch (refusal) {
    case 'CARD_ALREADY_CLOSED':
      return 'The card is already CLOSED';
    case 'CARD_NOT_MUTABLE':
      return 'The card is CLOSED and can no longer be changed';
    default:
      return `A ${from} card cannot move to ${to}`;
  }
}

export function renderHistoryEntry(row: CardStatusHistoryEntity): CardStatusHistoryEntry {
  const entry: CardStatusHistoryEntry = {
    at: row.createdAt.toISOString(),
    actor: row.actor,
    fromStatus: row.fromStatus,
    toStatus: row.toStatus,
  };
  if (row.substatus !== null) entry.substatus = row.substatus;
  if (row.reason !== null) entry.reason = row.reason;
  if (row.statusReason !== null) entry.statusReason = row.statusReason;
  return entry;
}
