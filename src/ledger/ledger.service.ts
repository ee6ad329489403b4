import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Clock } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import { MAX_SAFE_MINOR_UNITS } from '../common/validation.js';
import { balanceUpdated } from '../customers/customer-events.js';
import { InternalAccountEntity } from '../customers/internal-account.entity.js';
import { renderInternalAccount } from '../customers/internal-accounts.service.js';
import { ApiError } from '../errors/api-error.js';
import { OutboxService } from '../outbox/outbox.service.js';
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
 * The only writer of balances, and a double-entry one: every movement is a journal of postings
 * (`ledger_entries` rows sharing a `journalId`) that sum to zero per currency, between internal
 * accounts (customers' and platforms') and the service's own system accounts (rail clearing, FX,
 * fees, platform revenue, sandbox funding, card settlement, opening balances).
 *
 * An internal account's posting carries the balance it leaves (`balanceAfter`) and the account's
 * next `seq`; the account's cached `balance` is updated in the same transaction. Internal accounts
 * are locked FOR UPDATE, all of one movement in one statement ordered by id (one global order, so
 * opposite movements cannot deadlock), and each movement sees the balance the previous one left.
 * System accounts are not locked and have no cached balance (it is the sum of their postings), so
 * they never become a hot row and may go negative: they are not customer money.
 *
 * Holds reserve funds without moving money: `held` (the sum of the open holds' `remaining`) is
 * part of `balance` but not available, so a debit or a new hold may use only `balance - held`.
 * Capturing a hold turns (part of) it into a debit credited to a counter account; releasing it
 * makes the funds available again. Every change of an internal account's `balance` or `held`
 * writes one `INTERNAL_ACCOUNT.BALANCE_UPDATED` to the outbox in the same transaction.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  /**
   * Writes one balanced movement inside the caller's transaction (`m` must be a transaction's
   * manager, so it commits or rolls back with the caller's other effects). Everything is checked
   * before anything is written: 404 ACCOUNT_NOT_FOUND for an unknown internal account, 400
   * INSUFFICIENT_FUNDS when a debit would take an internal account's available balance (balance
   * minus holds) below zero, 400 AMOUNT_OUT_OF_RANGE for a line or a resulting balance above
   * 9007199254740991. Unbalanced lines are a programming error (a plain Error).
   */
  async transfer(m: EntityManager, t: LedgerTransfer): Promise<TransferResult> {
    requireTransaction(m, 'transfer');
    checkTransfer(t);
    const accounts = await this.lockAccounts(m, internalIds(t.lines));
    return this.write(m, t, accounts);
  }

  /** Reserves `amount` on the account: 400 INSUFFICIENT_FUNDS when less than that is available. */
  async placeHold(m: EntityManager, request: HoldRequest): Promise<HoldResult> {
    requireTransaction(m, 'placeHold');
    const amount = toMinorUnits(request.amount);
    if (amount <= 0n) throw new Error('a hold is positive');
    checkLabels(request.reason, request.reference);
    const [account] = (await this.lockAccounts(m, [request.accountId])).values();
    requireAvailable(account, amount);
    const now = this.clock.now();
    const hold = m.create(LedgerHoldEntity, {
      id: newUuid(),
      accountId: account.id,
      platformId: account.platformId,
      amount: amount.toString(),
      remaining: amount.toString(),
      status: 'OPEN',
      reason: request.reason,
      reference: request.reference ?? null,
      createdAt: now,
      updatedAt: now,
    });
    await m.insert(LedgerHoldEntity, hold);
    account.held = (BigInt(account.held) + amount).toString();
    await this.saveAccount(m, account);
    return { hold, account };
  }

  /** Releases `amount` of an open hold (all that remains when omitted); the funds become available again. */
  async releaseHold(m: EntityManager, holdId: string, amount?: bigint): Promise<HoldResult> {
    requireTransaction(m, 'releaseHold');
    const { hold, accounts } = await this.lockHold(m, holdId, []);
    const account = accounts.get(hold.accountId)!;
    const release = amount ?? BigInt(hold.remaining);
    if (release <= 0n || release > BigInt(hold.remaining))
      throw new Error(`cannot release ${release} of hold ${hold.id}`);
    await this.shrinkHold(m, hold, account, release);
    await this.saveAccount(m, account);
    return { hold, account };
  }

  /**
   * Turns a hold into a debit of `amount` credited to `counter` (e.g. a card clearing to
   * CARD_SETTLEMENT): up to what remains of the hold is taken from it, anything above is pulled
   * from the available balance (400 INSUFFICIENT_FUNDS, with nothing written, when that does not
   * cover it). With `close`, what remains of the hold afterwards is released; otherwise it stays
   * held for later captures.
   */
  async captureHold(m: EntityManager, holdId: string, capture: CaptureRequest): Promise<CaptureResult> {
    requireTransaction(m, 'captureHold');
    if (capture.amount < 0n) throw new Error('a capture is not negative');
    checkLabels(capture.reason, capture.reference);
    const counterId = 'internalAccountId' in capture.counter ? [capture.counter.internalAccountId] : [];
    const { hold, accounts } = await this.lockHold(m, holdId, counterId);
    const account = accounts.get(hold.accountId)!;
    const remaining = BigInt(hold.remaining);
    const fromHold = capture.amount < remaining ? capture.amount : remaining;
    requireAvailable(account, capture.amount - fromHold);
    const shrink = capture.close ? remaining : fromHold;
    if (shrink > 0n) await this.shrinkHold(m, hold, account, shrink);
    if (capture.amount === 0n) {
      await this.saveAccount(m, account);
      return { hold, account, entry: null, journalId: null };
    }
    const moved = await this.write(
      m,
      {
        lines: [
          { account: { internalAccountId: account.id }, amount: -capture.amount },
          { account: capture.counter, amount: capture.amount },
        ],
        reason: capture.reason,
        reference: capture.reference,
      },
      accounts,
      checkTransfer,
    );
    return { hold, account, entry: moved.entries[0], journalId: moved.journalId };
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
  async hold(m: EntityManager, holdId: string): Promise<LedgerHoldEntity> {
    const hold = await m.findOne(LedgerHoldEntity, { where: { id: holdId } });
    if (!hold) throw new Error(`ledger hold ${holdId} not found`);
    return hold;
  }

  /** An account's holds, oldest first. */
  holds(m: EntityManager, accountId: string): Promise<LedgerHoldEntity[]> {
    return m.find(LedgerHoldEntity, { where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Validates the whole movement against the (locked) accounts, then writes its postings in one
   * INSERT, each touched account's balance and one BALANCE_UPDATED event per account.
   */
  private async write(
    m: EntityManager,
    t: LedgerTransfer,
    accounts: Map<string, InternalAccountEntity>,
    check: (t: LedgerTransfer) => void = () => undefined,
  ): Promise<TransferResult> {
    check(t);
    // Check everything first: a refused movement writes nothing (callers may catch and go on).
    const next = new Map<string, { balance: bigint; seq: bigint }>();
    for (const [id, account] of accounts)
      next.set(id, { balance: BigInt(account.balance), seq: BigInt(account.ledgerSeq) });
    const journalId = newUuid();
    const now = this.clock.now();
    const entries: LedgerEntryEntity[] = [];
    const touched: InternalAccountEntity[] = [];
    for (const line of t.lines) {
      const base = {
        id: newUuid(),
        journalId,
        amount: line.amount.toString(),
        reason: t.reason,
        reference: t.reference ?? null,
        createdAt: now,
      };
      if ('system' in line.account) {
        const { system, platformId, currency } = line.account;
        entries.push(
          m.create(LedgerEntryEntity, {
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
      const account = accounts.get(line.account.internalAccountId)!;
      const state = next.get(account.id)!;
      if (line.amount < 0n) requireAvailable(account, -line.amount, state.balance);
      state.balance += line.amount;
      state.seq += 1n;
      if (state.balance > MAX_BALANCE) throw balanceOutOfRange(account);
      if (!touched.includes(account)) touched.push(account);
      entries.push(
        m.create(LedgerEntryEntity, {
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
    await m.insert(LedgerEntryEntity, entries);
    for (const account of touched) {
      const state = next.get(account.id)!;
      account.balance = state.balance.toString();
      account.ledgerSeq = state.seq.toString();
      await this.saveAccount(m, account);
    }
    return { journalId, entries, accounts: touched };
  }

  /** Locks the internal accounts FOR UPDATE in one statement, in id order: 404 for an unknown one. */
  private async lockAccounts(m: EntityManager, ids: string[]): Promise<Map<string, InternalAccountEntity>> {
    const wanted = [...new Set(ids)];
    const found =
      wanted.length === 0
        ? []
        : await m.find(InternalAccountEntity, {
            where: { id: wanted.length === 1 ? wanted[0] : In(wanted) },
            order: { id: 'ASC' },
            lock: { mode: 'pessimistic_write' },
          });
    const byId = new Map(found.map((a) => [a.id, a]));
    const missing = wanted.find((id) => !byId.has(id));
    if (missing !== undefined)
      throw new ApiError('ACCOUNT_NOT_FOUND', `Internal account ${formatId('InternalAccount', missing)} not found`);
    return byId;
  }

  /** The hold and the accounts (its own and `more`), locked: accounts first, as every other movement. */
  private async lockHold(
    m: EntityManager,
    holdId: string,
    more: string[],
  ): Promise<{ hold: LedgerHoldEntity; accounts: Map<string, InternalAccountEntity> }> {
    const found = await m.findOne(LedgerHoldEntity, { where: { id: holdId } });
    if (!found) throw new Error(`ledger hold ${holdId} not found`);
    const accounts = await this.lockAccounts(m, [found.accountId, ...more]);
    const hold = await m.findOne(LedgerHoldEntity, { where: { id: holdId }, lock: { mode: 'pessimistic_write' } });
    if (!hold || hold.status !== 'OPEN') throw new Error(`ledger hold ${holdId} is not open`);
    return { hold, accounts };
  }

  private async shrinkHold(
    m: EntityManager,
    hold: LedgerHoldEntity,
    account: InternalAccountEntity,
    by: bigint,
  ): Promise<void> {
    const remaining = BigInt(hold.remaining) - by;
    hold.remaining = remaining.toString();
    hold.status = remaining === 0n ? 'CLOSED' : 'OPEN';
    hold.updatedAt = this.clock.now();
    await m.update(
      LedgerHoldEntity,
      { id: hold.id },
      { remaining: hold.remaining, status: hold.status, updatedAt: hold.updatedAt },
    );
    account.held = (BigInt(account.held) - by).toString();
  }

  /** Writes the account's balance, held and ledgerSeq, and the BALANCE_UPDATED event. */
  private async saveAccount(m: EntityManager, account: InternalAccountEntity): Promise<void> {
    account.updatedAt = this.clock.now();
    await m.update(
      InternalAccountEntity,
      { id: account.id },
      { balance: account.balance, held: account.held, ledgerSeq: account.ledgerSeq, updatedAt: account.updatedAt },
    );
    await this.outbox.write(m, balanceUpdated(account.platformId, renderInternalAccount(account)));
  }
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
