import type { OutboxWrite } from '../outbox/outbox.service.js';

/** The card as the API renders it (the cards feature defines it in full). */
export type CardStatusChangeData = { id: string } & Record<string, unknown>;

// The cards area declares the data its events carry (the outbox knows no area).
declare module '../outbox/outbox.service.js' {
  interface WebhookDataByType {
    'CARD.STATUS_CHANGE': CardStatusChangeData;
  }
}

/** `card.status_change` of the spec: the card (as the API renders it) is the data. */
export function cardStatusChange(platformId: string, card: CardStatusChangeData): OutboxWrite<'CARD.STATUS_CHANGE'> {
  return { platformId, type: 'CARD.STATUS_CHANGE', aggregateId: card.id, data: card };
}
