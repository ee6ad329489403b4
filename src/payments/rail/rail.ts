/**
 * The payout rail port (docs/payments.md "The rail", docs/production.md "Payout rail"). A payout
 * whose destination is an external account is handed to the rail's adapter by the RailWorker
 * after the execute committed, outside any database transaction, with our transaction id as the
 * provider's idempotency key; the provider's news comes back through `POST /webhooks/rails/{name}`
 * (verified by `parseWebhook`), through what `send` answers, and through the reconciliation poll
 * (`fetch`), all applied by one path (RailNewsApplier): deduplicated on (provider, eventId),
 * in status order, under a lock on the transaction.
 */
export type RailStatus = 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'RETURNED';

/** Where the money goes, as the provider needs it (filled from our external account). */
export interface RailDestination {
  /** Ours, e.g. ExternalAccount:0190... */
  externalAccountId: string;
  /** Our external account type, e.g. US_ACCOUNT, IBAN, ... */
  accountType: string;
  beneficiaryName: string;
  beneficiaryKind: 'INDIVIDUAL' | 'BUSINESS';
  currency: string;
  /** The type-specific fields of our external account's accountInfo (routing/account number, iban, bic, ...). */
  accountInfo: Record<string, unknown>;
}

/** One payout handed to the rail: the money already left the source and waits in RAIL_CLEARING. */
export interface RailPayment {
  /** Ours (Transaction:<uuid>): the provider's idempotency key. */
  transactionId: string;
  /** Ours (Platform:<uuid>). */
  platformId: string;
  /** What the destination receives, in minor units of `currency`. */
  amount: bigint;
  currency: string;
  /** ACH | WIRE | RTP | SEPA ... (ours, the quote's), null when the quote named none. */
  paymentRail: string | null;
  destination: RailDestination;
  /** The quote's sending amount, minor units (the sandbox's magic values read it). */
  sendingAmount: bigint;
  description?: string;
}

/** One piece of provider news: from a verified webhook, from `send`'s answer, or from the reconciliation poll. */
export interface RailNews {
  /** The adapter's name, e.g. 'modern-treasury'. */
  provider: string;
  /** The provider's event id (the dedupe key); news without one uses an id derived from the payment and status. */
  eventId: string;
  /** The provider's payment id. */
  providerRef: string;
  /** Ours (Transaction:<uuid> or the bare uuid), when the provider echoes it (metadata / idempotency key). */
  transactionId: string | null;
  /**
   * The transaction's platform (its uuid), when whoever brought the news knows it (the sandbox rail,
   * the worker's hand-off and poll): the applier's statements pin it. News without it (a provider's
   * webhook) has its platform found first, by one unlocked read across platforms.
   */
  platformId?: string;
  status: RailStatus;
  occurredAt: Date;
  /** The provider's reason / return code, for FAILED and RETURNED (noted on the status timeline). */
  failureReason?: string;
  /** When the provider expects the payment to settle (shown as the transaction's expectedSettlementAt). */
  expectedSettlementAt?: Date;
}

/**
 * One payout rail provider. Every adapter passes test/e2e/rail-modern-treasury.e2e-spec.ts's
 * scenarios against its provider's stand-in (docs/production.md "Writing another rail adapter").
 */
export abstract class RailAdapter {
  /** The PAYOUT_RAIL value: 'sandbox' | 'modern-treasury' (the webhook route's segment). */
  abstract readonly name: string;
  /**
   * Hands one payment to the provider. Called by a worker AFTER the execute committed, outside any
   * DB transaction. Idempotent on payment.transactionId (sent as the provider's idempotency key):
   * calling it twice creates one payment at the provider. Throws RailUnavailable on a retryable
   * failure, RailPaymentRefused when the provider refuses the payment for good.
   */
  abstract send(payment: RailPayment): Promise<{ providerRef: string; news: RailNews[] }>;
  /**
   * Reconciliation: the provider's current view of one payment, as news (`platformId`: the
   * payment's platform uuid, for a rail that keeps its payments in this database, the sandbox).
   */
  abstract fetch(providerRef: string, transactionId: string, platformId?: string): Promise<RailNews[]>;
  /**
   * Verifies (the provider's own signature scheme) and parses one inbound webhook; throws
   * RailWebhookRejected on a forged / malformed one. Non-payment events parse to [].
   */
  abstract parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): RailNews[];
  /** How long a payment on this rail may normally take to settle (ms), for the overdue gauge and the poll. */
  abstract expectedSettlementMs(paymentRail: string | null): number;
}

/** A retryable failure (the provider is down, slow or rate-limits): the worker tries again later, same key. */
export class RailUnavailable extends Error {
  override readonly name = 'RailUnavailable';
}

/**
 * The provider refused the payment for good (e.g. it rejects the destination): the transaction
 * FAILS and its source is refunded. `reason` is noted on the timeline.
 */
export class RailPaymentRefused extends Error {
  override readonly name = 'RailPaymentRefused';
}

/** An inbound webhook that is forged, tampered with or malformed: refused (401), nothing changes. */
export class RailWebhookRejected extends Error {
  override readonly name = 'RailWebhookRejected';
}

/** Status order: news is applied up this ladder (FAILED is terminal from PENDING / PROCESSING). */
export const RAIL_STATUS_RANK: Record<RailStatus, number> = { PROCESSING: 1, COMPLETED: 2, FAILED: 2, RETURNED: 3 };
