import type { EntityManager } from 'typeorm';
import { formatId } from '../../common/ids.js';
import { ApiError } from '../../errors/api-error.js';
import { activityPayload } from '../../embedded-wallets/wallet-stamp.js';
import { type RetryHeaders, WalletSignatures } from '../../embedded-wallets/wallet-signatures.service.js';
import type { PaymentInstructionsView } from './quote.dto.js';
import type { QuoteEntity } from './quote.entity.js';

/** The activity type of a wallet payment's `payloadToSign` (the reference's example). */
export const WALLET_PAYMENT_ACTIVITY = 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2';

/**
 * The `payloadToSign` of a quote paid from an EMBEDDED_WALLET (docs/embedded-wallets.md, "Paying
 * from a wallet"): the reference's activity JSON binding the wallet, the quote, its transaction and
 * what it moves, stamped with the quote's creation time. Stored on the quote when it is created and
 * verified over exactly that text on execute.
 */
export function walletPayloadOf(
  quote: Pick<
    QuoteEntity,
    | 'id'
    | 'platformId'
    | 'sourceAccountId'
    | 'transactionId'
    | 'sendingCurrency'
    | 'receivingCurrency'
    | 'totalSendingAmount'
    | 'totalReceivingAmount'
    | 'destinationKind'
    | 'destinationAccountId'
    | 'destinationUmaAddress'
    | 'createdAt'
  >,
): string {
  return activityPayload(
    formatId('Platform', quote.platformId),
    WALLET_PAYMENT_ACTIVITY,
    {
      signWith: formatId('InternalAccount', quote.sourceAccountId!),
      quoteId: formatId('Quote', quote.id),
      transactionId: formatId('Transaction', quote.transactionId),
      sendingAmount: { amount: quote.totalSendingAmount, currency: quote.sendingCurrency },
      receivingAmount: { amount: quote.totalReceivingAmount, currency: quote.receivingCurrency },
      destination:
        quote.destinationKind === 'UmaAddress'
          ? { umaAddress: quote.destinationUmaAddress }
          : { accountId: formatId(quote.destinationKind, quote.destinationAccountId) },
    },
    quote.createdAt,
  );
}

/** The wallet's payment instructions of a quote: what its holder stamps (the reference's PaymentEmbeddedWalletInfo). */
export function walletPaymentInstructions(quote: QuoteEntity): PaymentInstructionsView[] {
  return [
    {
      accountOrWalletInfo: { accountType: 'EMBEDDED_WALLET', payloadToSign: quote.walletPayloadToSign! },
      instructionsNotes:
        'Stamp payloadToSign as-is with a live session key of the wallet and send the stamp as the Service-Wallet-Signature (or Grid-Wallet-Signature) header of POST /quotes/{quoteId}/execute',
      isPlatformAccount: false,
    },
  ];
}

/**
 * The wallet holder's authorization of a wallet-funded quote's execution: the stamp over the
 * quote's `payloadToSign` by a live session key of the source wallet (401
 * WALLET_SIGNATURE_MISSING / _MALFORMED / _INVALID otherwise). Runs in the execute transaction,
 * before any money moves.
 */
export async function verifyWalletPayment(
  signatures: WalletSignatures,
  m: EntityManager,
  headers: RetryHeaders,
  quote: QuoteEntity,
): Promise<void> {
  await signatures.verifyStamp(m, headers, quote.platformId, quote.sourceAccountId!, quote.walletPayloadToSign!);
}

/** Refusal of a wallet-funded quote executed on a path that carries no wallet signature. */
export const walletSignatureRequired = (quote: QuoteEntity) =>
  new ApiError(
    'WALLET_SIGNATURE_MISSING',
    `Quote ${formatId('Quote', quote.id)} is paid from an embedded wallet: execute it with POST /quotes/{quoteId}/execute and the wallet holder's stamp over its payloadToSign`,
  );
