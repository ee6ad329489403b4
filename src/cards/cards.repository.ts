import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { RealTime } from '../common/clock.js';
import { outboxInsertCtes, type PreparedEvent } from '../outbox/outbox.service.js';
import { changeStatement, type TransactionService } from '../database/transaction.service.js';
import { CardEntity, CardStatusHistoryEntity } from './card.entity.js';

/** Every `cards` column under the CardEntity member names, for plain queries (`SELECT ${CARD_COLUMNS} FROM cards`). */
export const CARD_COLUMNS = `id, platform_id AS "platformId", customer_id AS "customerId",
  platform_card_id AS "platformCardId", status, status_reason AS "statusReason", form, brand, last4,
  exp_month AS "expMonth", exp_year AS "expYear", currency, funding_source_id AS "fundingSourceId",
  funding_detached_at AS "fundingDetachedAt", card_capabilities AS "cardCapabilities",
  max_spend_per_transaction AS "maxSpendPerTransaction", max_spend_per_day AS "maxSpendPerDay",
  max_transactions_per_day AS "maxTransactionsPerDay", processor_ref AS "processorRef",
  issuer_ref AS "issuerRef", provisioning_due_at AS "provisioningDueAt",
  provisioning_outcome AS "provisioningOutcome", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** The same columns qualified by a table alias (for joins). */
const cardColumnsOf = (alias: string) =>
  CARD_COLUMNS.replace(/(^|,\s*)([a-z_0-9]+)/g, (_m, sep: string, col: string) => `${sep}${alias}.${col}`);

export const FIND_CARD_SQL = `SELECT ${CARD_COLUMNS} FROM cards WHERE id = $1 AND platform_id = $2`;
export const LOCK_CARD_SQL = `${FIND_CARD_SQL} FOR UPDATE`;
/**
 * FIND_CARD_SQL with the row's version (`xmin`, the transaction that wrote this row version, as
 * text): a write conditioned on `xmin = <version>` matches only the row as it was read. A
 * `SELECT ... FOR UPDATE` elsewhere does not change it; any committed UPDATE does.
 */
export const FIND_CARD_VERSIONED_SQL = `SELECT ${CARD_COLUMNS}, xmin::text AS "rowVersion" FROM cards WHERE id = $1 AND platform_id = $2`;

/** The columns every write sets: the key ($1, $2), then the mutable ones ($3 to $18, as UPDATE_CARD_SQL). */
const KEY_AND_MUTABLE_COLUMNS = `id, platform_id, status, status_reason, brand, last4, exp_month, exp_year,
  funding_source_id, funding_detached_at, max_spend_per_transaction, max_spend_per_day, max_transactions_per_day,
  processor_ref, issuer_ref, provisioning_due_at, provisioning_outcome, updated_at`;

const INSERT_SQL = `
  INSERT INTO cards (${KEY_AND_MUTABLE_COLUMNS}, customer_id, platform_card_id, form, currency, card_capabilities, created_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)`;

/** Writes every mutable column of a card (the identity, holder, capabilities and creation time never change). */
export const UPDATE_CARD_SQL = `
  UPDATE cards SET status = $3, status_reason = $4, brand = $5, last4 = $6, exp_month = $7, exp_year = $8,
    funding_source_id = $9, funding_detached_at = $10, max_spend_per_transaction = $11, max_spend_per_day = $12,
    max_transactions_per_day = $13, processor_ref = $14, issuer_ref = $15, provisioning_due_at = $16,
    provisioning_outcome = $17, updated_at = $18
  WHERE id = $1 AND platform_id = $2`;

const HISTORY_INSERT = `INSERT INTO card_status_history
    (id, card_id, platform_id, actor, from_status, to_status, substatus, reason, status_reason, created_at)`;

/**
 * The history row of the card a CTE `source` returned (`RETURNING id`), for a statement whose $2 is
 * the platform: id, actor, from, to, substatus, reason, statusReason, createdAt are `$first` on.
 */
const historyOf = (source: string, first: number) => {
  const $ = (i: number) => `$${first + i}`;
  return `${HISTORY_INSERT}
  SELECT ${$(0)}, ${source}.id, $2, ${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${$(5)}, ${$(6)}, ${$(7)} FROM ${source}`;
};

/** The UPDATE and its status-history row in one statement (one round trip for a status change). */
export const UPDATE_CARD_WITH_HISTORY_SQL = `
  WITH changed AS (${UPDATE_CARD_SQL} RETURNING id)
  ${historyOf('changed', 19)}`;

/** UPDATE_CARD_SQL only where the row is still the version read ($19, FIND_CARD_VERSIONED_SQL's). */
const UPDATE_IF_VERSION = `${UPDATE_CARD_SQL} AND xmin = $19::xid RETURNING id`;

/** A change without a status (limits, funding source) of the card as read: one row when written, none when it changed since. */
export const UPDATE_CARD_IF_VERSION = changeStatement(
  `changed AS (${UPDATE_IF_VERSION})`,
  'SELECT id FROM changed',
  'changed',
);

/**
 * A status change of the card as read, in one (autocommit, so atomic) statement: the UPDATE, its
 * history row ($20 to $27) and its CARD.STATUS_CHANGE outbox event ($28 to $35, the outbox's own
 * CTEs), the last two only for the row the UPDATE matched. One row when written, none (and nothing
 * written) when the card changed since it was read.
 */
export const TRANSITION_CARD_IF_VERSION = changeStatement(
  `changed AS (${UPDATE_IF_VERSION}),
  history AS (${historyOf('changed', 20)}),
  ${outboxInsertCtes('changed', 27)}`,
  'SELECT id FROM changed',
  'changed',
);

const HISTORY_COLUMNS = `id, card_id AS "cardId", platform_id AS "platformId", actor, from_status AS "fromStatus",
  to_status AS "toStatus", substatus, reason, status_reason AS "statusReason", created_at AS "createdAt"`;

export const INSERT_HISTORY_SQL = `
  ${HISTORY_INSERT}
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

/** Live (not CLOSED) cards of the platform, and of the cardholder among them. */
const COUNT_LIVE_SQL = `
  SELECT count(*)::int AS platform, count(*) FILTER (WHERE customer_id = $2)::int AS customer
  FROM cards WHERE platform_id = $1 AND status <> 'CLOSED'`;

/** The history entry's values but its card and platform (the parameters of `historyOf`: id, then actor on). */
const historyValues = (h: CardStatusHistoryEntity): unknown[] => [
  h.id,
  h.actor,
  h.fromStatus,
  h.toStatus,
  h.substatus,
  h.reason,
  h.statusReason,
  h.createdAt,
];

/** What runs a statement: an EntityManager, or TransactionService (its open transaction, else autocommit on the pool). */
export interface Statements {
  query<T>(sql: string, parameters: unknown[]): Promise<T>;
}

/** A card as read, with the version a conditioned write (`updateIfVersion`) checks. */
export interface VersionedCard {
  card: CardEntity;
  version: string;
}

/** A status change to store with the card: its history entry and its event (`OutboxService.prepare`). */
export interface CardTransitionWrite {
  history: CardStatusHistoryEntity;
  event: PreparedEvent;
}

/** The values of KEY_AND_MUTABLE_COLUMNS (the parameters $1 to $18 of every write). */
function keyAndMutableValues(c: CardEntity): unknown[] {
  return [
    c.id,
    c.platformId,
    c.status,
    c.statusReason,
    c.brand,
    c.last4,
    c.expMonth,
    c.expYear,
    c.fundingSourceId,
    c.fundingDetachedAt,
    c.maxSpendPerTransaction,
    c.maxSpendPerDay,
    c.maxTransactionsPerDay,
    c.processorRef,
    c.issuerRef,
    c.provisioningDueAt,
    c.provisioningOutcome,
    c.updatedAt,
  ];
}

/**
 * Plain queries on `cards` and `card_status_history`, always scoped by platform and run with the
 * caller's EntityManager (inside its transaction when it locks).
 */
@Injectable()
export class CardsRepository {
  async find(q: Statements, platformId: string, cardUuid: string): Promise<CardEntity | null> {
    const [row] = await q.query<CardEntity[]>(FIND_CARD_SQL, [cardUuid, platformId]);
    return row ?? null;
  }

  /** The card and its row version (see FIND_CARD_VERSIONED_SQL); null when unknown or another platform's. */
  async findVersioned(q: Statements, platformId: string, cardUuid: string): Promise<VersionedCard | null> {
    const [row] = await q.query<Array<CardEntity & { rowVersion: string }>>(FIND_CARD_VERSIONED_SQL, [
      cardUuid,
      platformId,
    ]);
    if (!row) return null;
    const { rowVersion, ...card } = row;
    return { card, version: rowVersion };
  }

  /**
   * Stores the card's mutable columns as `update` does, but only if the row is still at `version`
   * (`findVersioned`), in one statement; for a status change with its history entry and its outbox
   * event in the same statement (all or nothing). Run outside a transaction it commits by itself.
   * False when the card changed since it was read: nothing was written.
   */
  async updateIfVersion(
    q: TransactionService,
    c: CardEntity,
    version: string,
    transition?: CardTransitionWrite,
  ): Promise<boolean> {
    const params = [...keyAndMutableValues(c), version];
    // A change (TransactionService.change): with the request's audit event when it writes.
    const written = (rows: unknown[]) => rows.length === 1;
    const rows = transition
      ? await q.change<unknown[]>(
          TRANSITION_CARD_IF_VERSION,
          [...params, ...historyValues(transition.history), ...transition.event.parameters],
          written,
        )
      : await q.change<unknown[]>(UPDATE_CARD_IF_VERSION, params, written);
    return rows.length === 1;
  }

  /** The card, locked FOR UPDATE until the caller's transaction ends; null when unknown or another platform's. */
  async lockForUpdate(m: EntityManager, platformId: string, cardUuid: string): Promise<CardEntity | null> {
    const [row] = await m.query<CardEntity[]>(LOCK_CARD_SQL, [cardUuid, platformId]);
    return row ?? null;
  }

  async insert(m: EntityManager, c: CardEntity): Promise<void> {
    await m.query(INSERT_SQL, [
      ...keyAndMutableValues(c),
      c.customerId,
      c.platformCardId,
      c.form,
      c.currency,
      JSON.stringify(c.cardCapabilities),
      c.createdAt,
    ]);
  }

  /**
   * Stores the card's mutable columns (status, reason, binding, limits, provisioning, updatedAt)
   * and, for a status change, its history entry, in one statement.
   */
  async update(m: EntityManager, c: CardEntity, history?: CardStatusHistoryEntity): Promise<void> {
    const params = keyAndMutableValues(c);
    if (!history) {
      await m.query(UPDATE_CARD_SQL, params);
      return;
    }
    await m.query(UPDATE_CARD_WITH_HISTORY_SQL, [...params, ...historyValues(history)]);
  }

  async addHistory(m: EntityManager, h: CardStatusHistoryEntity): Promise<void> {
    const [id, ...rest] = historyValues(h);
    await m.query(INSERT_HISTORY_SQL, [id, h.cardId, h.platformId, ...rest]);
  }

  /**
   * Whether the cardholder's KYC is APPROVED now (a deleted customer's is not). Read here, in the
   * provisioning transaction, like the claim below reads it.
   */
  async kycApproved(m: EntityManager, platformId: string, customerId: string): Promise<boolean> {
    const [row] = await m.query<Array<{ ok: boolean }>>(
      `SELECT (kyc_status = 'APPROVED' AND deleted_at IS NULL) AS ok FROM customers WHERE id = $1 AND platform_id = $2`,
      [customerId, platformId],
    );
    return row?.ok === true;
  }

  /** The card's status history, oldest first (empty for an unknown card: every card has its issuance entry). */
  async history(m: EntityManager, platformId: string, cardUuid: string): Promise<CardStatusHistoryEntity[]> {
    return m.query<CardStatusHistoryEntity[]>(
      `SELECT ${HISTORY_COLUMNS} FROM card_status_history WHERE card_id = $1 AND platform_id = $2 ORDER BY id`,
      [cardUuid, platformId],
    );
  }

  /**
   * Serializes the platform's issuances until the caller's transaction ends (a row lock on its
   * `card_issuance_locks` row), so a live-card count taken after it cannot be overtaken by a racing issuance.
   */
  async lockIssuance(m: EntityManager, platformId: string): Promise<void> {
    await m.query(
      `INSERT INTO card_issuance_locks (platform_id) VALUES ($1)
       ON CONFLICT (platform_id) DO UPDATE SET platform_id = EXCLUDED.platform_id`,
      [platformId],
    );
  }

  /** Live (not CLOSED) cards: the platform's, and the cardholder's. */
  async countLive(
    m: EntityManager,
    platformId: string,
    customerId: string,
  ): Promise<{ platform: number; customer: number }> {
    const [row] = await m.query<Array<{ platform: number; customer: number }>>(COUNT_LIVE_SQL, [
      platformId,
      customerId,
    ]);
    return row;
  }

  /**
   * The platforms with cards whose provisioning can proceed (up to `limit`, the longest waiting
   * first): an unlocked read across platforms (cross-shard: card-provisioning-due-platforms).
   */
  async provisioningDuePlatforms(m: EntityManager, now: RealTime, limit: number): Promise<string[]> {
    const rows = await m.query<Array<{ platform_id: string }>>(
      `/* cross-shard: card-provisioning-due-platforms */
       SELECT c.platform_id FROM cards c
       WHERE c.provisioning_due_at <= $1 AND c.status IN ('PROCESSING', 'PENDING_KYC')
         AND (c.status = 'PROCESSING'
              OR EXISTS (SELECT 1 FROM customers k
                         WHERE k.platform_id = c.platform_id AND k.id = c.customer_id AND k.kyc_status = 'APPROVED'))
       GROUP BY c.platform_id ORDER BY min(c.provisioning_due_at), c.platform_id
       LIMIT $2`,
      [now, limit],
    );
    return rows.map((r) => r.platform_id);
  }

  /**
   * Claims up to `limit` of the platform's cards whose provisioning can proceed, FOR UPDATE SKIP
   * LOCKED (several workers never take the same card): PROCESSING cards whose `provisioningDueAt`
   * has come, and PENDING_KYC cards whose cardholder's KYC is APPROVED again.
   */
  async claimProvisioning(m: EntityManager, now: RealTime, limit: number, platformId: string): Promise<CardEntity[]> {
    return m.query<CardEntity[]>(
      `SELECT ${cardColumnsOf('c')} FROM cards c
       WHERE c.platform_id = $3 AND c.provisioning_due_at <= $1 AND c.status IN ('PROCESSING', 'PENDING_KYC')
         AND (c.status = 'PROCESSING'
              OR EXISTS (SELECT 1 FROM customers k
                         WHERE k.platform_id = $3 AND k.id = c.customer_id AND k.kyc_status = 'APPROVED'))
       ORDER BY c.provisioning_due_at
       LIMIT $2
       FOR UPDATE OF c SKIP LOCKED`,
      [now, limit, platformId],
    );
  }
}
