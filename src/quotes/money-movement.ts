import { EntityManager } from 'typeorm';
import { LedgerService } from '../customers/ledger.service.js';
import type { LedgerAccountRef, LedgerTransfer as LedgerApiTransfer } from '../customers/ledger.service.js';

/**
 * A quote's movements as the payments area builds them: the ledger's lines, each also naming its
 * currency so a movement can be checked, reversed and shown before it is posted.
 */
export interface LedgerLine {
  account: LedgerAccountRef;
  /** Signed minor units: + credit, - debit; never 0. */
  amount: bigint;
  currency: string;
}
export interface LedgerTransfer {
  lines: LedgerLine[];
  reason: string;
  reference?: string | null;
}

/** Throws (a programming error) unless, per currency, the lines sum to zero. */
export function assertBalanced(t: LedgerTransfer): void {
  const sums = new Map<string, bigint>();
  for (const line of t.lines) {
    if (line.amount === 0n) throw new Error('a ledger line is never zero');
    sums.set(line.currency, (sums.get(line.currency) ?? 0n) + line.amount);
  }
  for (const [currency, sum] of sums)
    if (sum !== 0n) throw new Error(`unbalanced movement ${t.reason}: ${currency} sums to ${sum}`);
}

/**
 * One balanced movement inside the caller's transaction, through `LedgerService.transfer` (it
 * locks the internal accounts in one order and answers 400 INSUFFICIENT_FUNDS with nothing written
 * when a debited account cannot pay).
 */
export async function moveMoney(ledger: LedgerService, m: EntityManager, t: LedgerTransfer): Promise<void> {
  assertBalanced(t);
  const transfer: LedgerApiTransfer = {
    lines: t.lines.map(({ account, amount }) => ({ account, amount })),
    reason: t.reason,
    reference: t.reference ?? null,
  };
  await ledger.transfer(m, transfer);
}

/** The same movement the other way round (a refund or a return gives back exactly what moved). */
export function reversed(t: LedgerTransfer, reason: string): LedgerTransfer {
  return { ...t, reason, lines: t.lines.map((l) => ({ ...l, amount: -l.amount })) };
}
