import type { OutboxWrite } from '../outbox/outbox.service.js';
import type { Stablecoin, StablecoinOperation } from './stablecoin.dto.js';
import type { OperationStatus } from './stablecoin.types.js';

/**
 * The stablecoin events (ours: the reference names none for this tag), in its OBJECT.EVENT
 * notation: one `STABLECOIN_OPERATION.<status>` per status an operation enters (its data: the
 * operation as the API renders it), and `STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED` when the coin's
 * enablement changes (its data: the coin).
 */
export type StablecoinOperationEventType = `STABLECOIN_OPERATION.${OperationStatus}`;

declare module '../outbox/outbox.service.js' {
  interface WebhookDataByType {
    'STABLECOIN_OPERATION.CREATED': StablecoinOperation;
    'STABLECOIN_OPERATION.PENDING_FUNDING': StablecoinOperation;
    'STABLECOIN_OPERATION.PENDING_PROVIDER': StablecoinOperation;
    'STABLECOIN_OPERATION.PROCESSING': StablecoinOperation;
    'STABLECOIN_OPERATION.COMPLETED': StablecoinOperation;
    'STABLECOIN_OPERATION.FAILED': StablecoinOperation;
    'STABLECOIN_OPERATION.EXPIRED': StablecoinOperation;
    'STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED': Stablecoin;
  }
}

export function operationEvent(
  platformId: string,
  operation: StablecoinOperation,
): OutboxWrite<StablecoinOperationEventType> {
  return {
    platformId,
    type: `STABLECOIN_OPERATION.${operation.status}`,
    aggregateId: operation.id,
    data: { ...operation },
  };
}

export function gridStatusEvent(
  platformId: string,
  coin: Stablecoin,
): OutboxWrite<'STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED'> {
  return { platformId, type: 'STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED', aggregateId: coin.id, data: { ...coin } };
}
