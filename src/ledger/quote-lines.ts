import type { QuoteEntity } from '../quotes/quote.entity.js';
import { type LedgerLine, systemAccount } from './ledger.service.js';

/**
 * The postings of an executed quote: the source pays `totalSendingAmount`; the fees go to the
 * service's FEES_COLLECTED account and the rest to the FX desk in the sending currency; the FX desk
 * pays `totalReceivingAmount` in the receiving currency to the destination (an internal account, or
 * RAIL_CLEARING for an external payout). Lines on one account (same currency: the FX desk) are merged
 * and zero lines dropped, so a same-currency transfer without fees is a direct two-line transfer.
 */
export function executionLines(
  quote: Pick<
    QuoteEntity,
    | 'platformId'
    | 'sourceAccountId'
    | 'destinationKind'
    | 'destinationAccountId'
    | 'sendingCurrency'
    | 'receivingCurrency'
    | 'totalSendingAmount'
    | 'totalReceivingAmount'
    | 'feesIncluded'
  >,
): LedgerLine[] {
  const sending = BigInt(quote.totalSendingAmount);
  const receiving = BigInt(quote.totalReceivingAmount);
  const fees = BigInt(quote.feesIncluded);
  const { platformId, sendingCurrency: from, receivingCurrency: to } = quote;
  const destination =
    quote.destinationKind === 'InternalAccount'
      ? { internalAccountId: quote.destinationAccountId }
      : systemAccount('RAIL_CLEARING', platformId, to);
  const lines: LedgerLine[] = [
    { account: { internalAccountId: quote.sourceAccountId }, amount: -sending },
    { account: systemAccount('FEES_COLLECTED', platformId, from), amount: fees },
    { account: systemAccount('FX', platformId, from), amount: sending - fees },
    { account: systemAccount('FX', platformId, to), amount: -receiving },
    { account: destination, amount: receiving },
  ];
  const merged: LedgerLine[] = [];
  for (const line of lines) {
    const same = merged.find((l) => sameAccount(l.account, line.account));
    if (same) same.amount += line.amount;
    else merged.push({ ...line });
  }
  return merged.filter((l) => l.amount !== 0n);
}

function sameAccount(a: LedgerLine['account'], b: LedgerLine['account']): boolean {
  if ('internalAccountId' in a || 'internalAccountId' in b)
    return 'internalAccountId' in a && 'internalAccountId' in b && a.internalAccountId === b.internalAccountId;
  return a.system === b.system && a.platformId === b.platformId && a.currency === b.currency;
}
