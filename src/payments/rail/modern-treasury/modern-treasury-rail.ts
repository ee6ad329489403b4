import { timingSafeEqual } from 'node:crypto';
import ModernTreasury, {
  APIConnectionError,
  APIError,
  AuthenticationError,
  ConflictError,
  InternalServerError,
  PermissionDeniedError,
  RateLimitError,
} from 'modern-treasury';
import type { Counterparty } from 'modern-treasury/resources/counterparties';
import type { PaymentOrder } from 'modern-treasury/resources/payment-orders/payment-orders';
import type { AppConfig } from '../../../config/app-config.js';
import { mapDestination, paymentTypeFor, UnsupportedDestination } from './destination.js';
import {
  RailAdapter,
  type RailNews,
  type RailPayment,
  RailPaymentRefused,
  type RailStatus,
  RailUnavailable,
  RailWebhookRejected,
} from '../rail.js';

/** What the adapter needs (from AppConfig: MODERN_TREASURY_*; see docs/modern-treasury.md). */
export interface ModernTreasuryRailOptions {
  apiKey: string;
  organizationId: string;
  /** The webhook key of the Developer settings: every webhook's `X-Signature` is its HMAC-SHA256. */
  webhookKey: string;
  /** The internal account (ours, at Modern Treasury) every payout is paid from. */
  originatingAccountId: string;
  /** Unset: https://app.moderntreasury.com. Tests point it at test/support/modern-treasury-stand-in.ts. */
  baseURL?: string;
  /** One request's limit (ms); default 30 s. */
  timeoutMs?: number;
  /**
   * Retries inside one `send`/`fetch` (the SDK's backoff on connection errors, 408, 409, 429, 5xx;
   * every retry of a create repeats its Idempotency-Key). Default 2; the rail worker retries further.
   */
  maxRetries?: number;
}

/**
 * Modern Treasury's payment order statuses as ours (the one table; docs/modern-treasury.md):
 *
 * | Modern Treasury                                              | ours       |
 * |--------------------------------------------------------------|------------|
 * | needs_approval, approved, pending, processing, sent, held    | PROCESSING |
 * | completed                                                    | COMPLETED  |
 * | failed, cancelled, denied, stopped                           | FAILED     |
 * | returned, reversed                                           | RETURNED   |
 */
export const STATUS_MAP: Readonly<Record<PaymentOrder['status'], RailStatus>> = {
  needs_approval: 'PROCESSING',
  approved: 'PROCESSING',
  pending: 'PROCESSING',
  processing: 'PROCESSING',
  sent: 'PROCESSING',
  held: 'PROCESSING',
  completed: 'COMPLETED',
  failed: 'FAILED',
  cancelled: 'FAILED',
  denied: 'FAILED',
  stopped: 'FAILED',
  returned: 'RETURNED',
  reversed: 'RETURNED',
};

/**
 * `payment_order` webhook events that change the order's status, as ours. The others (`created`
 * aside, e.g. `updated`, `acknowledged`, `confirmed`, `tentatively_reconciled`, `nsf_*`) do not
 * move the order and parse to no news.
 */
export const PAYMENT_ORDER_EVENTS: Readonly<Record<string, RailStatus>> = {
  created: 'PROCESSING',
  approved: 'PROCESSING',
  begin_processing: 'PROCESSING',
  finish_processing: 'PROCESSING',
  completed: 'COMPLETED',
  failed: 'FAILED',
  cancelled: 'FAILED',
  denied: 'FAILED',
  stopped: 'FAILED',
  returned: 'RETURNED',
  reversed: 'RETURNED',
};

const HOUR = 3_600_000;
/**
 * How long a payment order normally takes to settle, per our rail (the overdue gauge and the
 * reconciliation poll start after it): ACH 3 business days (~5 calendar days with a weekend);
 * same-day ACH 1 day; wire same day (24 h, cut-offs); RTP minutes (1 h of slack); SEPA 2 days;
 * UK Faster Payments 1 h, Bacs 3 days; Canadian EFT 3 days; NEFT 1 day; SWIFT wires 3 days.
 */
const SETTLEMENT_MS: Readonly<Record<string, number>> = {
  ACH: 5 * 24 * HOUR,
  ACH_CREDIT: 5 * 24 * HOUR,
  ACH_SAME_DAY: 24 * HOUR,
  SAME_DAY_ACH_CREDIT: 24 * HOUR,
  WIRE: 24 * HOUR,
  RTP: HOUR,
  RTP_CREDIT: HOUR,
  SEPA: 2 * 24 * HOUR,
  FASTER_PAYMENTS: HOUR,
  BACS: 3 * 24 * HOUR,
  EFT: 3 * 24 * HOUR,
  NEFT: 24 * HOUR,
  SWIFT: 3 * 24 * HOUR,
};
/** A rail not listed (or none given): the slowest, so nothing is called overdue too early. */
const DEFAULT_SETTLEMENT_MS = 5 * 24 * HOUR;

/** The metadata keys we write on every payment order and counterparty (echoed in webhooks). */
export const METADATA = {
  transactionId: 'transaction_id',
  platformId: 'platform_id',
  externalAccountId: 'external_account_id',
};

/**
 * The payout rail on Modern Treasury (PAYOUT_RAIL=modern-treasury), through its official SDK.
 *
 * `send` finds or creates the counterparty of our external account (looked up by `external_id` =
 * our external account id, created with an Idempotency-Key derived from it), then creates one
 * payment order (direction credit, from MODERN_TREASURY_ORIGINATING_ACCOUNT_ID) with our
 * transaction id as its Idempotency-Key and in its metadata: sent twice, Modern Treasury answers the
 * first order again. News comes back through `parseWebhook` (the `X-Signature` HMAC, checked in
 * constant time) and `fetch` (the reconciliation poll).
 */
export class ModernTreasuryRail extends RailAdapter {
  readonly name = 'modern-treasury';
  private readonly client: ModernTreasury;

  constructor(private readonly options: ModernTreasuryRailOptions) {
    super();
    // Every option is passed explicitly, so the SDK never reads process.env (config is AppConfig's).
    this.client = new ModernTreasury({
      apiKey: options.apiKey,
      organizationID: options.organizationId,
      webhookKey: options.webhookKey,
      baseURL: options.baseURL ?? 'https://app.moderntreasury.com',
      timeout: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
      logLevel: 'off',
    });
  }

  /** The adapter for PAYOUT_RAIL=modern-treasury (loadConfig has checked the variables are there). */
  static fromConfig(config: AppConfig): ModernTreasuryRail {
    const { MODERN_TREASURY_API_KEY, MODERN_TREASURY_ORGANIZATION_ID, MODERN_TREASURY_WEBHOOK_KEY } = config;
    const originatingAccountId = config.MODERN_TREASURY_ORIGINATING_ACCOUNT_ID;
    if (
      !MODERN_TREASURY_API_KEY ||
      !MODERN_TREASURY_ORGANIZATION_ID ||
      !MODERN_TREASURY_WEBHOOK_KEY ||
      !originatingAccountId
    ) {
      throw new Error('PAYOUT_RAIL=modern-treasury needs the MODERN_TREASURY_* variables (docs/modern-treasury.md)');
    }
    return new ModernTreasuryRail({
      apiKey: MODERN_TREASURY_API_KEY,
      organizationId: MODERN_TREASURY_ORGANIZATION_ID,
      webhookKey: MODERN_TREASURY_WEBHOOK_KEY,
      originatingAccountId,
      ...(config.MODERN_TREASURY_BASE_URL ? { baseURL: config.MODERN_TREASURY_BASE_URL } : {}),
    });
  }

  async send(payment: RailPayment): Promise<{ providerRef: string; news: RailNews[] }> {
    const { destination } = payment;
    let mapped: ReturnType<typeof mapDestination>;
    let rail: ReturnType<typeof paymentTypeFor>;
    try {
      mapped = mapDestination(destination);
      rail = paymentTypeFor(payment.paymentRail, mapped, destination);
    } catch (error) {
      if (error instanceof UnsupportedDestination) throw new RailPaymentRefused(error.message);
      throw error;
    }
    if (payment.amount <= 0n || payment.amount > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new RailPaymentRefused(`amount ${payment.amount} is outside what Modern Treasury takes`);
    }
    const order = await this.call(async () => {
      const counterparty = await this.counterpartyFor(payment, mapped.account);
      const receiving = counterparty.accounts?.[0];
      if (!receiving?.id) throw new RailUnavailable(`counterparty ${counterparty.id} has no account`);
      return this.client.paymentOrders.create(
        {
          type: rail.type,
          ...(rail.priority ? { priority: rail.priority } : {}),
          direction: 'credit',
          amount: Number(payment.amount),
          currency: payment.currency as PaymentOrder['currency'],
          originating_account_id: this.options.originatingAccountId,
          receiving_account_id: receiving.id,
          ...(payment.description ? { description: payment.description } : {}),
          metadata: {
            [METADATA.transactionId]: payment.transactionId,
            [METADATA.platformId]: payment.platformId,
          },
        },
        { idempotencyKey: payment.transactionId },
      );
    });
    return { providerRef: order.id, news: [this.newsOf(order, `order:${order.id}:${order.status}`)] };
  }

  async fetch(providerRef: string, transactionId: string): Promise<RailNews[]> {
    const order = await this.call(() => this.client.paymentOrders.retrieve(providerRef));
    const news = this.newsOf(order, `order:${order.id}:${order.status}`);
    return [{ ...news, transactionId: news.transactionId ?? transactionId }];
  }

  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): RailNews[] {
    const header = (name: string): string | undefined => {
      const value = headers[name] ?? headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    };
    const given = header('x-signature');
    if (!given) throw new RailWebhookRejected('no X-Signature header');
    // The SDK computes Modern Treasury's signature (HMAC-SHA256 of the raw body with the webhook
    // key, hex); its own validateSignature compares with ===, so the comparison is done here, in
    // constant time.
    const expected = Buffer.from(
      this.client.webhooks.getSignature(rawBody.toString('utf8'), { key: this.options.webhookKey }),
      'utf8',
    );
    const presented = Buffer.from(given.trim().toLowerCase(), 'utf8');
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      throw new RailWebhookRejected('the X-Signature does not match the body');
    }
    let body: { event?: unknown; data?: unknown };
    try {
      body = JSON.parse(rawBody.toString('utf8')) as { event?: unknown; data?: unknown };
    } catch {
      throw new RailWebhookRejected('the body is not JSON');
    }
    if (typeof body?.event !== 'string' || body.data === null || typeof body.data !== 'object') {
      throw new RailWebhookRejected('the body is not a Modern Treasury webhook ({event, data})');
    }
    const data = body.data as Record<string, unknown>;
    if (typeof data.id !== 'string' || Number.isNaN(Date.parse(String(data.updated_at ?? data.created_at)))) {
      throw new RailWebhookRejected('the webhook data has no id or timestamp');
    }
    const topic = header('x-topic') ?? (typeof data.object === 'string' ? data.object : '');
    const webhookId = header('x-webhook-id');
    const eventId = (kind: string) => webhookId ?? `${kind}:${String(data.id)}:${body.event as string}`;

    if (topic === 'payment_order') {
      const status = PAYMENT_ORDER_EVENTS[body.event];
      if (!status) return [];
      const order = data as unknown as PaymentOrder;
      if (!(order.status in STATUS_MAP))
        throw new RailWebhookRejected(`unknown payment order status ${String(order.status)}`);
      return [{ ...this.newsOf(order, eventId('payment_order')), status }];
    }
    if (topic === 'return') {
      // A return of one of our payment orders (the payment_order `returned` event says the same;
      // news is deduplicated and applied in status order, so both land once).
      const ret = data as { returnable_type?: unknown; returnable_id?: unknown; code?: unknown; reason?: unknown };
      if (ret.returnable_type !== 'payment_order' || typeof ret.returnable_id !== 'string') return [];
      if (body.event !== 'completed' && body.event !== 'created') return [];
      return [
        {
          provider: this.name,
          eventId: eventId('return'),
          providerRef: ret.returnable_id,
          transactionId: null,
          status: 'RETURNED',
          occurredAt: dateOf(data.updated_at ?? data.created_at),
          failureReason: reasonOf(ret.code, ret.reason),
        },
      ];
    }
    return [];
  }

  expectedSettlementMs(paymentRail: string | null): number {
    return (paymentRail && SETTLEMENT_MS[paymentRail]) || DEFAULT_SETTLEMENT_MS;
  }

  private async counterpartyFor(payment: RailPayment, account: ReturnType<typeof mapDestination>['account']) {
    const { destination } = payment;
    const page = await this.client.counterparties.list({ external_id: destination.externalAccountId, per_page: 1 });
    const found = page.getPaginatedItems()[0] as Counterparty | undefined;
    if (found) return found;
    return this.client.counterparties.create(
      {
        name: destination.beneficiaryName,
        external_id: destination.externalAccountId,
        metadata: {
          [METADATA.externalAccountId]: destination.externalAccountId,
          [METADATA.platformId]: payment.platformId,
        },
        accounts: [account],
      },
      { idempotencyKey: `counterparty:${destination.externalAccountId}` },
    );
  }

  private newsOf(order: PaymentOrder, eventId: string): RailNews {
    const status = STATUS_MAP[order.status];
    if (!status) throw new RailUnavailable(`unknown Modern Treasury payment order status ${String(order.status)}`);
    const transactionId = order.metadata?.[METADATA.transactionId] ?? null;
    const failureReason =
      status === 'RETURNED'
        ? reasonOf(order.current_return?.code, order.current_return?.reason)
        : status === 'FAILED'
          ? (order.vendor_failure_reason ?? order.status)
          : undefined;
    return {
      provider: this.name,
      eventId,
      providerRef: order.id,
      transactionId,
      status,
      occurredAt: dateOf(order.updated_at),
      ...(failureReason ? { failureReason } : {}),
    };
  }

  /**
   * Runs SDK calls, sorting failures: the provider down, slow, rate-limiting, busy with the same
   * idempotency key, or refusing our credentials (an operator fixes them; the money waits) is
   * RailUnavailable (the worker retries, with the same keys); a request Modern Treasury refuses
   * (400, 404, 422) is RailPaymentRefused (the payout fails and is refunded).
   */
  private async call<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof RailUnavailable || error instanceof RailPaymentRefused) throw error;
      if (
        error instanceof APIConnectionError ||
        error instanceof InternalServerError ||
        error instanceof RateLimitError ||
        error instanceof ConflictError ||
        error instanceof AuthenticationError ||
        error instanceof PermissionDeniedError
      ) {
        throw new RailUnavailable(`Modern Treasury is unavailable: ${error.message}`, { cause: error });
      }
      if (error instanceof APIError && error.status === 408) {
        throw new RailUnavailable(`Modern Treasury timed out: ${error.message}`, { cause: error });
      }
      if (error instanceof APIError) {
        throw new RailPaymentRefused(`Modern Treasury refused the request: ${error.message}`, { cause: error });
      }
      throw error;
    }
  }
}

function reasonOf(code: unknown, reason: unknown): string | undefined {
  const parts = [code, reason].filter((p): p is string => typeof p === 'string' && p !== '');
  return parts.length > 0 ? parts.join(': ') : undefined;
}

function dateOf(value: unknown): Date {
  const date = typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new Error(`not a timestamp: ${String(value)}`);
  return date;
}
