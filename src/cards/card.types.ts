/** The spec's Card.status values (the reference's PENDING is not one of ours). */
export const CARD_STATUSES = ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

/** The statuses a PATCH may request. */
export const REQUESTABLE_CARD_STATUSES = ['ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type RequestableCardStatus = (typeof REQUESTABLE_CARD_STATUSES)[number];

/** The spec's statusReason values: present when CLOSED or when provisioning was rejected. */
export const CARD_STATUS_REASONS = ['ISSUER_REJECTED', 'CLOSED_BY_PLATFORM', 'CLOSED_BY_SERVICE'] as const;
export type CardStatusReason = (typeof CARD_STATUS_REASONS)[number];

/** The spec's 11 substatus values (why a card moves, in the issuer's vocabulary). */
export const CARD_SUBSTATUSES = [
  'LOST',
  'COMPROMISED',
  'DAMAGED',
  'END_USER_REQUEST',
  'ISSUER_REQUEST',
  'NOT_ACTIVE',
  'SUSPICIOUS_ACTIVITY',
  'INTERNAL_REVIEW',
  'EXPIRED',
  'UNDELIVERABLE',
  'OTHER',
] as const;
export type CardSubstatus = (typeof CARD_SUBSTATUSES)[number];

export const CARD_FORMS = ['VIRTUAL'] as const;
export type CardForm = (typeof CARD_FORMS)[number];

export const CARD_BRANDS = ['VISA', 'MASTERCARD'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

/** How a sandbox provisioning ends: the card becomes ACTIVE, or CLOSED with ISSUER_REJECTED. */
export const PROVISIONING_OUTCOMES = ['ACTIVE', 'ISSUER_REJECTED'] as const;
export type ProvisioningOutcome = (typeof PROVISIONING_OUTCOMES)[number];

/** The actor recorded in the status history for transitions nobody requested (provisioning). */
export const SYSTEM_ACTOR = 'SYSTEM';
