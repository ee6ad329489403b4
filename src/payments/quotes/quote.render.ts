import { formatId } from '../../common/ids.js';
import { currencyInfo } from '../../customers/currencies.js';
import type { PaymentInstructionsView, QuoteView } from './quote.dto.js';
import type { QuoteEntity } from './quote.entity.js';
import { walletPaymentInstructions } from './wallet-quote.js';

/** A quote as the API renders it: a PENDING quote past its expiry is EXPIRED. */
export function renderQuote(row: QuoteEntity, now: Date): QuoteView {
  const waiting = row.status === 'PENDING' || row.status === 'PENDING_AUTHORIZATION';
  const status = waiting && now >= row.expiresAt ? 'EXPIRED' : row.status;
  return {
    id: formatId('Quote', row.id),
    status,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    source:
      row.sourceType === 'REALTIME_FUNDING'
        ? {
            sourceType: 'REALTIME_FUNDING',
            currency: row.sendingCurrency,
            ...(row.customerId !== null ? { customerId: formatId('Customer', row.customerId) } : {}),
          }
        : {
            sourceType: 'ACCOUNT',
            accountId: formatId('InternalAccount', row.sourceAccountId!),
            ...(row.customerId !== null ? { customerId: formatId('Customer', row.customerId) } : {}),
          },
    destination:
      row.destinationKind === 'UmaAddress'
        ? {
            destinationType: 'UMA_ADDRESS',
            umaAddress: row.destinationUmaAddress ?? '',
            currency: row.receivingCurrency,
          }
        : {
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
    ...(row.documentIds?.length ? { documentIds: row.documentIds.map((id) => formatId('PaymentDocument', id)) } : {}),
    ...(status === 'PENDING_AUTHORIZATION' && row.scaChallenge ? { scaChallenge: row.scaChallenge } : {}),
    // withheld until the SCA challenge is authorized (the reference's 202 on POST /quotes)
    ...(row.sourceType === 'REALTIME_FUNDING' && status !== 'PENDING_AUTHORIZATION'
      ? { paymentInstructions: paymentInstructionsOf(row) }
      : {}),
    // an EMBEDDED_WALLET source: the payloadToSign its holder stamps to release it
    ...(row.walletPayloadToSign !== null && row.walletPayloadToSign !== undefined
      ? { paymentInstructions: walletPaymentInstructions(row) }
      : {}),
  };
}

/**
 * Where to send a REALTIME_FUNDING quote's funds: the sandbox's collection account in the sending
 * currency, with the reference that matches the funds to the quote. A real bank partner answers its
 * own account here; in the sandbox `POST /sandbox/send` stands in for the transfer.
 */
export function paymentInstructionsOf(row: QuoteEntity): PaymentInstructionsView[] {
  const reference = `GRID-${row.id.replace(/-/g, '').slice(-12).toUpperCase()}`;
  const currency = row.sendingCurrency;
  const account =
    currency === 'USD'
      ? {
          accountType: 'USD_ACCOUNT',
          paymentRails: ['RTP', 'FEDNOW'],
          accountNumber: '000123456789',
          routingNumber: '021000021',
        }
      : currency === 'EUR'
        ? { accountType: 'EUR_ACCOUNT', paymentRails: ['SEPA_INSTANT'], iban: 'DE89370400440532013000' }
        : { accountType: `${currency}_ACCOUNT`, accountNumber: '000123456789' };
  return [
    {
      accountOrWalletInfo: { ...account, bankName: 'Grid Sandbox Bank', reference },
      instructionsNotes: `Send exactly ${row.totalSendingAmount} (minor units) ${currency} before ${row.expiresAt.toISOString()}, quoting ${reference}`,
      isPlatformAccount: true,
    },
  ];
}
