import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import { MAX_SAFE_MINOR_UNITS } from '../common/validation.js';
import { ApiError } from '../errors/api-error.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { balanceUpdated } from './customer-events.js';
import { InternalAccountEntity, LedgerEntryEntity } from './internal-account.entity.js';
import { renderInternalAccount } from './internal-accounts.service.js';

/** Largest balance an account may hold: an exact JSON number for every client. */
export const MAX_BALANCE = BigInt(MAX_SAFE_MINOR_UNITS);

export interface LedgerPosting {
  /** The internal account's uuid (resolve it first, scoped to the caller's platform). */
  accountId: string;
  /** Signed minor units: positive credits, negative debits; never zero. */
  amount: bigint | number;
  /** Why the balance moved, e.g. `SANDBOX_FUNDING`, `CARD_AUTHORIZATION` (1..64 characters). */
  reason: string;
  /** What caused it, e.g. `Card:<uuid>` or `Transaction:<uuid>` (optional, up to 255 characters). */
  reference?: string | null;
}

export interface PostedEntry {
  entry: LedgerEntryEntity;
  /** The account after the movement (balance and ledgerSeq updated). */
  account: InternalAccountEntity;
}

/**
 * The only writer of balances. Every movement is a `ledger_entries` row carrying the resulting
 * balance; the account's cached `balance` is updated in the same transaction. The account row is
 * locked FOR UPDATE first, so concurrent movements on one account queue up and each one sees the
 * balance the previous one left: no lost update, and `seq` numbers each account's history 1, 2, 3...
 * Every movement also writes `INTERNAL_ACCOUNT.BALANCE_UPDATED` to the outbox in the same transaction.
 */
@Injectable()
export class LedgerService {
  constructor(
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
  ) {}

  /**
   * Posts one movement inside the caller's transaction (`m` must be a transaction's manager, so
   * the movement commits or rolls back with the caller's other effects).
   *
   * Throws 404 ACCOUNT_NOT_FOUND for an unknown account, 400 INSUFFICIENT_FUNDS when a debit
   * would take the balance below zero, and 400 AMOUNT_OUT_OF_RANGE when a credit would take it
   * above 9007199254740991.
   */
  async post(m: EntityManager, posting: LedgerPosting): Promise<PostedEntry> {
    if (!m.queryRunner?.isTransactionActive) throw new Error('LedgerService.post must run inside a transaction');
    const amount = toMinorUnits(posting.amount);
    if (amount === 0n) throw new Error('a ledger movement cannot be zero');
    if (!posting.reason || posting.reason.length > 64) throw new Error('a ledger reason is 1 to 64 characters');
    if (posting.reference && posting.reference.length > 255)
      throw new Error('a ledger reference is at most 255 characters');

    const account = await m.findOne(InternalAccountEntity, {
      where: { id: posting.accountId },
      lock: { mode: 'pessimistic_write' },
    });
    if (!account)
      throw new ApiError(
        'ACCOUNT_NOT_FOUND',
        `Internal account ${formatId('InternalAccount', posting.accountId)} not found`,
      );

    const balance = BigInt(account.balance);
    const next = balance + amount;
    if (next < 0n)
      throw new ApiError('INSUFFICIENT_FUNDS', 'The internal account balance is too low for this debit', {
        details: {
          accountId: formatId('InternalAccount', account.id),
          balance: Number(balance),
          amount: Number(amount),
        },
      });
    if (next > MAX_BALANCE)
      throw new ApiError('AMOUNT_OUT_OF_RANGE', `An internal account balance cannot exceed ${MAX_BALANCE}`, {
        details: { accountId: formatId('InternalAccount', account.id), balance: Number(balance) },
      });

    const now = this.clock.now();
    const seq = BigInt(account.ledgerSeq) + 1n;
    const entry = m.create(LedgerEntryEntity, {
      id: newUuid(),
      accountId: account.id,
      platformId: account.platformId,
      seq: seq.toString(),
      amount: amount.toString(),
      balanceAfter: next.toString(),
      reason: posting.reason,
      reference: posting.reference ?? null,
      createdAt: now,
    });
    await m.insert(LedgerEntryEntity, entry);
    await m.update(
      InternalAccountEntity,
      { id: account.id },
      { balance: next.toString(), ledgerSeq: seq.toString(), updatedAt: now },
    );
    account.balance = next.toString();
    account.ledgerSeq = seq.toString();
    account.updatedAt = now;
    await this.outbox.write(m, balanceUpdated(account.platformId, renderInternalAccount(account)));
    return { entry, account };
  }

  /** An account's movements, oldest first. */
  entries(m: EntityManager, accountId: string): Promise<LedgerEntryEntity[]> {
    return m.find(LedgerEntryEntity, { where: { accountId }, order: { seq: 'ASC' } });
  }
}

function toMinorUnits(amount: bigint | number): bigint {
  if (typeof amount === 'bigint') return amount;
  if (!Number.isSafeInteger(amount)) throw new Error(`ledger amounts are integers in minor units, got ${amount}`);
  return BigInt(amount);
}
