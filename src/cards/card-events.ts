import type { OutboxWrite } from '../outbox/outbox.service.js';
import type { Card } from './card.dto.js';

/** The data of `CARD.STATUS_CHANGE`: the card after the change, exactly as the API renders it. */
export type CardStatusChangeData = Card;

// The cards area declares the data its events carry (the outbox knows no area).
declare module '../outbox/outbox.service.js' {
  interface WebhookDataByType {
    'CARD.STATUS_CHANGE': CardStatusChangeData;
  }
}

/** `card.status_change` of the spec: the card (as the API renders it, `renderCard`) is the data. */
export function cardStatusChange(platformId: string, card: Card): OutboxWrite<'CARD.STATUS_CHANGE'> {
  return { platformId, type: 'CARD.STATUS_CHANGE', aggregateId: card.id, data: { ...card } };
}
