/**
 * The card state machine (spec: Card.status and PATCH /cards/{id} rules 1 and 2). Pure: no I/O.
 *
 * Requested by the platform (PATCH): exactly ACTIVE→FROZEN, FROZEN→ACTIVE, ACTIVE→CLOSED,
 * FROZEN→CLOSED. Done by the issuer (provisioning, never requested): PROCESSING→ACTIVE,
 * PROCESSING→CLOSED (ISSUER_REJECTED), PROCESSING→PENDING_KYC (the cardholder's KYC is no longer
 * APPROVED), PENDING_KYC→ACTIVE (approved again) or →CLOSED (rejected).
 */
export const REQUESTED_TRANSITIONS = {
    PENDING_KYC: [],
    PROCESSING: [],
    ACTIVE: ['FROZEN', 'CLOSED'],
    FROZEN: ['ACTIVE', 'CLOSED'],
    CLOSED: [],
};
export const PROVISIONING_TRANSITIONS = {
    PENDING_KYC: ['ACTIVE', 'CLOSED'],
    PROCESSING: ['ACTIVE', 'CLOSED', 'PENDING_KYC'],
    ACTIVE: [],
    FROZEN: [],
    CLOSED: [],
};
/**
 * Judges a PATCH against the card's current status: null when it may proceed. A transition
 * request is judged as a transition (ACTIVE or FROZEN requested of a CLOSED card is
 * INVALID_STATE_TRANSITION); CLOSED requested of a CLOSED card is CARD_ALREADY_CLOSED; a request
 * without `status` on a CLOSED card is CARD_NOT_MUTABLE.
 */
export function judgePatch(current, requested) {
    if (requested === undefined)
        return current === 'CLOSED' ? 'CARD_NOT_MUTABLE' : null;
    if (current === 'CLOSED' && requested === 'CLOSED')
        return 'CARD_ALREADY_CLOSED';
    return REQUESTED_TRANSITIONS[current].includes(requested) ? null : 'INVALID_STATE_TRANSITION';
}
/** Whether `from → to` is an edge of the machine (requested or provisioning). */
export function isAllowedEdge(from, to) {
    return (REQUESTED_TRANSITIONS[from].includes(to) || PROVISIONING_TRANSITIONS[from].includes(to));
}
/**
 * Where provisioning takes a PROCESSING or PENDING_KYC card: the issuer's outcome, held back in
 * PENDING_KYC while the cardholder's KYC is not APPROVED. Null when nothing changes (a PENDING_KYC
 * card whose cardholder is still not approved).
 */
export function provisioningTarget(current, outcome, kycApproved) {
    if (current !== 'PROCESSING' && current !== 'PENDING_KYC')
        return null;
    if (outcome === 'ISSUER_REJECTED')
        return 'CLOSED';
    if (kycApproved)
        return 'ACTIVE';
    return current === 'PENDING_KYC' ? null : 'PENDING_KYC';
}
//# sourceMappingURL=card-state-machine.js.map