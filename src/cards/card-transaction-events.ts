import type { OutboxWrite } from '../outbox/outbox.service.js';
import type { WebhookType } from '../outbox/webhook-types.js';
import type { CardTransaction } from './card-transaction.dto.js';

/** `CARD_TRANSACTION.<status>`: one event type per card transaction status (reference CardTransactionWebhook). */
export type CardTransactionEventType = Extract<WebhookType, `CARD_TRANSACTION.${CardTransaction['status']}`>;

declare module '../outbox/outbox.service.js' {
  // Every CARD_TRANSACTION.* event carries the card transaction.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface WebhookDataByType extends Record<CardTransactionEventType, CardTransaction> {}
}

/**
 * `CARD_TRANSACTION.<status>`: the card transaction as the API renders it is the data, the
 * transaction its aggregate (its events are delivered in order).
 */
export function cardTransactionEvent(platformId: string, txn: CardTransaction): OutboxWrite<CardTransactionEventType> {
  return { platformId, type: `CARD_TRANSACTION.${txn.status}`, aggregateId: txn.id, data: txn };
}
