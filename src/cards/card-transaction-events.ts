import type { OutboxWrite } from '../outbox/outbox.service.js';
import type { CardTransaction } from './card-transaction.dto.js';

export const CARD_TRANSACTION_EVENT_TYPES = [
  'CARD_TRANSACTION.AUTHORIZED',
  'CARD_TRANSACTION.PARTIALLY_SETTLED',
  'CARD_TRANSACTION.SETTLED',
  'CARD_TRANSACTION.DECLINED',
  'CARD_TRANSACTION.VOIDED',
  'CARD_TRANSACTION.EXCEPTION',
] as const;
export type CardTransactionEventType = (typeof CARD_TRANSACTION_EVENT_TYPES)[number];

declare module '../outbox/outbox.service.js' {
  interface WebhookDataByType {
    'CARD_TRANSACTION.AUTHORIZED': CardTransaction;
    'CARD_TRANSACTION.PARTIALLY_SETTLED': CardTransaction;
    'CARD_TRANSACTION.SETTLED': CardTransaction;
    'CARD_TRANSACTION.DECLINED': CardTransaction;
    'CARD_TRANSACTION.VOIDED': CardTransaction;
    'CARD_TRANSACTION.EXCEPTION': CardTransaction;
  }
}

/**
 * `CARD_TRANSACTION.<status>` (reference CardTransactionWebhook): the card transaction as the API
 * renders it is the data, the transaction its aggregate (its events are delivered in order).
 */
export function cardTransactionEvent(platformId: string, txn: CardTransaction): OutboxWrite<CardTransactionEventType> {
  return { platformId, type: `CARD_TRANSACTION.${txn.status}`, aggregateId: txn.id, data: txn };
}
