var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { formatId, newUuid } from '../common/ids.js';
import { MAX_SAFE_MINOR_UNITS } from '../common/validation.js';
import { ApiError } from '../errors/api-error.js';
import { OutboxService } from '../outbox/outbox.service.js';
import { balanceUpdated } from './customer-events.js';
import { InternalAccountEntity, LedgerEntryEntity, LedgerHoldEntity } from './internal-account.entity.js';
import { renderInternalAccount } from './internal-accounts.service.js';
/** Largest balance an account may hold: an exact JSON number for every client. */
export const MAX_BALANCE = BigInt(MAX_SAFE_MINOR_UNITS);
/**
 * The only writer of balances. Every movement is a `ledger_entries` row carrying the resulting
 * balance; the account's cached `balance` is updated in the same transaction. The account row is
 * locked FOR UPDATE first, so concurrent movements on one account queue up and each one sees the
 * balance the previous one left: no lost update, and `seq` numbers each account's history 1, 2, 3...
 *
 * Holds reserve funds without moving money: `held` (the sum of the open holds' `remaining`) is
 * part of `balance` but not available, so a debit or a new hold may use only `balance - held`.
 * Capturing a hold turns (part of) it into a debit; releasing it makes the funds available again.
 * Every change of `balance` or `held` writes `INTERNAL_ACCOUNT.BALANCE_UPDATED` to the outbox in
 * the same transaction (one event per call).
 */
let LedgerService = class LedgerService {
    outbox;
    clock;
    constructor(outbox, clock) {
        this.outbox = outbox;
        this.clock = clock;
    }
    /**
     * Posts one movement inside the caller's transaction (`m` must be a transaction's manager, so
     * the movement commits or rolls back with the caller's other effects).
     *
     * Throws 404 ACCOUNT_NOT_FOUND for an unknown account, 400 INSUFFICIENT_FUNDS when a debit
     * would take the available balance (balance minus holds) below zero, and 400 AMOUNT_OUT_OF_RANGE
     * when a credit would take the balance above 9007199254740991.
     */
    async post(m, posting) {
        requireTransaction(m, 'post');
        const amount = toMinorUnits(posting.amount);
        if (amount === 0n)
            throw new Error('a ledger movement cannot be zero');
        checkLabels(posting.reason, posting.reference);
        const account = await this.lockAccount(m, posting.accountId);
        if (amount < 0n)
            requireAvailable(account, -amount);
        const entry = await this.append(m, account, amount, posting.reason, posting.reference ?? null);
        await this.saveAccount(m, account);
        return { entry, account };
    }
    /** Reserves `amount` on the account: 400 INSUFFICIENT_FUNDS when less than that is available. */
    async placeHold(m, request) {
        requireTransaction(m, 'placeHold');
        const amount = toMinorUnits(request.amount);
        if (amount <= 0n)
            throw new Error('a hold is positive');
        checkLabels(request.reason, request.reference);
        const account = await this.lockAccount(m, request.accountId);
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
    async releaseHold(m, holdId, amount) {
        requireTransaction(m, 'releaseHold');
        const { hold, account } = await this.lockHold(m, holdId);
        const release = amount ?? BigInt(hold.remaining);
        if (release <= 0n || release > BigInt(hold.remaining))
            throw new Error(`cannot release ${release} of hold ${hold.id}`);
        await this.shrinkHold(m, hold, account, release);
        await this.saveAccount(m, account);
        return { hold, account };
    }
    /**
     * Turns a hold into a debit of `amount` (e.g. a card clearing): up to what remains of the hold is
     * taken from it, anything above is pulled from the available balance (400 INSUFFICIENT_FUNDS,
     * with nothing written, when that does not cover it). With `close`, what remains of the hold
     * afterwards is released; otherwise it stays held for later captures.
     */
    async captureHold(m, holdId, capture) {
        requireTransaction(m, 'captureHold');
        if (capture.amount < 0n)
            throw new Error('a capture is not negative');
        checkLabels(capture.reason, capture.reference);
        const { hold, account } = await this.lockHold(m, holdId);
        const remaining = BigInt(hold.remaining);
        const fromHold = capture.amount < remaining ? capture.amount : remaining;
        requireAvailable(account, capture.amount - fromHold);
        const shrink = capture.close ? remaining : fromHold;
        if (shrink > 0n)
            await this.shrinkHold(m, hold, account, shrink);
        const entry = capture.amount > 0n
            ? await this.append(m, account, -capture.amount, capture.reason, capture.reference ?? null)
            : null;
        await this.saveAccount(m, account);
        return { hold, account, entry };
    }
    /** An account's movements, oldest first. */
    entries(m, accountId) {
        return m.find(LedgerEntryEntity, { where: { accountId }, order: { seq: 'ASC' } });
    }
    /** One hold, as it is now (read inside the caller's transaction). */
    async hold(m, holdId) {
        const hold = await m.findOne(LedgerHoldEntity, { where: { id: holdId } });
        if (!hold)
            throw new Error(`ledger hold ${holdId} not found`);
        return hold;
    }
    /** An account's holds, oldest first. */
    holds(m, accountId) {
        return m.find(LedgerHoldEntity, { where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
    }
    async lockAccount(m, accountId) {
        const account = await m.findOne(InternalAccountEntity, {
            where: { id: accountId },
            lock: { mode: 'pessimistic_write' },
        });
        if (!account)
            throw new ApiError('ACCOUNT_NOT_FOUND', `Internal account ${formatId('InternalAccount', accountId)} not found`);
        return account;
    }
    /** The hold and its account, both locked (account first: the same order as every other movement). */
    async lockHold(m, holdId) {
        const found = await m.findOne(LedgerHoldEntity, { where: { id: holdId } });
        if (!found)
            throw new Error(`ledger hold ${holdId} not found`);
        const account = await this.lockAccount(m, found.accountId);
        const hold = await m.findOne(LedgerHoldEntity, { where: { id: holdId }, lock: { mode: 'pessimistic_write' } });
        if (!hold || hold.status !== 'OPEN')
            throw new Error(`ledger hold ${holdId} is not open`);
        return { hold, account };
    }
    async shrinkHold(m, hold, account, by) {
        const remaining = BigInt(hold.remaining) - by;
        hold.remaining = remaining.toString();
        hold.status = remaining === 0n ? 'CLOSED' : 'OPEN';
        hold.updatedAt = this.clock.now();
        await m.update(LedgerHoldEntity, { id: hold.id }, { remaining: hold.remaining, status: hold.status, updatedAt: hold.updatedAt });
        account.held = (BigInt(account.held) - by).toString();
    }
    /** Appends one entry and moves the (in-memory) account's balance; `saveAccount` writes it. */
    async append(m, account, amount, reason, reference) {
        const next = BigInt(account.balance) + amount;
        if (next > MAX_BALANCE)
            throw new ApiError('AMOUNT_OUT_OF_RANGE', `An internal account balance cannot exceed ${MAX_BALANCE}`, {
                details: { accountId: formatId('InternalAccount', account.id), balance: Number(account.balance) },
            });
        const seq = BigInt(account.ledgerSeq) + 1n;
        const entry = m.create(LedgerEntryEntity, {
            id: newUuid(),
            accountId: account.id,
            platformId: account.platformId,
            seq: seq.toString(),
            amount: amount.toString(),
            balanceAfter: next.toString(),
            reason,
            reference,
            createdAt: this.clock.now(),
        });
        await m.insert(LedgerEntryEntity, entry);
        account.balance = next.toString();
        account.ledgerSeq = seq.toString();
        return entry;
    }
    /** Writes the account's balance, held and ledgerSeq, and the BALANCE_UPDATED event. */
    async saveAccount(m, account) {
        account.updatedAt = this.clock.now();
        await m.update(InternalAccountEntity, { id: account.id }, { balance: account.balance, held: account.held, ledgerSeq: account.ledgerSeq, updatedAt: account.updatedAt });
        await this.outbox.write(m, balanceUpdated(account.platformId, renderInternalAccount(account)));
    }
};
LedgerService = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [OutboxService,
        Clock])
], LedgerService);
export { LedgerService };
function requireTransaction(m, what) {
    if (!m.queryRunner?.isTransactionActive)
        throw new Error(`LedgerService.${what} must run inside a transaction`);
}
function checkLabels(reason, reference) {
    if (!reason || reason.length > 64)
        throw new Error('a ledger reason is 1 to 64 characters');
    if (reference && reference.length > 255)
        throw new Error('a ledger reference is at most 255 characters');
}
/** 400 INSUFFICIENT_FUNDS unless `amount` is available (balance minus held). */
function requireAvailable(account, amount) {
    if (amount <= 0n)
        return;
    const available = BigInt(account.balance) - BigInt(account.held);
    if (available < amount)
        throw new ApiError('INSUFFICIENT_FUNDS', 'The internal account balance is too low for this debit', {
            details: {
                accountId: formatId('InternalAccount', account.id),
                balance: Number(available),
                amount: Number(amount),
            },
        });
}
function toMinorUnits(amount) {
    if (typeof amount === 'bigint')
        return amount;
    if (!Number.isSafeInteger(amount))
        throw new Error(`ledger amounts are integers in minor units, got ${amount}`);
    return BigInt(amount);
}
//# sourceMappingURL=ledger.service.js.map