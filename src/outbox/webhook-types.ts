/**
 * The reference's WebhookType enum (grid-2026-newer/webhooks.yaml), OBJECT.EVENT dot-notation: a
 * closed list, so every platform receives these and only these unless it asks for more.
 */
export const REFERENCE_WEBHOOK_TYPES = [
  'OUTGOING_PAYMENT.PENDING',
  'OUTGOING_PAYMENT.PENDING_AUTHORIZATION',
  'OUTGOING_PAYMENT.PROCESSING',
  'OUTGOING_PAYMENT.COMPLETED',
  'OUTGOING_PAYMENT.FAILED',
  'OUTGOING_PAYMENT.EXPIRED',
  'OUTGOING_PAYMENT.REFUND_PENDING',
  'OUTGOING_PAYMENT.REFUND_COMPLETED',
  'OUTGOING_PAYMENT.REFUND_FAILED',
  'INCOMING_PAYMENT.PENDING',
  'INCOMING_PAYMENT.PROCESSING',
  'INCOMING_PAYMENT.COMPLETED',
  'INCOMING_PAYMENT.FAILED',
  'INCOMING_PAYMENT.REFUND_PENDING',
  'INCOMING_PAYMENT.REFUND_COMPLETED',
  'INCOMING_PAYMENT.REFUND_FAILED',
  'CUSTOMER.KYC_APPROVED',
  'CUSTOMER.KYC_REJECTED',
  'CUSTOMER.KYC_PENDING',
  'CUSTOMER.KYB_APPROVED',
  'CUSTOMER.KYB_REJECTED',
  'CUSTOMER.KYB_PENDING',
  'VERIFICATION.APPROVED',
  'VERIFICATION.REJECTED',
  'VERIFICATION.RESOLVE_ERRORS',
  'VERIFICATION.IN_PROGRESS',
  'VERIFICATION.PENDING_MANUAL_REVIEW',
  'VERIFICATION.READY_FOR_VERIFICATION',
  'EXTERNAL_ACCOUNT.STATUS_UPDATED',
  'INTERNAL_ACCOUNT.BALANCE_UPDATED',
  'INTERNAL_ACCOUNT.STATUS_UPDATED',
  'INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED',
  'INVITATION.CLAIMED',
  'BULK_UPLOAD.COMPLETED',
  'BULK_UPLOAD.FAILED',
  'AGENT_ACTION.PENDING_APPROVAL',
  'CARD.STATUS_CHANGE',
  'CARD.PIN_STATUS_CHANGE',
  'CARD_TRANSACTION.AUTHORIZED',
  'CARD_TRANSACTION.PARTIALLY_SETTLED',
  'CARD_TRANSACTION.SETTLED',
  'CARD_TRANSACTION.DECLINED',
  'CARD_TRANSACTION.VOIDED',
  'CARD_TRANSACTION.EXCEPTION',
  'WALLET_OPERATION.COMPLETED',
  'WALLET_OPERATION.FAILED',
  'TEST',
] as const;

/**
 * This service's own types, outside the reference's list: written and delivered only for a
 * platform whose configuration asks for them (`extraWebhookTypes`, docs/webhooks.md#own-event-types);
 * each one's payload is in the served OpenAPI document's `webhooks` (src/openapi/own-webhooks.ts).
 */
export const OWN_WEBHOOK_TYPES = [
  // Stablecoin issuance (ours: the reference names no events for it; docs/stablecoins.md)
  'STABLECOIN_OPERATION.CREATED',
  'STABLECOIN_OPERATION.PENDING_FUNDING',
  'STABLECOIN_OPERATION.PENDING_PROVIDER',
  'STABLECOIN_OPERATION.PROCESSING',
  'STABLECOIN_OPERATION.COMPLETED',
  'STABLECOIN_OPERATION.FAILED',
  'STABLECOIN_OPERATION.EXPIRED',
  'STABLECOIN.GRID_OPERATIONS_STATUS_UPDATED',
  // Embedded-wallet credentials and sessions (ours: the reference names none; docs/embedded-wallets.md)
  'AUTH_CREDENTIAL.CREATED',
  'AUTH_CREDENTIAL.REVOKED',
  'AUTH_SESSION.CREATED',
  'AUTH_SESSION.REVOKED',
  // An embedded wallet exported, and delegated keys (ours; docs/embedded-wallets.md)
  'INTERNAL_ACCOUNT.EXPORTED',
  'DELEGATED_KEY.CREATED',
  'DELEGATED_KEY.ACTIVATED',
  'DELEGATED_KEY.REVOKED',
] as const;

/** Every type an event can have. */
export const WEBHOOK_TYPES = [...REFERENCE_WEBHOOK_TYPES, ...OWN_WEBHOOK_TYPES] as const;

export type WebhookType = (typeof WEBHOOK_TYPES)[number];
export type ReferenceWebhookType = (typeof REFERENCE_WEBHOOK_TYPES)[number];
export type OwnWebhookType = (typeof OWN_WEBHOOK_TYPES)[number];

const OWN = new Set<string>(OWN_WEBHOOK_TYPES);

const REFERENCE = new Set<string>(REFERENCE_WEBHOOK_TYPES);

/** Whether `type` is in the reference's closed list. */
export function isReferenceWebhookType(type: string): type is ReferenceWebhookType {
  return REFERENCE.has(type);
}

/** Whether `type` is one of this service's own types (opt-in), not the reference's. */
export function isOwnWebhookType(type: string): type is OwnWebhookType {
  return OWN.has(type);
}

/**
 * What `extraWebhookTypes` accepts: each own type, each of their resources as `<RESOURCE>.*` (the
 * own types under it: `INTERNAL_ACCOUNT.*` is `INTERNAL_ACCOUNT.EXPORTED`, the reference's
 * `INTERNAL_ACCOUNT` types are delivered anyway), and `*` (every own type).
 */
export const EXTRA_WEBHOOK_TYPE_CHOICES: readonly string[] = [
  '*',
  ...new Set(OWN_WEBHOOK_TYPES.map((type) => `${type.split('.')[0]}.*`)),
  ...OWN_WEBHOOK_TYPES,
];

export const WEBHOOK_EVENT_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
/** PENDING: waiting for its first attempt or a retry (or in flight); DELIVERED and FAILED are final. */
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];

/** `{id: "Webhook:<uuid>", type, timestamp, data}`: the body every webhook POSTs, byte for byte. */
export interface WebhookEnvelope<D = unknown> {
  id: string;
  type: WebhookType;
  /** When the event occurred (ISO 8601); identical on every retry, so the signed body never changes. */
  timestamp: string;
  data: D;
}
