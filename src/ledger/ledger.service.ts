import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import { MAX_SAFE_MINOR_UNITS } from '../common/validation.js';
import { balanceUpdated } from '../customers/customer-events.js';
import { InternalAccountEntity } from '../customers/internal-account.entity.js';
import { renderInternalAccount } from '../customers/internal-accounts.service.js';
import { ApiError } from '../errors/api-error.js';
import { outboxBatchCtes, OutboxService, type PreparedEvent } from '../outbox/outbox.service.js';
import { hydrate, Statement } from '../database/statement.js';
import { TransactionService } from '../database/transaction.service.js';
import { LedgerEntryEntity } from './ledger-entry.entity.js';
import { LedgerHoldEntity } from './ledger-hold.entity.js';
import { SYSTEM_ACCOUNT_KINDS, type SystemAccountKind } from './system-accounts.js';

/** Largest balance an account may hold (and largest posting): an exact JSON number for every client. */
export const MAX_BALANCE = BigInt(MAX_SAFE_MINOR_UNITS);

/**
 * Where a posting goes: a customer's or the platform's internal account (its uuid, resolved and
 * scoped to the caller's platform first), or one of the service's own accounts, which exists per
 * (platform, currency, kind) from its first posting on.
 */
export type LedgerAccountRef =
  { internalAccountId: string } | { system: SystemAccountKind; platformId: string; currency: string };

/** One line of a movement: signed minor units, + credit, - debit; never 0. */
export interface LedgerLine {
  account: LedgerAccountRef;
  amount: bigint;
}

/** One balanced movement: per currency, its lines sum to zero. */
export interface LedgerTransfer {
  /**
   * The platform the movement is within (every account of a movement is one platform's: the
   * statements pin it). Defaults to the platform its system-account lines name.
   */
  platformId?: string;
  lines: LedgerLine[];
  /** Why the money moved, e.g. `SANDBOX_FUNDING`, `CARD_CLEARING` (1..64 characters). */
  reason: string;
  /** What caused it, e.g. `Transaction:<uuid>` (optional, up to 255 characters). */
  reference?: string | null;
}

export interface TransferResult {
  journalId: string;
  /** The postings written, in the order of the lines. */
  entries: LedgerEntryEntity[];
  /** The internal accounts touched, after the movement (balance and ledgerSeq updated). */
  accounts: InternalAccountEntity[];
}

export interface HoldRequest {
  /** The internal account's uuid. */
  accountId: string;
  /** Minor units to reserve (positive). */
  amount: bigint | number;
  /** Why, e.g. `CARD_AUTHORIZATION` (1..64 characters). */
  reason: string;
  /** What caused it, e.g. `Transaction:<uuid>` (optional, up to 255 characters). */
  reference?: string | null;
}

export interface HoldResult {
  hold: LedgerHoldEntity;
  /** The account after the change (balance, held and ledgerSeq updated). */
  account: InternalAccountEntity;
}

export interface CaptureRequest {
  /** Minor units to debit (0 captures nothing, e.g. to only close the hold). */
  amount: bigint;
  reason: string;
  reference?: string | null;
  /** Release what remains of the hold afterwards. */
  close: boolean;
  /** Where the captured money goes (e.g. the platform's CARD_SETTLEMENT account). */
  counter: LedgerAccountRef;
}

export interface CaptureResult extends HoldResult {
  /** The debit of the hold's account (absent when nothing was debited). */
  entry: LedgerEntryEntity | null;
  /** The movement's journal (absent when nothing was debited). */
  journalId: string | null;
}

/** Shorthand for a system account reference. */
export function systemAccount(system: SystemAccountKind, platformId: string, currency: string): LedgerAccountRef {
  return { system, platformId, currency };
}

/**
 * What a request's locking statement took (`LedgerService.lock`): the internal accounts it locked
 * (id order), the holds it locked after them, and the caller's own outputs (its locked domain row,
 * the customer's platformCustomerId...), by the names the caller gave them.
 */
export interface Locked {
  /** The platform every locked row belongs to (the write statement pins it too). */
  platformId: string;
  accounts: Map<string, InternalAccountEntity>;
  holds: Map<string, LedgerHoldEntity>;
  outputs: Record<string, unknown>;
}

/** What `LedgerService.lock` locks and reads, in one statement. */
export interface LockRequest {
  /**
   * The platform of every account and hold locked: the statement pins `platform_id` on them (the
   * caller's own CTEs pin it on theirs), so it runs on one shard.
   */
  platformId: string;
  /**
   * The statement to lock in, holding the caller's own CTEs (e.g. `head`: the quote or card
   * `SELECT ... FOR UPDATE`, locked before the accounts, as every movement of it does).
   */
  statement?: Statement;
  /** Internal account uuids known before the statement. */
  accountIds?: string[];
  /** SQL selecting more account uuids from the caller's CTEs (e.g. the quote's source account). */
  accountsFrom?: string;
  /** Hold uuids to lock (after the accounts). */
  holdIds?: string[];
  /** SQL selecting more hold uuids (e.g. the card transaction's hold). */
  holdsFrom?: string;
  /** The caller's outputs: name => a scalar SQL expression over its CTEs, evaluated before the locks. */
  outputs?: Record<string, string>;
}

/**
 * One request's ledger work between its two statements: built in memory against the locked rows
 * (each step checked in full before it changes anything, so a refused step leaves the work as it
 * was), then written by `LedgerService.write` in one statement with the caller's own writes.
 */
export class LedgerWork {
  readonly entries: LedgerEntryEntity[] = [];
  readonly newHolds: LedgerHoldEntity[] = [];
  readonly changedHolds = new Map<string, LedgerHoldEntity>();
  /** Accounts whose balance, held or ledgerSeq changed (one BALANCE_UPDATED each). */
  readonly touched = new Set<string>();

  constructor(
    readonly locked: Locked,
    readonly now: Date,
  ) {}

  account(id: string): InternalAccountEntity {
    const account = this.locked.accounts.get(id);
    if (!account) throw new Error(`internal account ${id} was not locked`);
    return account;
  }

  hold(id: string): LedgerHoldEntity {
    const hold = this.locked.holds.get(id);
    if (!hold) throw new Error(`ledger hold ${id} was not locked`);
    return hold;
  }
}

/** One statement's CTEs of the ledger's columns, as arrays (one text whatever the number of rows). */
const POSTING_COLUMNS = `id, journal_id, account_id, system_account, platform_id, currency, seq, amount, balance_after, reason,
  reference, created_at`;
const HOLD_COLUMNS =
  'id, account_id, platform_id, amount, remaining, status, reason, reference, created_at, updated_at';

/**
 * The only writer of balances, and a double-entry one: every movement is a journal of postings
 * (`ledger_entries` rows sharing a `journalId`) that sum to zero per currency, between internal
 * accounts (customers' and platforms') and the service's own system accounts (rail clearing, FX,
 * fees, platform revenue, sandbox funding, card settlement, opening balances).
 *
 * Every movement and hold is two statements (docs/ledger.md, "The two-statement path"): `lock`
 * locks every internal account it touches in one statement, in id order (one global order, so
 * opposite movements cannot deadlock), after the caller's own locked row and with whatever else
 * the request needs to read; the work is computed in memory (`move`, `placeHold`, `release`,
 * `capture` on a `LedgerWork`); `write` sends one statement with the postings, the balances, the
 * holds, one `INTERNAL_ACCOUNT.BALANCE_UPDATED` per touched account, the caller's domain writes and
 * events, and (for the request's last statement) its audit event. `transfer`, `placeHold`,
 * `releaseHold` and `captureHold` are the same two statements for a caller with nothing to add.
 *
 * An internal account's posting carries the balance it leaves (`balanceAfter`) and the account's
 * next `seq`; the account row caches `balance` and `ledger_seq`. System accounts are not locked and
 * have no cached balance (it is the sum of their postings), so they never become a hot row and may
 * go negative: they are not customer money.
 *
 * Holds reserve funds without moving money: `held` (the sum of the open holds' `remaining`) is
 * part of `balance` but not available, so a debit or a new hold may use only `balance - held`.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly tx: TransactionService,
  ) {}

  /**
   * The locking statement (see LockRequest): the caller's CTEs and outputs, then every internal
   * account `FOR UPDATE` in id order, then the holds `FOR UPDATE`. 404 ACCOUNT_NOT_FOUND for an
   * account id given in `accountIds` that does not exist.
   */
  async lock(m: EntityManager, request: LockRequest): Promise<Locked> {
    requireTransaction(m, 'lock');
    const s = request.statement ?? new Statement();
    const wanted = [...new Set(request.accountIds ?? [])];
    const platform = s.p(request.platformId, 'uuid');
    const ids = `SELECT unnest(${s.p(wanted, 'uuid[]')})${request.accountsFrom ? ` UNION ${request.accountsFrom}` : ''}`;
    s.with(
      'ledger_accounts',
      `SELECT a.* FROM internal_accounts a WHERE a.platform_id = ${platform} AND a.id IN (${ids}) ORDER BY a.id FOR UPDATE`,
    );
    const lockHolds = request.holdIds !== undefined || request.holdsFrom !== undefined;
    if (lockHolds) {
      const holds = `SELECT unnest(${s.p(request.holdIds ?? [], 'uuid[]')})${request.holdsFrom ? ` UNION ${request.holdsFrom}` : ''}`;
      s.with(
        'ledger_holds_locked',
        `SELECT h.* FROM ledger_holds h WHERE h.platform_id = ${platform} AND h.id IN (${holds}) ORDER BY h.id FOR UPDATE`,
      );
    }
    const outputs = Object.entries(request.outputs ?? {});
    const select = [
      ...outputs.map(([name, sql]) => `(${sql}) AS "${name}"`),
      `(SELECT jsonb_agg(to_jsonb(a) ORDER BY a.id) FROM ledger_accounts a) AS ledger_accounts`,
      ...(lockHolds
        ? [`(SELECT jsonb_agg(to_jsonb(h) ORDER BY h.id) FROM ledger_holds_locked h) AS ledger_holds`]
        : []),
    ];
    const [row] = await this.tx.queryIn<Array<Record<string, unknown>>>(
      m,
      s.text(`SELECT ${select.join(',\n  ')}`),
      s.parameters,
    );
    const accounts = new Map<string, InternalAccountEntity>();
    for (const json of (row.ledger_accounts as Array<Record<string, unknown>> | null) ?? []) {
      const account = hydrate(m, InternalAccountEntity, json);
      accounts.set(account.id, account);
    }
    const holds = new Map<string, LedgerHoldEntity>();
    for (const json of (row.ledger_holds as Array<Record<string, unknown>> | null) ?? []) {
      const hold = hydrate(m, LedgerHoldEntity, json);
      holds.set(hold.id, hold);
    }
    const missing = wanted.find((id) => !accounts.has(id));
    if (missing !== undefined)
      throw new ApiError('ACCOUNT_NOT_FOUND', `Internal account ${formatId('InternalAccount', missing)} not found`);
    return {
      platformId: request.platformId,
      accounts,
      holds,
      outputs: Object.fromEntries(outputs.map(([name]) => [name, row[name]])),
    };
  }

  /** A new work over what `lock` took. */
  work(locked: Locked): LedgerWork {
    return new LedgerWork(locked, this.clock.now());
  }

  /**
   * Adds one balanced movement to the work: 404 ACCOUNT_NOT_FOUND for an internal account the lock
   * did not find, 400 INSUFFICIENT_FUNDS when a debit would take an internal account's available
   * balance (balance minus holds) below zero, 400 AMOUNT_OUT_OF_RANGE for a line or a resulting
   * balance above 9007199254740991; the work is unchanged then. Unbalanced lines are a programming
   * error (a plain Error).
   */
  move(work: LedgerWork, t: LedgerTransfer): TransferResult {
    checkTransfer(t);
    requireOnePlatform(work.locked.platformId, t);
    for (const id of internalIds(t.lines))
      if (!work.locked.accounts.has(id))
        throw new ApiError('ACCOUNT_NOT_FOUND', `Internal account ${formatId('InternalAccount', id)} not found`);
    const next = new Map<string, { balance: bigint; seq: bigint }>();
    const journalId = newUuid();
    const entries: LedgerEntryEntity[] = [];
    const touched: InternalAccountEntity[] = [];
    for (const line of t.lines) {
      const base = {
        id: newUuid(),
        journalId,
        amount: line.amount.toString(),
        reason: t.reason,
        reference: t.reference ?? null,
        createdAt: work.now,
      };
      if ('system' in line.account) {
        const { system, platformId, currency } = line.account;
        entries.push(
          Object.assign(new LedgerEntryEntity(), {
            ...base,
            accountId: null,
            systemAccount: system,
            platformId,
            currency,
            seq: null,
            balanceAfter: null,
          }),
        );
        continue;
      }
      const account = work.account(line.account.internalAccountId);
      let state = next.get(account.id);
      if (!state) next.set(account.id, (state = { balance: BigInt(account.balance), seq: BigInt(account.ledgerSeq) }));
      if (line.amount < 0n) requireAvailable(account, -line.amount, state.balance);
      state.balance += line.amount;
      state.seq += 1n;
      if (state.balance > MAX_BALANCE) throw balanceOutOfRange(account);
      if (!touched.includes(account)) touched.push(account);
      entries.push(
        Object.assign(new LedgerEntryEntity(), {
          ...base,
          accountId: account.id,
          systemAccount: null,
          platformId: account.platformId,
          currency: account.currency,
          seq: state.seq.toString(),
          balanceAfter: state.balance.toString(),
        }),
      );
    }
    requireBalanced(entries);
    // Everything holds: apply.
    work.entries.push(...entries);
    for (const account of touched) {
      const state = next.get(account.id)!;
      account.balance = state.balance.toString();
      account.ledgerSeq = state.seq.toString();
      account.updatedAt = work.now;
      work.touched.add(account.id);
    }
    return { journalId, entries, accounts: touched };
  }

  /** Adds a hold of `amount` to the work: 400 INSUFFICIENT_FUNDS (work unchanged) when less is available. */
  hold(work: LedgerWork, request: HoldRequest): HoldResult {
    const amount = toMinorUnits(request.amount);
    if (amount <= 0n) throw new Error('a hold is positive');
    checkLabels(request.reason, request.reference);
    const account = work.account(request.accountId);
    requireAvailable(account, amount);
    const hold = Object.assign(new LedgerHoldEntity(), {
      id: newUuid(),
      accountId: account.id,
      platformId: account.platformId,
      amount: amount.toString(),
      remaining: amount.toString(),
      status: 'OPEN',
      reason: request.reason,
      reference: request.reference ?? null,
      createdAt: work.now,
      updatedAt: work.now,
    } satisfies LedgerHoldEntity);
    work.newHolds.push(hold);
    account.held = (BigInt(account.held) + amount).toString();
    account.updatedAt = work.now;
    work.touched.add(account.id);
    return { hold, account };
  }

  /**
   * Adds to the work `amount` more on an open, locked hold (its amount and what remains): 400
   * INSUFFICIENT_FUNDS (work unchanged) when less is available. The hold keeps its id, so a
   * concurrent request that locks it by a reference it read (a card transaction's `hold_id`) still
   * finds it (e.g. an authorization advice re-sizing an authorization up).
   */
  grow(work: LedgerWork, holdId: string, amount: bigint): HoldResult {
    if (amount <= 0n) throw new Error('a hold grows by a positive amount');
    const hold = openHold(work, holdId);
    const account = work.account(hold.accountId);
    requireAvailable(account, amount);
    const total = BigInt(hold.amount) + amount;
    if (total > MAX_BALANCE) throw balanceOutOfRange(account);
    hold.amount = total.toString();
    hold.remaining = (BigInt(hold.remaining) + amount).toString();
    hold.updatedAt = work.now;
    work.changedHolds.set(hold.id, hold);
    account.held = (BigInt(account.held) + amount).toString();
    account.updatedAt = work.now;
    work.touched.add(account.id);
    return { hold, account };
  }

  /** Adds the release of `amount` of an open, locked hold (all that remains when omitted) to the work. */
  release(work: LedgerWork, holdId: string, amount?: bigint): HoldResult {
    const hold = openHold(work, holdId);
    const account = work.account(hold.accountId);
    const release = amount ?? BigInt(hold.remaining);
    if (release <= 0n || release > BigInt(hold.remaining))
      throw new Error(`cannot release ${release} of hold ${hold.id}`);
    shrinkHold(work, hold, account, release);
    return { hold, account };
  }

  /**
   * Adds to the work the capture of a locked hold: a debit of `amount` credited to `counter` (up to
   * what remains of the hold is taken from it, anything above from the available balance: 400
   * INSUFFICIENT_FUNDS, work unchanged, when that does not cover it). With `close`, what remains
   * of the hold afterwards is released.
   */
  capture(work: LedgerWork, holdId: string, capture: CaptureRequest): CaptureResult {
    if (capture.amount < 0n) throw new Error('a capture is not negative');
    checkLabels(capture.reason, capture.reference);
    const hold = openHold(work, holdId);
    const account = work.account(hold.accountId);
    const remaining = BigInt(hold.remaining);
    const fromHold = capture.amount < remaining ? capture.amount : remaining;
    const shrink = capture.close ? remaining : fromHold;
    // What the hold does not cover must be available (the hold still counted as held).
    requireAvailable(account, capture.amount - fromHold);
    if (capture.amount === 0n) {
      if (shrink > 0n) shrinkHold(work, hold, account, shrink);
      return { hold, account, entry: null, journalId: null };
    }
    const held = account.held;
    if (shrink > 0n) shrinkHold(work, hold, account, shrink);
    try {
      const moved = this.move(work, {
        lines: [
          { account: { internalAccountId: account.id }, amount: -capture.amount },
          { account: capture.counter, amount: capture.amount },
        ],
        reason: capture.reason,
        reference: capture.reference,
      });
      return { hold, account, entry: moved.entries[0], journalId: moved.journalId };
    } catch (error) {
      // Nothing moved: the hold as it was.
      if (shrink > 0n) {
        hold.remaining = remaining.toString();
        hold.status = 'OPEN';
        account.held = held;
      }
      throw error;
    }
  }

  /**
   * The write statement: the work's postings, balances and holds, one BALANCE_UPDATED per touched
   * account, then the caller's CTEs already in `s` (its domain writes) and `events`; with `last`,
   * the request's audit event rides in it too (the before-commit hooks' riders), so a request whose
   * last statement this is sends only COMMIT after it. Answers the rows of `select` (default: none).
   */
  async write<T = unknown>(
    m: EntityManager,
    work: LedgerWork,
    options: { statement?: Statement; events?: PreparedEvent[]; last?: boolean; select?: string } = {},
  ): Promise<T[]> {
    requireTransaction(m, 'write');
    const s = options.statement ?? new Statement();
    // Every row of the work is the locked platform's: the statement pins it once, as a scalar.
    const platformId = work.locked.platformId;
    for (const row of [...work.entries, ...work.newHolds, ...work.changedHolds.values()])
      if (row.platformId !== platformId)
        throw new Error(`ledger row of platform ${row.platformId} in a work of ${platformId}`);
    const platform =
      work.entries.length || work.newHolds.length || work.changedHolds.size || work.touched.size
        ? s.p(platformId, 'uuid')
        : '';
    if (work.entries.length) {
      const e = work.entries;
      s.with(
        'ledger_postings',
        `INSERT INTO ledger_entries (${POSTING_COLUMNS})
         SELECT v.id, v.journal_id, v.account_id, v.system_account, ${platform}, v.currency, v.seq, v.amount,
                v.balance_after, v.reason, v.reference, v.created_at
           FROM ${s.unnest(e, [
             ['uuid', (x) => x.id],
             ['uuid', (x) => x.journalId],
             ['uuid', (x) => x.accountId],
             ['text', (x) => x.systemAccount],
             ['text', (x) => x.currency],
             ['bigint', (x) => x.seq],
             ['bigint', (x) => x.amount],
             ['bigint', (x) => x.balanceAfter],
             ['text', (x) => x.reason],
             ['text', (x) => x.reference],
             ['timestamptz', (x) => x.createdAt],
           ])} AS v(id, journal_id, account_id, system_account, currency, seq, amount, balance_after, reason, reference,
                  created_at)`,
      );
    }
    if (work.newHolds.length) {
      const h = work.newHolds;
      s.with(
        'ledger_new_holds',
        `INSERT INTO ledger_holds (${HOLD_COLUMNS})
         SELECT v.id, v.account_id, ${platform}, v.amount, v.remaining, v.status, v.reason, v.reference, v.created_at,
                v.updated_at
           FROM ${s.unnest(h, [
             ['uuid', (x) => x.id],
             ['uuid', (x) => x.accountId],
             ['bigint', (x) => x.amount],
             ['bigint', (x) => x.remaining],
             ['text', (x) => x.status],
             ['text', (x) => x.reason],
             ['text', (x) => x.reference],
             ['timestamptz', (x) => x.createdAt],
             ['timestamptz', (x) => x.updatedAt],
           ])} AS v(id, account_id, amount, remaining, status, reason, reference, created_at, updated_at)`,
      );
    }
    if (work.changedHolds.size) {
      const h = [...work.changedHolds.values()];
      s.with(
        'ledger_hold_changes',
        `UPDATE ledger_holds h SET amount = v.amount, remaining = v.remaining, status = v.status, updated_at = v.updated_at
           FROM ${s.unnest(h, [
             ['uuid', (x) => x.id],
             ['bigint', (x) => x.amount],
             ['bigint', (x) => x.remaining],
             ['text', (x) => x.status],
             ['timestamptz', (x) => x.updatedAt],
           ])} AS v(id, amount, remaining, status, updated_at)
          WHERE h.platform_id = ${platform} AND h.id = v.id`,
      );
    }
    const touched = [...work.touched].map((id) => work.account(id));
    if (touched.length) {
      s.with(
        'ledger_balances',
        `UPDATE internal_accounts a SET balance = v.balance, held = v.held, ledger_seq = v.ledger_seq, updated_at = v.updated_at
           FROM ${s.unnest(touched, [
             ['uuid', (x) => x.id],
             ['bigint', (x) => x.balance],
             ['bigint', (x) => x.held],
             ['bigint', (x) => x.ledgerSeq],
             ['timestamptz', (x) => x.updatedAt],
           ])} AS v(id, balance, held, ledger_seq, updated_at)
          WHERE a.platform_id = ${platform} AND a.id = v.id`,
      );
    }
    const events = [
      ...touched.map((account) =>
        this.outbox.prepare(balanceUpdated(account.platformId, renderInternalAccount(account))),
      ),
      ...(options.events ?? []),
    ];
    if (events.length) outboxBatchCtes(s, events);
    const riders = options.last ? this.tx.riders('ledger_done', s.parameters.length + 1) : [];
    if (riders.length) {
      s.with('ledger_done', 'SELECT 1');
      for (const rider of riders) {
        s.withRaw(rider.cte);
        s.parameters.push(...rider.parameters);
      }
    }
    if (s.empty) return [];
    const rows = await this.tx.queryIn<T[]>(m, s.text(options.select ?? 'SELECT 1 WHERE false'), s.parameters);
    for (const rider of riders) rider.written();
    return rows;
  }

  /**
   * Writes one balanced movement inside the caller's transaction (`m` must be a transaction's
   * manager, so it commits or rolls back with the caller's other effects): the two statements with
   * nothing of the caller's. Errors as `move`.
   */
  async transfer(m: EntityManager, t: LedgerTransfer): Promise<TransferResult> {
    requireTransaction(m, 'transfer');
    checkTransfer(t);
    const platformId = platformOf(t);
    const work = this.work(await this.lock(m, { platformId, accountIds: internalIds(t.lines) }));
    const result = this.move(work, t);
    await this.write(m, work);
    return result;
  }

  /** Reserves `amount` on the account (of `platformId`: the statements pin it): 400 INSUFFICIENT_FUNDS when less than that is available. */
  async placeHold(m: EntityManager, request: HoldRequest & { platformId: string }): Promise<HoldResult> {
    requireTransaction(m, 'placeHold');
    if (toMinorUnits(request.amount) <= 0n) throw new Error('a hold is positive');
    checkLabels(request.reason, request.reference);
    const work = this.work(await this.lock(m, { platformId: request.platformId, accountIds: [request.accountId] }));
    const result = this.hold(work, request);
    await this.write(m, work);
    return result;
  }

  /** Releases `amount` of an open hold (all that remains when omitted); the funds become available again. */
  async releaseHold(m: EntityManager, hold: HoldKey, amount?: bigint): Promise<HoldResult> {
    requireTransaction(m, 'releaseHold');
    const work = this.work(await this.lockHold(m, hold, []));
    const result = this.release(work, hold.id, amount);
    await this.write(m, work);
    return result;
  }

  /**
   * Turns a hold into a debit of `amount` credited to `counter` (e.g. a card clearing to
   * CARD_SETTLEMENT): see `capture`.
   */
  async captureHold(m: EntityManager, hold: HoldKey, capture: CaptureRequest): Promise<CaptureResult> {
    requireTransaction(m, 'captureHold');
    if (capture.amount < 0n) throw new Error('a capture is not negative');
    checkLabels(capture.reason, capture.reference);
    const counterId = 'internalAccountId' in capture.counter ? [capture.counter.internalAccountId] : [];
    const work = this.work(await this.lockHold(m, hold, counterId));
    const result = this.capture(work, hold.id, capture);
    await this.write(m, work);
    return result;
  }

  /** An internal account's postings, oldest first. */
  entries(m: EntityManager, accountId: string): Promise<LedgerEntryEntity[]> {
    return m.find(LedgerEntryEntity, { where: { accountId }, order: { seq: 'ASC' } });
  }

  /** One movement's postings. */
  journal(m: EntityManager, journalId: string): Promise<LedgerEntryEntity[]> {
    return m.find(LedgerEntryEntity, { where: { journalId }, order: { id: 'ASC' } });
  }

  /** A system account's balance: the sum of its postings (0 before the first). */
  async systemBalance(
    m: EntityManager,
    platformId: string,
    system: SystemAccountKind,
    currency: string,
  ): Promise<bigint> {
    const [row] = await m.query<Array<{ balance: string }>>(
      `SELECT COALESCE(SUM(amount), 0)::text AS balance FROM ledger_entries
        WHERE platform_id = $1 AND system_account = $2 AND currency = $3`,
      [platformId, system, currency],
    );
    return BigInt(row.balance);
  }

  /** One hold, as it is now (read inside the caller's transaction). */
  async getHold(m: EntityManager, holdId: string): Promise<LedgerHoldEntity> {
    const hold = await m.findOne(LedgerHoldEntity, { where: { id: holdId } });
    if (!hold) throw new Error(`ledger hold ${holdId} not found`);
    return hold;
  }

  /** An account's holds, oldest first. */
  holds(m: EntityManager, accountId: string): Promise<LedgerHoldEntity[]> {
    return m.find(LedgerHoldEntity, { where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The hold's account (and `more`) locked, then the hold: one statement. */
  private async lockHold(m: EntityManager, key: HoldKey, more: string[]): Promise<Locked> {
    const holdId = key.id;
    const s = new Statement();
    const id = s.p(holdId, 'uuid');
    const platform = s.p(key.platformId, 'uuid');
    const locked = await this.lock(m, {
      platformId: key.platformId,
      statement: s,
      accountIds: more,
      accountsFrom: `SELECT account_id FROM ledger_holds WHERE platform_id = ${platform} AND id = ${id}`,
      holdsFrom: `SELECT ${id}`,
    });
    const hold = locked.holds.get(holdId);
    if (!hold) throw new Error(`ledger hold ${holdId} not found`);
    if (hold.status !== 'OPEN') throw new Error(`ledger hold ${holdId} is not open`);
    return locked;
  }
}

/** A hold by its key: its uuid and its platform. */
export type HoldKey = Pick<LedgerHoldEntity, 'id' | 'platformId'>;

/** The platform a movement is within: given, or the one its system accounts name (a programming error when neither). */
function platformOf(t: LedgerTransfer): string {
  const named = t.lines.flatMap((l) => ('system' in l.account ? [l.account.platformId] : []));
  const platformId = t.platformId ?? named[0];
  if (platformId === undefined) throw new Error('a ledger movement names its platform (platformId)');
  return platformId;
}

/** Every system account of a movement is the work's platform's (a programming error otherwise). */
function requireOnePlatform(platformId: string, t: LedgerTransfer): void {
  if (t.platformId !== undefined && t.platformId !== platformId)
    throw new Error(`a movement of platform ${t.platformId} in a work of ${platformId}`);
  for (const line of t.lines)
    if ('system' in line.account && line.account.platformId !== platformId)
      throw new Error(`system account of platform ${line.account.platformId} in a work of ${platformId}`);
}

function openHold(work: LedgerWork, holdId: string): LedgerHoldEntity {
  const hold = work.hold(holdId);
  if (hold.status !== 'OPEN') throw new Error(`ledger hold ${holdId} is not open`);
  return hold;
}

function shrinkHold(work: LedgerWork, hold: LedgerHoldEntity, account: InternalAccountEntity, by: bigint): void {
  const remaining = BigInt(hold.remaining) - by;
  hold.remaining = remaining.toString();
  hold.status = remaining === 0n ? 'CLOSED' : 'OPEN';
  hold.updatedAt = work.now;
  work.changedHolds.set(hold.id, hold);
  account.held = (BigInt(account.held) - by).toString();
  account.updatedAt = work.now;
  work.touched.add(account.id);
}

function requireTransaction(m: EntityManager, what: string): void {
  if (!m.queryRunner?.isTransactionActive) throw new Error(`LedgerService.${what} must run inside a transaction`);
}

function checkLabels(reason: string, reference: string | null | undefined): void {
  if (!reason || reason.length > 64) throw new Error('a ledger reason is 1 to 64 characters');
  if (reference && reference.length > 255) throw new Error('a ledger reference is at most 255 characters');
}

/** The shape of a movement (before any database work): labels, lines, amounts, system accounts. */
function checkTransfer(t: LedgerTransfer): void {
  checkLabels(t.reason, t.reference);
  if (t.lines.length < 2) throw new Error('a ledger movement has at least two lines');
  for (const line of t.lines) {
    if (typeof line.amount !== 'bigint') throw new Error('ledger amounts are bigint minor units');
    if (line.amount === 0n) throw new Error('a ledger line cannot be zero');
    if (line.amount > MAX_BALANCE || -line.amount > MAX_BALANCE)
      throw new ApiError('AMOUNT_OUT_OF_RANGE', `A ledger amount cannot exceed ${MAX_BALANCE}`, {
        details: { amount: line.amount.toString() },
      });
    if ('system' in line.account) {
      if (!SYSTEM_ACCOUNT_KINDS.includes(line.account.system))
        throw new Error(`unknown system account ${String(line.account.system)}`);
      if (!UUID.test(line.account.platformId))
        throw new Error(`a system account's platformId is the platform's uuid, got ${line.account.platformId}`);
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The balancing rule: per currency, the postings sum to zero (a programming error otherwise). */
export function unbalancedCurrency(postings: Array<{ currency: string; amount: bigint }>): string | null {
  const sums = new Map<string, bigint>();
  for (const p of postings) sums.set(p.currency, (sums.get(p.currency) ?? 0n) + p.amount);
  for (const [currency, sum] of sums) if (sum !== 0n) return currency;
  return null;
}

function requireBalanced(entries: LedgerEntryEntity[]): void {
  const currency = unbalancedCurrency(entries.map((e) => ({ currency: e.currency, amount: BigInt(e.amount) })));
  if (currency !== null) throw new Error(`unbalanced ledger movement: the ${currency} lines do not sum to zero`);
}

function internalIds(lines: LedgerLine[]): string[] {
  return lines.flatMap((l) => ('internalAccountId' in l.account ? [l.account.internalAccountId] : []));
}

function balanceOutOfRange(account: InternalAccountEntity): ApiError {
  return new ApiError('AMOUNT_OUT_OF_RANGE', `An internal account balance cannot exceed ${MAX_BALANCE}`, {
    details: { accountId: formatId('InternalAccount', account.id), balance: Number(account.balance) },
  });
}

/** 400 INSUFFICIENT_FUNDS unless `amount` is available (balance minus held). */
function requireAvailable(account: InternalAccountEntity, amount: bigint, balance = BigInt(account.balance)): void {
  if (amount <= 0n) return;
  const available = balance - BigInt(account.held);
  if (available < amount)
    throw new ApiError('INSUFFICIENT_FUNDS', 'The internal account balance is too low for this debit', {
      details: {
        accountId: formatId('InternalAccount', account.id),
        balance: Number(available),
        amount: Number(amount),
      },
    });
}

function toMinorUnits(amount: bigint | number): bigint {
  if (typeof amount === 'bigint') return amount;
  if (!Number.isSafeInteger(amount)) throw new Error(`ledger amounts are integers in minor units, got ${amount}`);
  return BigInt(amount);
}
