/**
 * The payout-rail port as agreed (docs: the `rail` helper's rewrite of ../rail.ts), copied here so
 * the Modern Treasury adapter compiles before that rewrite lands.
 *
 * TO BE REPLACED BY ../rail.js AT MERGE: delete this file and import these names from '../rail.js'
 * (same names, same shapes). Nothing else in the service may import from this file.
 */
export type RailStatus = 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'RETURNED';

/** Where the money goes, as the provider needs it (filled from our external account). */
export interface RailDestination {
  externalAccountId: string;
  accountType: string;
  beneficiaryName: string;
  beneficiaryKind: 'INDIVIDUAL' | 'BUSINESS';
  currency: string;
  /** The type-specific fields of our external account's accountInfo (routing/account number, iban, bic, ...). */
  accountInfo: Record<string, unknown>;
}

export interface RailPayment {
  transactionId: string;
  platformId: string;
  amount: bigint;
  currency: string;
  paymentRail: string | null;
  destination: RailDestination;
  sendingAmount: bigint;
  description?: string;
}

/** One piece of provider news: from a verified webhook, or from the reconciliation poll. */
export interface RailNews {
  provider: string;
  eventId: string;
  providerRef: string;
  transactionId: string | null;
  status: RailStatus;
  occurredAt: Date;
  failureReason?: string;
}

export abstract class RailAdapter {
  abstract readonly name: string;
  abstract send(payment: RailPayment): Promise<{ providerRef: string; news: RailNews[] }>;
  abstract fetch(providerRef: string, transactionId: string): Promise<RailNews[]>;
  abstract parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): RailNews[];
  abstract expectedSettlementMs(paymentRail: string | null): number;
}

/** A retryable failure (the provider is down, slow or rate-limits): the worker tries again later. */
export class RailUnavailable extends Error {
  override readonly name = 'RailUnavailable';
}

/** An inbound webhook that is forged, tampered with or malformed: refused, nothing changes. */
export class RailWebhookRejected extends Error {
  override readonly name = 'RailWebhookRejected';
}

/**
 * A payment the provider will never take as it is (a destination it cannot pay, a request it
 * refuses): not retryable, the payout fails and is refunded. Not in the agreed port yet: the rail
 * worker treats any error other than RailUnavailable as this (to be folded into ../rail.js at merge).
 */
export class RailPaymentRefused extends Error {
  override readonly name = 'RailPaymentRefused';
}
