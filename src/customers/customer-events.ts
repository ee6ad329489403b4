import type { OutboxWrite } from '../outbox/outbox.service.js';
import type { ReferenceWebhookType } from '../outbox/webhook-types.js';
import type { CustomerView } from './customer.dto.js';
import type { KycStatus } from './customer.types.js';
import type { InternalAccount } from './internal-account.dto.js';

/**
 * The reference's WebhookType has an event for these KYC (KYB) statuses only; UNVERIFIED and
 * HOLD have none, so moving to them notifies nobody.
 */
const KYC_EVENT_STATUSES: ReadonlySet<KycStatus> = new Set<KycStatus>(['APPROVED', 'REJECTED', 'PENDING']);

/**
 * `CUSTOMER.KYC_<status>` for an individual, `CUSTOMER.KYB_<status>` for a business (reference
 * `CustomerWebhook`): the customer as the API renders it is the data, the customer its aggregate.
 * Null when the status has no event type.
 */
export function kycStatusChanged(platformId: string, customer: CustomerView): OutboxWrite | null {
  if (!KYC_EVENT_STATUSES.has(customer.kycStatus)) return null;
  const check = customer.customerType === 'BUSINESS' ? 'KYB' : 'KYC';
  return {
    platformId,
    type: `CUSTOMER.${check}_${customer.kycStatus}` as ReferenceWebhookType,
    aggregateId: customer.id,
    data: { ...customer },
  };
}

/** `INTERNAL_ACCOUNT.BALANCE_UPDATED` (reference `InternalAccountStatusWebhook`): the account after the movement. */
export function balanceUpdated(
  platformId: string,
  account: InternalAccount,
): OutboxWrite<'INTERNAL_ACCOUNT.BALANCE_UPDATED'> {
  return { platformId, type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED', aggregateId: account.id, data: { ...account } };
}
