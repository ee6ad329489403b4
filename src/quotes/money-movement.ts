import { EntityManager } from 'typeorm';
import { LedgerService } from '../customers/ledger.service.js';

/**
 * The agreed double-entry ledger API (issue #29, built on the `ledger` branch): these types mirror
 * `LedgerService.transfer`'s. Until that branch is merged, `moveMoney` posts the internal
 * accounts' lines through `LedgerService.post` (the service's own accounts have no table yet), so
 * every customer balance is already exactly what the balanced movement gives it; at merge it
 * becomes `ledger.transfer(m, t)`, one call, with the system accounts' postings.
 */
export type SystemAccountKind =
  | 'RAIL_CLEARING'
  | 'FX'
  | 'FEES_COLLECTED'
  | 'PLATFORM_REVENUE'
  | 'SANDBOX_FUNDING'
  | 'CARD_SETTLEMENT'
  | 'OPENING_BALANCE';
export type LedgerAccountRef =
  { internalAccountId: string } | { system: SystemAccountKind; platformId: string; currency: string };
/** Signed minor units: + credit, - debit; never 0. */
export interface LedgerLine {
  account: LedgerAccountRef;
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
 * One balanced movement inside the caller's transaction: the internal accounts are locked in id
 * order (no deadlocks between opposite transfers), then debited (400 INSUFFICIENT_FUNDS with nothing
 * written when one cannot pay) and credited.
 */
export async function moveMoney(ledger: LedgerService, m: EntityManager, t: LedgerTransfer): Promise<void> {
  assertBalanced(t);
  const internal = t.lines
    .filter((l): l is LedgerLine & { account: { internalAccountId: string } } => 'internalAccountId' in l.account)
    .sort((a, b) => (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0));
  const ids = [...new Set(internal.map((l) => l.account.internalAccountId))].sort();
  if (ids.length > 1)
    await m.query(`SELECT id FROM internal_accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE`, [ids]);
  for (const line of internal)
    await ledger.post(m, {
      accountId: line.account.internalAccountId,
      amount: line.amount,
      reason: t.reason,
      reference: t.reference ?? null,
    });
}

/** The same movement the other way round (a refund or a return gives back exactly what moved). */
export function reversed(t: LedgerTransfer, reason: string): LedgerTransfer {
  return { ...t, reason, lines: t.lines.map((l) => ({ ...l, amount: -l.amount })) };
}
