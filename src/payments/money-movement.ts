import { EntityManager } from 'typeorm';
import { LedgerService } from '../ledger/ledger.service.js';
import type { LedgerAccountRef, LedgerTransfer as LedgerApiTransfer } from '../ledger/ledger.service.js';

/**
 * A quote's movements as the payments area builds them: the ledger's lines, each also naming its
 * currency so a movement can be reversed and shown before it is posted.
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

/**
 * One balanced movement inside the caller's transaction, through `LedgerService.transfer` (it
 * locks the internal accounts in one order and answers 400 INSUFFICIENT_FUNDS with nothing written
 * when a debited account cannot pay). The balancing rule is the ledger's own (`unbalancedCurrency`
 * in src/ledger/ledger.service.ts, then the commit-time trigger): not repeated here.
 */
export async function moveMoney(ledger: LedgerService, m: EntityManager, t: LedgerTransfer): Promise<void> {
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
