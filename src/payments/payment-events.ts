import type { OutboxWrite } from '../outbox/outbox.service.js';
import type { ReferenceWebhookType } from '../outbox/webhook-types.js';
import type { IncomingTransactionView, OutgoingTransactionView } from './transactions/transaction.render.js';

/** The reference's OUTGOING_PAYMENT.* suffixes this service sends. */
export type OutgoingPaymentEvent =
  | 'PENDING'
  | 'PENDING_AUTHORIZATION'
  | 'PROCESSING'
  | 'COMPLETED'
  | 'FAILED'
  | 'EXPIRED'
  | 'REFUND_PENDING'
  | 'REFUND_COMPLETED'
  | 'REFUND_FAILED';

/** `OUTGOING_PAYMENT.<event>` (reference OutgoingPaymentWebhook): the transaction as the API renders it. */
export function outgoingPayment(
  platformId: string,
  event: OutgoingPaymentEvent,
  transaction: OutgoingTransactionView,
): OutboxWrite {
  return {
    platformId,
    type: `OUTGOING_PAYMENT.${event}` as ReferenceWebhookType,
    aggregateId: transaction.id,
    data: { ...transaction },
  };
}

/** `INCOMING_PAYMENT.<event>` (reference IncomingPaymentWebhook; PROCESSING: the newer WebhookType). */
export function incomingPayment(
  platformId: string,
  event: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED',
  transaction: IncomingTransactionView,
): OutboxWrite {
  return {
    platformId,
    type: `INCOMING_PAYMENT.${event}` as ReferenceWebhookType,
    aggregateId: transaction.id,
    data: { ...transaction },
  };
}
