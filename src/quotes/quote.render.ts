import { formatId } from '../common/ids.js';
import { currencyInfo } from '../customers/currencies.js';
import type { QuoteView } from './quote.dto.js';
import type { QuoteEntity } from './quote.entity.js';

/** A quote as the API renders it: a PENDING quote past its expiry is EXPIRED. */
export function renderQuote(row: QuoteEntity, now: Date): QuoteView {
  const waiting = row.status === 'PENDING' || row.status === 'PENDING_AUTHORIZATION';
  const status = waiting && now >= row.expiresAt ? 'EXPIRED' : row.status;
  return {
    id: formatId('Quote', row.id),
    status,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    source: {
      sourceType: 'ACCOUNT',
      accountId: formatId('InternalAccount', row.sourceAccountId!),
      ...(row.customerId !== null ? { customerId: formatId('Customer', row.customerId) } : {}),
    },
    destination: {
      destinationType: 'ACCOUNT',
      accountId: formatId(row.destinationKind, row.destinationAccountId),
      ...(row.paymentRail !== null ? { paymentRail: row.paymentRail } : {}),
    },
    sendingCurrency: currencyInfo(row.sendingCurrency),
    receivingCurrency: currencyInfo(row.receivingCurrency),
    totalSendingAmount: Number(row.totalSendingAmount),
    totalReceivingAmount: Number(row.totalReceivingAmount),
    exchangeRate: row.exchangeRate,
    feesIncluded: Number(row.feesIncluded),
    platformFeesIncluded: Number(row.platformFeesIncluded ?? 0),
    transactionId: formatId('Transaction', row.transactionId),
    rateDetails: row.rateDetails,
    ...(row.purposeOfPayment !== null ? { purposeOfPayment: row.purposeOfPayment } : {}),
    ...(status === 'PENDING_AUTHORIZATION' && row.scaChallenge ? { scaChallenge: row.scaChallenge } : {}),
  };
}
