/** The spec's Card.status values (the reference's PENDING is not one of ours). */
export const CARD_STATUSES = ['PENDING_KYC', 'PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'];
/** The statuses a PATCH may request. */
export const REQUESTABLE_CARD_STATUSES = ['ACTIVE', 'FROZEN', 'CLOSED'];
/** The spec's statusReason values: present when CLOSED or when provisioning was rejected. */
export const CARD_STATUS_REASONS = ['ISSUER_REJECTED', 'CLOSED_BY_PLATFORM', 'CLOSED_BY_SERVICE'];
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
];
export const CARD_FORMS = ['VIRTUAL'];
export const CARD_BRANDS = ['VISA', 'MASTERCARD'];
/** How a sandbox provisioning ends: the card becomes ACTIVE, or CLOSED with ISSUER_REJECTED. */
export const PROVISIONING_OUTCOMES = ['ACTIVE', 'ISSUER_REJECTED'];
/** The actor recorded in the status history for transitions nobody requested (provisioning). */
export const SYSTEM_ACTOR = 'SYSTEM';
//# sourceMappingURL=card.types.js.map