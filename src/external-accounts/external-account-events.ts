import type { OutboxWrite } from '../outbox/outbox.service.js';
import type { ExternalAccount } from './external-account.dto.js';

/**
 * `EXTERNAL_ACCOUNT.STATUS_UPDATED` (reference `ExternalAccountStatusWebhook`): the account as the
 * API renders it, the account its aggregate. Sent on a transition between statuses only: a new
 * account's first status is in its 201 response, as the reference describes the event.
 */
export function externalAccountStatusUpdated(
  platformId: string,
  account: ExternalAccount,
): OutboxWrite<'EXTERNAL_ACCOUNT.STATUS_UPDATED'> {
  return { platformId, type: 'EXTERNAL_ACCOUNT.STATUS_UPDATED', aggregateId: account.id, data: { ...account } };
}
